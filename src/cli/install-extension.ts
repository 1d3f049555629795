// `claude-ide-bridge install-extension [code|cursor|windsurf|code-server] [--vsix <file>]`: installs
// the bridge's VS Code extension with the editor's own CLI (`--install-extension`). Without an
// editor named, the first of code, cursor, windsurf and code-server on PATH. Once installed, the
// extension finds a running bridge for the folder it opens and connects on its own.
import { EDITORS, EXTENSION_ID, packagedVsix, runEditorCli, type Editor } from "./editor-clis.ts";
import type { CommandMain } from "./command-io.ts";
import { parseFlags } from "./flags.ts";

const HELP = `Usage: claude-ide-bridge install-extension [code|cursor|windsurf|code-server] [--vsix <file>]

Installs the claude-ide-bridge VS Code extension into the editor (default: the first of
${EDITORS.join(", ")} found on PATH), using its own CLI. Reload the editor window afterwards;
the extension then connects to the bridge of the folder it has open (claude-ide-bridge doctor
says whether it did).
`;

export const installExtension: CommandMain = async (ctx, args) => {
  const flags = parseFlags(args, { values: ["--vsix"], booleans: ["--help", "-h"], maxPositionals: 1 });
  if (flags.booleans.has("--help") || flags.booleans.has("-h")) {
    ctx.out(HELP);
    return 0;
  }
  const named = flags.positionals[0];
  if (named !== undefined && !(EDITORS as readonly string[]).includes(named)) {
    ctx.err(`unknown editor "${named}": one of ${EDITORS.join(", ")}`);
    return 2;
  }
  const candidates: readonly Editor[] = named === undefined ? EDITORS : [named as Editor];
  let cli: string | undefined;
  for (const editor of candidates) {
    cli = await ctx.runtime.which(editor);
    if (cli !== undefined) break;
  }
  if (cli === undefined) {
    ctx.err(
      named === undefined
        ? `none of ${EDITORS.join(", ")} is on PATH; in VS Code run "Shell Command: Install 'code' command in PATH", or name the editor`
        : `${named} is not on PATH; install its command-line launcher first`,
    );
    return 1;
  }
  const vsix = flags.values.get("--vsix") ?? (await packagedVsix(ctx.runtime));
  if (vsix === undefined) {
    ctx.err("this copy has no packaged extension (extension/claude-ide-bridge.vsix); build it: cd extension && npm ci && npm run package");
    return 1;
  }
  const done = await runEditorCli(ctx.runtime, cli, { args: ["--install-extension", vsix, "--force"] });
  if (done.code !== 0) {
    ctx.err(`${cli} --install-extension ${vsix} failed (exit ${done.code}):\n${done.output}`);
    return 1;
  }
  ctx.out(`Installed ${EXTENSION_ID} with ${cli}. Reload the editor window; the extension connects to the bridge of the open folder.\n`);
  return 0;
};
