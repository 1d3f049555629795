// The editors the VS Code extension installs into, by their command-line programs, and where this
// copy of the bridge keeps the packaged extension (extension/claude-ide-bridge.vsix, built by
// `npm run package` in extension/ and shipped in the npm package).
import type { Runtime } from "../ports/runtime.ts";

export const EDITORS = ["code", "cursor", "windsurf", "code-server"] as const;
export type Editor = (typeof EDITORS)[number];
/** `<publisher>.<name>` of extension/package.json, as `--list-extensions` prints it. */
export const EXTENSION_ID = "claude-ide-bridge.claude-ide-bridge-vscode";
const CLI_TIMEOUT_MS = 60_000;

/** extension/claude-ide-bridge.vsix of this copy: src/cli in a checkout, dist/src/cli when compiled. */
export async function packagedVsix(runtime: Pick<Runtime, "fs">): Promise<string | undefined> {
  for (const up of ["../..", "../../..", "../../../.."]) {
    const path = decodeURIComponent(new URL(`${up}/extension/claude-ide-bridge.vsix`, import.meta.url).pathname).replace(
      /^\/([A-Za-z]:)/,
      "$1",
    );
    if ((await runtime.fs.stat(path).catch(() => undefined))?.isFile) return path;
  }
  return undefined;
}

/** Runs an editor's CLI; its exit code and what it printed. */
export async function runEditorCli(
  runtime: Pick<Runtime, "spawn" | "paths">,
  cli: string,
  opts: { args: string[] },
): Promise<{ code: number; output: string }> {
  const { args } = opts;
  const child = runtime.spawn(cli, args, { cwd: runtime.paths.cwd, signal: AbortSignal.timeout(CLI_TIMEOUT_MS) });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, output: `${out}${err}`.trim() };
}
