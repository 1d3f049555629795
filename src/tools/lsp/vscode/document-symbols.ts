// getDocumentSymbols through VS Code (vscode.executeDocumentSymbolProvider): the outline its
// editor shows, indented as the headless answer is (the extension flattens it with depths).
import type { ToolContext } from "../../../capabilities/context.ts";
import { toFileUri } from "../../../lib/paths/file-uri.ts";
import { splitLines } from "../../../lsp/positions.ts";
import type { Verbosity } from "../position-input.ts";

export async function documentSymbolsViaVsCode(
  input: { file: string; maxDepth?: number; verbosity: Verbosity },
  ctx: ToolContext,
): Promise<string> {
  const path = await ctx.fs.resolve(input.file);
  const relative = ctx.fs.relative(path);
  const doc = await ctx.extension.request("extension/readDocument", { filePath: path }, { signal: ctx.signal });
  const answer = await ctx.extension.request(
    "extension/languageFeature",
    { feature: "documentSymbols", uri: toFileUri(path) },
    { signal: ctx.signal },
  );
  const symbols = answer.symbols ?? [];
  if (symbols.length === 0) return `${relative} has no symbols (VS Code).`;
  const maxDepth = input.maxDepth ?? (input.verbosity === "minimal" ? 2 : 4);
  const out: string[] = [];
  for (let i = 0; i < symbols.length; i++) {
    const s = symbols[i];
    if (s === undefined) continue;
    const depth = s.depth ?? 0;
    if (depth >= maxDepth) continue;
    const start = s.range.start.line + 1;
    const end = s.range.end.line + 1;
    const detail = input.verbosity === "verbose" && s.detail ? `  ${s.detail}` : "";
    const where = s.depth === undefined ? `:${start}` : start === end ? `:${start}` : `:${start}-${end}`;
    const container = s.depth === undefined && s.containerName ? `${s.containerName} > ` : "";
    out.push(`${"  ".repeat(depth)}${container}${s.name} ${s.kind} ${where}${detail}`);
    if (depth + 1 !== maxDepth) continue;
    // The children below the cut are counted, as the headless outline does.
    let children = 0;
    for (let j = i + 1; j < symbols.length && (symbols[j]?.depth ?? 0) > depth; j++) if (symbols[j]?.depth === depth + 1) children++;
    if (children > 0) out.push(`${"  ".repeat(depth + 1)}… ${children} more inside; raise maxDepth`);
  }
  return `${relative} (${splitLines(doc.text).length} lines, VS Code):\n${out.join("\n")}`;
}
