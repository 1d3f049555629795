// clangd knows a C or C++ file's flags, and the files of the project, from a compilation database
// (compile_commands.json, or compile_flags.txt), which it looks for in the file's directory, each
// one above it, and their build/ subdirectories. Without one it guesses the flags and knows only
// the files it has open, so its answers are about far less than the project; that is said with
// every whole-project answer rather than left for the model to discover.
import type { ToolContext } from "../../capabilities/context.ts";
import type { LspDocument } from "../../lsp/lsp-service.ts";
import { dirname } from "../../lib/paths/posix-path.ts";

const NAMES = ["compile_commands.json", "compile_flags.txt", "build/compile_commands.json"];

/** A sentence for an answer from clangd when no compilation database covers the file; undefined otherwise. */
export async function compileDatabaseNote(ctx: ToolContext, doc: LspDocument): Promise<string | undefined> {
  if (doc.server.launch.spec.id !== "clangd") return undefined;
  for (let dir = dirname(doc.relative); ; dir = dirname(dir)) {
    const base = dir === "." || dir === "" ? "" : `${dir}/`;
    for (const name of NAMES) {
      const found = await ctx.fs.stat(`${base}${name}`).then(
        (st) => st.isFile,
        () => false,
      );
      if (found) return undefined;
    }
    if (base === "") break;
  }
  return `clangd found no compilation database for ${doc.relative} (compile_commands.json or compile_flags.txt in its directory, one above it, or their build/): it guesses the flags and knows only the files it has opened. Generate one (cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make) for answers about the whole project.`;
}
