// explain-file: a guided tour of one file: its text, its outline and its recent history.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "explain-file",
  title: "Explain a file",
  description: "Explains what a file does and how it fits in: its text, its symbols and its recent commits.",
  arguments: [{ name: "file", description: "The file to explain", required: true, complete: "path" }],
  async build(args, ctx) {
    const file = args.file ?? "";
    const a = new Assembly(ctx);
    await a.add(file, { tool: "readFile", args: { path: file } });
    await a.add(`Outline of ${file}`, { tool: "getDocumentSymbols", args: { file, maxDepth: 2 } });
    await a.add(`Recent commits touching ${file}`, { tool: "getGitLog", args: { paths: [file], limit: 10 } });
    return a.render(`Explain ${file}: its purpose, its main parts and how they interact, what it depends on and who depends on it (findReferences on its exports), and anything surprising.
Refer to lines as ${file}:N. Keep it to what a developer needs before changing the file.`);
  },
});
