// fix-file-errors: every error in one file, with the file's text, to be fixed and re-checked.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "fix-file-errors",
  title: "Fix every error in a file",
  description: "Fixes every error the language servers and linters report in one file, with the diagnostics and the file attached.",
  arguments: [{ name: "file", description: "The file to fix", required: true, complete: "path" }],
  async build(args, ctx) {
    const file = args.file ?? "";
    const a = new Assembly(ctx);
    await a.add(`Diagnostics of ${file}`, { tool: "getDiagnostics", args: { file } });
    await a.add(`${file}`, { tool: "readFile", args: { path: file } });
    return a.render(`Fix every error reported for ${file}. Work through them in order; for each, find the cause (goToDefinition, getHover, findReferences help) rather than silencing it.
Edit with the bridge's edit tools, then call getDiagnostics with file "${file}" again and repeat until it reports no errors. Do not change behaviour beyond what a fix needs. Finish with the list of fixes and anything you could not fix, with why.`);
  },
});
