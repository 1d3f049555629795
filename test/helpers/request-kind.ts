// Which of Claude Code's requests to /v1/messages are turns of the main conversation (answered by
// the test's script) and which are side requests (answered here, without consuming the script).
//
// Observed with 2.1.197 and 2.1.332 in print mode (the CLI's --debug-file names each request's
// `source`): the main loop (`source=sdk`) always sends its tool list, while side requests send
// none: the session title (`source=generate_session_title`: `tools: []`, a "Generate a concise,
// sentence-case title" system prompt and `output_config.format` = a JSON schema {title}), and, in
// interactive or longer sessions, quota checks (`max_tokens: 1`), compaction summaries and prompt
// suggestions, all without tools. So: a request that asks for a JSON-schema answer, or that
// offers no tools, is a side request. A subagent's turns would carry tools and count as turns;
// the scripts in this repository never start one.
import type { AssistantTurn, MessagesRequest } from "./model-api-types.ts";

export type RequestKind = "turn" | "side" | "probe" | "count_tokens" | "unknown";

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
}

const outputSchema = (request: MessagesRequest): JsonSchema | undefined => {
  const format = request.output_config?.format;
  return format?.type === "json_schema" ? ((format.schema ?? {}) as JsonSchema) : undefined;
};

export function classifyRequest(request: MessagesRequest): RequestKind {
  if (outputSchema(request) !== undefined) return "side";
  return (request.tools?.length ?? 0) > 0 ? "turn" : "side";
}

/** The smallest value that satisfies the schema, with readable strings. */
function sampleOf(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return "Fake model session";
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "null":
      return null;
    default: {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sampleOf(schema.properties?.[key] ?? {});
      return out;
    }
  }
}

/** A short answer of the shape the side request asks for. */
export function sideAnswer(request: MessagesRequest): AssistantTurn {
  const schema = outputSchema(request);
  return { text: schema === undefined ? "OK" : JSON.stringify(sampleOf(schema)) };
}
