// getTypeHierarchy: a class's or interface's supertypes and subtypes. Native (LSP 3.17
// typeHierarchy) where the server has it (clangd); derived from the declaration's heritage
// clause and the server's implementations elsewhere, and the result says which.
import * as v from "valibot";
import type { Location, LocationLink, TypeHierarchyItem } from "vscode-languageserver-protocol";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { openAt, partialNote } from "./at-position.ts";
import { derivedHierarchy } from "./derived-type-hierarchy.ts";
import { placesOf, renderPlaces, SourceLines, type Place } from "./locations.ts";
import { positionFields } from "./position-input.ts";
import { symbolKindName } from "./symbol-kinds.ts";
import { typeHierarchyViaVsCode } from "./vscode/type-hierarchy.ts";
import { EDIT_PROTOCOL_VERSION } from "../../extension/protocol-edit.ts";

export default defineTool({
  name: "getTypeHierarchy",
  title: "Type hierarchy",
  description:
    "Shows a class's or interface's supertypes (what it extends or implements) and subtypes (what extends or implements it), with file:line:col.",
  searchHint: "subclasses and superclasses of a class: type hierarchy, inheritance, base class, extends, implements",
  input: v.strictObject({
    ...positionFields,
    direction: v.optional(
      v.pipe(v.picklist(["supertypes", "subtypes", "both"]), v.description("Which way to look (default both).")),
      "both",
    ),
  }),
  annotations: { readOnlyHint: true },
  slim: true,
  viaExtension: typeHierarchyViaVsCode,
  extensionProtocol: EDIT_PROTOCOL_VERSION,
  async handler(input, ctx) {
    // Chosen per request by capability: a server of the language with a type hierarchy answers
    // natively (clangd; any configured one), else the first with definitions derives it.
    const at = await openAt(input, ctx, { method: "textDocument/prepareTypeHierarchy" }).catch((err: unknown) => {
      if (err instanceof ToolError && err.code === "not_supported") return openAt(input, ctx, { method: "textDocument/definition" });
      throw err;
    });
    const supers = input.direction !== "subtypes";
    const subs = input.direction !== "supertypes";
    const sources = new SourceLines(ctx);
    if (at.doc.server.supports("textDocument/prepareTypeHierarchy")) {
      const items = await at.doc.request<TypeHierarchyItem[] | null>("textDocument/prepareTypeHierarchy", at.params).catch(() => null);
      const root = items?.[0];
      if (root !== undefined) {
        const out = [await label(root.name, root.kind, { uri: root.uri, range: root.selectionRange }, sources)];
        for (const [wanted, method, title] of [
          [supers, "typeHierarchy/supertypes", "supertypes"],
          [subs, "typeHierarchy/subtypes", "subtypes"],
        ] as const) {
          if (!wanted) continue;
          const found = (await at.doc.request<TypeHierarchyItem[] | null>(method, { item: root })) ?? [];
          out.push(
            `  ${title}:`,
            ...(found.length === 0
              ? ["    (none)"]
              : await Promise.all(
                  found.map((i) => label(i.name, i.kind, { uri: i.uri, range: i.selectionRange }, sources).then((l) => `    ${l}`)),
                )),
          );
        }
        return `${at.note}${out.join("\n")}`;
      }
    }
    // Derived: from the declaration (where goToDefinition lands) of the symbol.
    const definition = placesOf(
      await at.doc.request<Location | Location[] | LocationLink[] | null>("textDocument/definition", at.params),
    )[0] ?? { uri: at.doc.uri, range: { start: at.position, end: at.position } };
    const derived = await derivedHierarchy(at.doc, definition, { supertypes: supers, subtypes: subs });
    const [head] = await renderPlaces([definition], { sources, verbosity: "normal" });
    const out = [
      `${partialNote({ complete: derived.subtypesComplete, ...(derived.why ? { why: derived.why } : {}) })}${at.name}  ${head ?? ""}`,
    ];
    if (supers) {
      out.push("  supertypes:");
      if (derived.supertypes.length === 0) out.push("    (none in the declaration)");
      for (const base of derived.supertypes)
        out.push(
          `    ${base.name}  ${base.place ? ((await renderPlaces([base.place], { sources, verbosity: "minimal" }))[0] ?? "") : "(definition not found)"}`,
        );
    }
    if (subs) {
      out.push("  subtypes:");
      if (!at.doc.server.supports("textDocument/implementation"))
        out.push(`    (${at.doc.server.serverName} cannot list them: no implementations request; try findReferences)`);
      else if (derived.subtypes.length === 0) out.push("    (none)");
      else out.push(...(await renderPlaces(derived.subtypes, { sources, verbosity: "normal" })).map((l) => `    ${l}`));
    }
    out.push(
      `(derived: ${at.doc.server.serverName} has no type hierarchy; supertypes from the declaration, subtypes from implementations)`,
    );
    return `${at.note}${out.join("\n")}`;
  },
});

async function label(name: string, kind: number, place: Place, sources: SourceLines): Promise<string> {
  const [where] = await renderPlaces([place], { sources, verbosity: "minimal" });
  return `${name} ${symbolKindName(kind)}  ${where ?? ""}`;
}
