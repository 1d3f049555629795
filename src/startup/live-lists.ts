// The lists a client can watch change: tools (the ones only VS Code can answer are listed while its
// extension is connected), resources (files, diagnostics, tests, terminals) and prompts, with the
// notifications that tell sessions and 2026 subscriptions/listen streams when they change.
import type { ContentSources } from "../mcp/core/mcp-core.ts";
import type { SubscriptionHub } from "../mcp/subscriptions/subscription-hub.ts";
import { PromptCatalog } from "../prompts/prompt-catalog.ts";
import { PROMPTS } from "../prompts/prompts.ts";
import { RecentTests } from "../prompts/recent-tests.ts";
import { ResourceWatch } from "../resources/resource-watch.ts";
import { SKILLS } from "../skills/catalog.ts";
import { skillPrompts } from "../skills/skill-prompts.ts";
import type { ToolRegistry } from "../tools/platform/registry.ts";
import { ToolListAnnouncer } from "../tools/platform/registry-announcer.ts";
import type { CoreServices } from "./core-services.ts";

export interface LiveLists {
  content: ContentSources;
  /** Told when tools/list_changed went out for another reason (a plugin reload), so it is not sent twice. */
  toolList: ToolListAnnouncer;
  stop(): void;
}

export function startLiveLists(
  core: Pick<CoreServices, "registry" | "extension" | "events" | "lsp" | "tools">,
  opts: { readRegistry?: ToolRegistry; hub: SubscriptionHub; notifySessions(): void },
): LiveLists {
  const { registry, extension, events, lsp, tools } = core;
  const { hub } = opts;
  const recentTests = new RecentTests();
  events.subscribe("test.run", (run) => recentTests.record(run));
  const watch = new ResourceWatch({
    fs: tools.env.fs,
    lsp,
    events,
    recentTests,
    terminalOutput: (id, { since, waitMs, signal }) =>
      extension.request("extension/terminalOutput", { id, waitMs, ...(since === undefined ? {} : { since }) }, { signal }),
  });
  const toolList = new ToolListAnnouncer(opts.readRegistry ? [registry, opts.readRegistry] : [registry], {
    announce: () => {
      opts.notifySessions();
      hub.publish({ kind: "toolsListChanged" });
    },
  });
  const extensionPresence = () => {
    const { state } = extension.status();
    return state === "connected" || state === "not_answering";
  };
  // The start-up state is what every client's first tools/list sees: nothing to announce.
  toolList.extensionPresent(extensionPresence());
  toolList.alreadyTold();
  // 2026 clients hear of resource-list changes on their subscriptions/listen streams.
  watch.onListChanged(() => hub.publish({ kind: "resourcesListChanged" }));
  const stopPresence = extension.on((event) => {
    if (event.type === "push") return;
    toolList.extensionPresent(extensionPresence());
    watch.listChanged();
  });
  const content: ContentSources = {
    prompts: new PromptCatalog([...PROMPTS, ...skillPrompts(SKILLS)]),
    recentTests: () => recentTests.latest(),
    watch,
    skills: SKILLS,
  };
  return {
    content,
    toolList,
    stop: () => {
      stopPresence();
      toolList.dispose();
      watch.dispose();
    },
  };
}
