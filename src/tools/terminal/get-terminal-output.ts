// getTerminalOutput: what the commands of a terminal printed, as text, read through shell
// integration (the only output VS Code gives an extension); a terminal without it says so.
import * as v from "valibot";
import { findTerminal, tail } from "../../services/terminal/vscode-terminals.ts";
import { defineTool } from "../platform/define-tool.ts";

export default defineTool({
  name: "getTerminalOutput",
  title: "Terminal output",
  description:
    "Reads what the commands in a VS Code terminal printed (through shell integration), from an offset; ends with the offset to read on from.",
  searchHint: "terminal output read logs printed dev server console",
  input: v.strictObject({
    terminal: v.pipe(v.string(), v.minLength(1), v.description("Terminal id (listTerminals) or name.")),
    since: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description("Offset from a previous answer (default: all kept)."))),
    maxLines: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000), v.description("Last lines only (default 200).")),
    ),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    const terminal = await findTerminal(ctx, input.terminal);
    const out = await ctx.extension.request(
      "extension/terminalOutput",
      { id: terminal.id, ...(input.since === undefined ? {} : { since: input.since }) },
      { signal: ctx.signal },
    );
    const head = `Terminal ${terminal.id} "${terminal.name}"${out.exited ? " (exited)" : ""}, output up to offset ${out.next}:`;
    const lines = out.text.replace(/\n+$/, "").split("\n");
    const max = input.maxLines ?? 200;
    const shown = lines.length > max ? [`[${lines.length - max} earlier lines not shown]`, ...lines.slice(-max)] : lines;
    const notes: string[] = [];
    if (out.dropped) notes.push("[older output was dropped from the terminal's buffer]");
    if (out.text === "")
      notes.push(
        out.shellIntegration
          ? "(nothing printed by its commands since that offset)"
          : "(nothing to read: this terminal's shell has no shell integration, so VS Code gives its output to no extension; run commands with sendTerminalCommand in a terminal that has it, or with runCommand)",
      );
    return [head, ...(out.text === "" ? [] : [tail(shown.join("\n"), Math.floor(ctx.settings.maxResultChars * 0.9))]), ...notes].join("\n");
  },
});
