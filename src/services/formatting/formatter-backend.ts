// Where formatDocument and formatAndSave get formatted text from. Backends are asked in order and
// the first that handles the file formats it: today the formatter CLIs the project uses
// (src/services/formatting/cli-formatters.ts); the [lsp] issue adds a language server's
// textDocument/formatting as a further backend, in front or behind as it decides.
import type { ProjectFacts } from "../diagnostics/project-facts.ts";
import type { ToolContext } from "../../capabilities/context.ts";

export interface FormatterBackend {
  readonly name: string;
  /** Whether it formats `file` (root-relative) in this project. */
  handles(ctx: ToolContext, file: string, project: ProjectFacts): Promise<boolean>;
  /** The formatted text of `text`, the content of `file`. */
  format(ctx: ToolContext, file: string, text: string, project: ProjectFacts): Promise<string>;
}
