// doctor's checks of the VS Code extension: installed in which editors (their CLIs' own
// --list-extensions), and whether it is connected to the bridge for this directory (its /health).
import type { Runtime } from "../ports/runtime.ts";
import type { Check } from "./doctor-report.ts";
import { EDITORS, EXTENSION_ID, runEditorCli } from "./editor-clis.ts";

export async function extensionInstallChecks(runtime: Runtime): Promise<Check[]> {
  const found = await Promise.all(
    EDITORS.map(async (editor) => {
      const cli = await runtime.which(editor);
      if (cli === undefined) return undefined;
      const listed = await runEditorCli(runtime, cli, { args: ["--list-extensions"] }).catch(() => undefined);
      return { editor, installed: listed?.code === 0 && listed.output.split("\n").some((l) => l.trim().toLowerCase() === EXTENSION_ID) };
    }),
  );
  const editors = found.filter((f) => f !== undefined);
  if (editors.length === 0)
    return [
      { area: "extension", status: "info", summary: `no editor CLI on PATH (${EDITORS.join(", ")}); the extension cannot be checked` },
    ];
  return editors.map(({ editor, installed }) =>
    installed
      ? { area: "extension", status: "ok", summary: `installed in ${editor}` }
      : { area: "extension", status: "info", summary: `not installed in ${editor}`, fix: `claude-ide-bridge install-extension ${editor}` },
  );
}

/** From the bridge's /health body: whether an extension is connected to it now. */
export function extensionConnectionCheck(health: Record<string, unknown>): Check {
  const ext = health.extension;
  const state = typeof ext === "object" && ext !== null && "state" in ext ? String(ext.state) : "unknown";
  if (state === "connected") {
    const info = (ext as { info?: { appName?: string; ideVersion?: string; extensionVersion?: string } }).info;
    return {
      area: "extension",
      status: "ok",
      summary: `connected to the bridge (${info?.appName ?? "VS Code"} ${info?.ideVersion ?? "?"}, extension ${info?.extensionVersion ?? "?"})`,
    };
  }
  if (state === "not_answering")
    return {
      area: "extension",
      status: "warn",
      summary: "connected but not answering (the bridge's circuit breaker is open)",
      fix: "check the VS Code window; reload it if it hangs",
    };
  return {
    area: "extension",
    status: "info",
    summary: `not connected to the bridge (${state}); editor tools answer headless or not at all`,
    fix: "open this folder in VS Code with the extension installed (claude-ide-bridge install-extension)",
  };
}
