// write-tests: tests for one file, following the project's existing test conventions.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "write-tests",
  title: "Write tests for a file",
  description: "Writes tests for a file in the project's own style, with the file, its symbols and its existing tests attached.",
  arguments: [{ name: "file", description: "The file to test", required: true, complete: "path" }],
  async build(args, ctx) {
    const file = args.file ?? "";
    const a = new Assembly(ctx);
    await a.add(file, { tool: "readFile", args: { path: file } });
    await a.add(`Symbols of ${file}`, { tool: "getDocumentSymbols", args: { file } });
    await a.add(`Existing tests of ${file}`, { tool: "findRelatedTests", args: { filePath: file } });
    return a.render(`Write tests for ${file}. Follow the project's test framework, file layout and naming (the related tests below show them; open one with readFile).
Cover the public behaviour: normal cases, edge cases and errors; each test must be able to fail. Then run them with runTests and fix what fails (in the tests unless you found a real bug: then report it).`);
  },
});
