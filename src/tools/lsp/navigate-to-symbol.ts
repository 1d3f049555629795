// navigateToSymbolByName: where a symbol of exactly this name is defined, with its source, for a
// model that knows a name but not its file (the name-first addressing agents converged on).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { renderPlaces, SourceLines } from "./locations.ts";
import { SYMBOL_KIND_NAMES, symbolKindName } from "./symbol-kinds.ts";
import { searchSymbols } from "./workspace-symbols.ts";

const MAX_SHOWN = 10;

export default defineTool({
  name: "navigateToSymbolByName",
  title: "Navigate to symbol by name",
  description:
    "Finds where a class, function or variable of exactly this name is defined (optionally Container.name or a kind), and shows its source lines.",
  searchHint: "navigate to symbol by name where is class function defined open definition by name",
  input: v.strictObject({
    name: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(200),
      v.description('The exact name, or Container.name (e.g. "UserService.save").'),
    ),
    kind: v.optional(
      v.pipe(
        v.picklist(SYMBOL_KIND_NAMES as [string, ...string[]]),
        v.description("Only symbols of this kind (class, function, method, interface...)."),
      ),
    ),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const dot = input.name.lastIndexOf(".");
    const [container, name] = dot > 0 ? [input.name.slice(0, dot), input.name.slice(dot + 1)] : [undefined, input.name];
    const found = await searchSymbols(name, ctx);
    const matches = found.symbols.filter(
      (s) =>
        s.name === name &&
        (container === undefined || s.container === container || s.container?.endsWith(`.${container}`)) &&
        (input.kind === undefined || symbolKindName(s.kind) === input.kind),
    );
    if (matches.length === 0) {
      const near = found.symbols.slice(0, 5).map((s) => s.name);
      throw new ToolError(
        "symbol_not_found",
        `No symbol named exactly "${input.name}"${input.kind ? ` of kind ${input.kind}` : ""}${found.complete ? "" : " (the servers were still loading)"}`,
        {
          suggestion:
            near.length > 0
              ? `Close names: ${near.join(", ")}. searchWorkspaceSymbols matches parts of names.`
              : "searchWorkspaceSymbols matches parts of names; searchWorkspace searches text.",
        },
      );
    }
    const shown = matches.slice(0, MAX_SHOWN);
    const where = await renderPlaces(
      shown.map((s) => s.place),
      { sources: new SourceLines(ctx), verbosity: "verbose" },
    );
    const header = `${matches.length} definition${matches.length === 1 ? "" : "s"} of ${input.name}${found.complete ? "" : " (PARTIAL: servers were still loading)"}:`;
    const kinds = shown.map((s) => `${s.name} ${symbolKindName(s.kind)}${s.container ? ` in ${s.container}` : ""}`);
    // renderPlaces("verbose") gives a head line and the lines around it for each place.
    const blocks: string[] = [];
    let i = -1;
    for (const line of where) {
      if (!line.startsWith("  ")) blocks.push(`${kinds[++i] ?? ""}  ${line}`);
      else blocks.push(line);
    }
    return `${header}\n${blocks.join("\n")}${matches.length > shown.length ? `\n… ${matches.length - shown.length} more; pass kind or Container.name to narrow.` : ""}`;
  },
});
