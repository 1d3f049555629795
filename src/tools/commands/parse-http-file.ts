// parseHttpFile: the requests of a .http file (REST Client / JetBrains format) with file variables
// filled in, ready for sendHttpRequest. Reads only; sends nothing.
import * as v from "valibot";
import { parseHttpFile } from "./http-file.ts";
import { defineTool } from "../platform/define-tool.ts";

const MAX_HTTP_FILE_BYTES = 1024 * 1024;

const Request = v.object({
  name: v.optional(v.string()),
  line: v.pipe(v.number(), v.description("1-based line of the request line.")),
  method: v.string(),
  url: v.string(),
  headers: v.record(v.string(), v.string()),
  body: v.optional(v.string()),
  unresolved: v.pipe(
    v.array(v.string()),
    v.description("{{…}} references left as written (system or environment variables are never expanded)."),
  ),
});

export default defineTool({
  name: "parseHttpFile",
  title: "Parse .http file",
  description:
    "Parses a .http / .rest file (REST Client, JetBrains) into its requests with variables filled in, to send with sendHttpRequest. Sends nothing.",
  searchHint: "http file rest client .http .rest requests parse variables api",
  input: v.strictObject({ file: v.pipe(v.string(), v.description("Path of the .http file, relative to the workspace root.")) }),
  output: v.object({ requests: v.array(Request), variables: v.record(v.string(), v.string()) }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    return parseHttpFile(await ctx.fs.readText(input.file, { maxBytes: MAX_HTTP_FILE_BYTES }));
  },
});
