// goToDefinition, goToDeclaration, goToTypeDefinition and findImplementations are one request each
// with one answer shape (locations), so they are made by one factory with their own words. With VS
// Code connected they ask its language features (vscode.execute*Provider), which is what the user
// sees in the editor; headless, the bridge's language servers.
import * as v from "valibot";
import type { Location, LocationLink } from "vscode-languageserver-protocol";
import { WakeList } from "../../lsp/wake-list.ts";
import { defineTool, type Tool } from "../platform/define-tool.ts";
import { loadProjectsOf } from "../../services/language/verified-references.ts";
import { openAt, partialNote } from "./at-position.ts";
import { placesOf, renderPlaces, sortPlaces, SourceLines } from "./locations.ts";
import { maxResultsField, positionFields, verbosityField } from "./position-input.ts";
import { askVsCode, vsCodeSources } from "./vscode/places.ts";

const FRESH_RETRIES = 4;
const FRESH_RETRY_MS = 250;

interface LocationToolSpec {
  name: string;
  title: string;
  description: string;
  searchHint: string;
  method: string;
  /** What the found places are, for the header ("definition", "implementation"). */
  noun: string;
  /** Implementations span the project: the projects that use the symbol are loaded and checked first. */
  wholeProject?: boolean;
  alwaysLoad?: boolean;
}

export function locationTool(spec: LocationToolSpec): Tool {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    searchHint: spec.searchHint,
    input: v.strictObject({ ...positionFields, ...verbosityField, ...maxResultsField(100, 1000) }),
    annotations: { readOnlyHint: true },
    slim: true,
    ...(spec.alwaysLoad ? { alwaysLoad: true } : {}),
    async viaExtension(input, ctx) {
      const { places, name, where, note } = await askVsCode(input, ctx, { method: spec.method });
      if (places.length === 0)
        return `${note}No ${spec.noun} found for \`${name}\` at ${where} (VS Code). Check the line and symbol, or try searchWorkspaceSymbols.`;
      const shown = places.slice(0, input.maxResults);
      const lines = await renderPlaces(shown, { sources: vsCodeSources(ctx), verbosity: input.verbosity });
      const more = places.length > shown.length ? `\n… ${places.length - shown.length} more; raise maxResults to see them.` : "";
      const noun = places.length === 1 ? spec.noun : `${spec.noun}s`;
      return `${note}${places.length} ${noun} of \`${name}\` (${where}, VS Code):\n${lines.join("\n")}${more}`;
    },
    async handler(input, ctx) {
      const at = await openAt(input, ctx, { method: spec.method });
      type Answer = Location | Location[] | LocationLink[] | null;
      // Across the project: every project that uses the symbol is loaded (and checked) first.
      const coverage = spec.wholeProject ? await loadProjectsOf(ctx, at.doc, { name: at.name, params: at.params }) : undefined;
      const ask = async () => {
        if (!spec.wholeProject) return { value: await at.doc.request<Answer>(spec.method, at.params), complete: true };
        const answer = await at.doc.wholeProject<Answer>(spec.method, at.params);
        const why = [answer.complete ? undefined : answer.why, coverage?.complete === false ? coverage.why : undefined].filter(
          (w): w is string => w !== undefined,
        );
        return { value: answer.value, complete: why.length === 0, ...(why.length > 0 ? { why: why.join("; ") } : {}) };
      };
      let answer = await ask();
      // A document opened by this very call may still be parsing (bash-language-server answers
      // nothing then): an empty answer is asked again a few times before it is believed.
      for (let retry = 0; retry < FRESH_RETRIES && at.doc.fresh && placesOf(answer.value).length === 0; retry++) {
        await new WakeList().wait(Date.now() + FRESH_RETRY_MS, ctx.signal);
        answer = await ask();
      }
      const places = sortPlaces(placesOf(answer.value));
      const where = `${at.doc.relative}:${at.position.line + 1}:${at.position.character + 1}`;
      if (places.length === 0)
        return `${at.note}${partialNote(answer)}No ${spec.noun} found for \`${at.name}\` at ${where} (${at.doc.server.serverName}). Check the line and symbol, or try searchWorkspaceSymbols.`;
      const shown = places.slice(0, input.maxResults);
      const lines = await renderPlaces(shown, { sources: new SourceLines(ctx), verbosity: input.verbosity });
      const more = places.length > shown.length ? `\n… ${places.length - shown.length} more; raise maxResults to see them.` : "";
      const noun = places.length === 1 ? spec.noun : `${spec.noun}s`;
      const caveat = coverage?.caveat === undefined ? "" : `\nNote: ${coverage.caveat}`;
      return `${at.note}${partialNote(answer)}${places.length} ${noun} of \`${at.name}\` (${where}):\n${lines.join("\n")}${more}${caveat}`;
    },
  });
}
