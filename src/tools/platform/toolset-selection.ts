// Which tools a bridge registers: every toolset unless the user narrows it (--toolsets,
// --exclude-toolsets, --profile for clients that cap how many tools they take, --slim for the
// IDE-exclusive tools only). What is left out is remembered with the flag that brings it back, so
// getToolCapabilities can tell the model a tool is off by configuration rather than missing.
import { BridgeError } from "../../errors.ts";
import { PROFILE_DROP_ORDER } from "./profile-ranks.ts";
import type { Toolset } from "./toolset.ts";

/**
 * Clients that refuse or truncate long tool lists. VS Code takes at most 128 tools per request over
 * all its servers and Windsurf 100: the profiles keep the bridge at 100 or fewer, dropping tools one
 * by one in the order of PROFILE_DROP_ORDER (src/tools/platform/profile-ranks.ts) until it fits.
 */
export const PROFILES = { vscode: { maxTools: 100 }, windsurf: { maxTools: 100 } } as const;
export type ProfileName = keyof typeof PROFILES;

export interface ToolsetChoice {
  /** --toolsets: only these (the bridge toolset always stays, so the model can ask what is off). */
  readonly toolsets?: readonly string[];
  /** --exclude-toolsets: all but these. */
  readonly excludeToolsets?: readonly string[];
  readonly profile?: ProfileName;
  /** --slim: of what is left, only the tools marked slim (IDE-exclusive). */
  readonly slim?: boolean;
}

/** Tools left out by configuration, and the flag that brings them back. */
export interface OffByConfiguration {
  readonly toolset: string;
  readonly tools: readonly string[];
  readonly enable: string;
}

/** What choosing needs of a toolset: its name and its tools' names and slim marks (the shim chooses from the manifest's). */
export interface SelectableToolset {
  readonly name: string;
  readonly tools: readonly { readonly name: string; readonly slim?: boolean }[];
}

export interface Selection<T extends SelectableToolset = Toolset> {
  readonly toolsets: readonly T[];
  readonly off: readonly OffByConfiguration[];
}

/** Kept whatever --toolsets names: the bridge toolset (so the model can ask what is off) and the IDE link's tools (Claude Code needs every one). */
const ALWAYS_ON = ["bridge", "ide"];

export function selectToolsets<T extends SelectableToolset>(all: readonly T[], choice: ToolsetChoice): Selection<T> {
  const known = new Set(all.map((t) => t.name));
  for (const [flag, names] of [
    ["--toolsets", choice.toolsets],
    ["--exclude-toolsets", choice.excludeToolsets],
  ] as const) {
    const unknown = (names ?? []).filter((n) => !known.has(n));
    if (unknown.length > 0)
      throw new BridgeError("usage", `${flag}: unknown toolset ${unknown.join(", ")}; the toolsets are ${[...known].join(", ")}`);
  }
  const off: OffByConfiguration[] = [];
  const drop = (toolset: T, tools: readonly string[], enable: string) => {
    if (tools.length > 0) off.push({ toolset: toolset.name, tools, enable });
  };
  let kept: T[] = [];
  for (const toolset of all) {
    const only = choice.toolsets;
    if (only !== undefined && !ALWAYS_ON.includes(toolset.name) && !only.includes(toolset.name)) {
      drop(toolset, names(toolset), `add ${toolset.name} to --toolsets`);
    } else if (choice.excludeToolsets?.includes(toolset.name)) {
      drop(toolset, names(toolset), `remove ${toolset.name} from --exclude-toolsets`);
    } else if (choice.slim) {
      const tools = toolset.tools.filter((t) => t.slim);
      drop(
        toolset,
        toolset.tools.filter((t) => !t.slim).map((t) => t.name),
        "start without --slim",
      );
      if (tools.length > 0) kept.push({ ...toolset, tools });
    } else kept.push(toolset);
  }
  if (choice.profile !== undefined) kept = capToProfile(kept, { profile: choice.profile, named: choice.toolsets ?? [], drop });
  return { toolsets: kept, off };
}

interface ProfileCap<T> {
  profile: ProfileName;
  /** Toolsets the user named in --toolsets: a profile never drops those. */
  named: readonly string[];
  drop: (toolset: T, tools: readonly string[], enable: string) => void;
}

function capToProfile<T extends SelectableToolset>(kept: T[], { profile, named, drop }: ProfileCap<T>): T[] {
  const { maxTools } = PROFILES[profile];
  const dropped = new Set<string>();
  const protectedTools = new Set(kept.filter((t) => named.includes(t.name)).flatMap(names));
  let total = count(kept);
  for (const name of PROFILE_DROP_ORDER) {
    if (total <= maxTools) break;
    if (protectedTools.has(name) || !kept.some((t) => t.tools.some((tool) => tool.name === name))) continue;
    dropped.add(name);
    total -= 1;
  }
  if (total > maxTools)
    throw new BridgeError("usage", `--profile ${profile}: ${total} tools remain, above ${maxTools}; narrow them with --toolsets`);
  const result: T[] = [];
  for (const toolset of kept) {
    const tools = toolset.tools.filter((t) => !dropped.has(t.name));
    drop(
      toolset,
      toolset.tools.filter((t) => dropped.has(t.name)).map((t) => t.name),
      `start without --profile ${profile}, or name ${toolset.name} in --toolsets and leave out others`,
    );
    if (tools.length > 0) result.push(tools.length === toolset.tools.length ? toolset : { ...toolset, tools });
  }
  return result;
}

const count = (toolsets: readonly SelectableToolset[]) => toolsets.reduce((n, t) => n + t.tools.length, 0);
const names = (toolset: SelectableToolset) => toolset.tools.map((t) => t.name);
