// Where formatDocument and formatAndSave get formatted text from. Backends are asked in order and
// the first that handles the file formats it: the formatter CLIs the project uses
// (src/services/formatting/cli-formatters.ts), then a language server's textDocument/formatting
// (lsp-formatter-backend.ts), so the project's own formatter keeps the last word on style.
import type { ProjectFacts } from "../diagnostics/project-facts.ts";
import type { ToolContext } from "../../capabilities/context.ts";

export interface FormatterBackend {
  readonly name: string;
  /** Whether it formats `file` (root-relative) in this project. */
  handles(ctx: ToolContext, file: string, project: ProjectFacts): Promise<boolean>;
  /** The formatted text of `text`, the content of `file`. */
  format(ctx: ToolContext, file: string, text: string, project: ProjectFacts): Promise<string>;
}
