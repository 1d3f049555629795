// sendHttpRequest: an HTTP(S) request on the user's behalf, through ctx.http (the SSRF defence,
// redirects re-checked at every hop, the body capped). The answer is plain text, like curl -i:
// status line, headers, body.
import * as v from "valibot";
import { DEFAULT_MAX_RESPONSE_BYTES, MAX_REDIRECTS, type HttpResponse } from "../../capabilities/http/http-client.ts";
import { defineTool } from "../platform/define-tool.ts";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
const MAX_RESPONSE_BYTES = 1024 * 1024;

export default defineTool({
  name: "sendHttpRequest",
  title: "Send HTTP request",
  description:
    "Sends an HTTP(S) request to a public address and returns status, headers and body (50 KB by default). Private, loopback and metadata addresses are refused.",
  searchHint: "http request curl fetch api endpoint rest get post rest client",
  input: v.strictObject({
    url: v.pipe(v.string(), v.maxLength(8192), v.description("Absolute http:// or https:// URL.")),
    method: v.optional(v.pipe(v.picklist(METHODS), v.description("Default GET."))),
    headers: v.optional(v.pipe(v.record(v.string(), v.string()), v.description("Request headers; Host always comes from the URL."))),
    body: v.optional(v.pipe(v.string(), v.maxLength(1024 * 1024), v.description("Request body (text)."))),
    timeoutMs: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1000),
        v.maxValue(120_000),
        v.description("For the whole exchange, redirects included (default 30000)."),
      ),
    ),
    maxBytes: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(MAX_RESPONSE_BYTES),
        v.description(`Body bytes returned (default ${DEFAULT_MAX_RESPONSE_BYTES}).`),
      ),
    ),
    followRedirects: v.optional(
      v.pipe(v.boolean(), v.description(`Follow up to ${MAX_REDIRECTS} redirects, each checked again (default true).`)),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  timeoutMs: 120_000,
  async handler(input, ctx) {
    const response = await ctx.http.request(input.url, {
      method: input.method ?? "GET",
      ...(input.headers === undefined ? {} : { headers: input.headers }),
      ...(input.body === undefined ? {} : { body: input.body }),
      timeoutMs: input.timeoutMs ?? 30_000,
      maxBytes: input.maxBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      maxRedirects: input.followRedirects === false ? 0 : MAX_REDIRECTS,
    });
    return formatResponse(response);
  },
});

function formatResponse(r: HttpResponse): string {
  const lines = [`HTTP ${r.status} ${r.statusText}`.trim()];
  lines.push(
    `(${r.url} at ${r.address}, ${r.durationMs} ms${r.redirects.length > 0 ? `, after ${r.redirects.map((h) => `${h.status} -> ${h.location}`).join(", ")}` : ""})`,
  );
  if (r.droppedHeaders.length > 0)
    lines.push(`(not sent after the redirect to another origin, as credentials: ${r.droppedHeaders.join(", ")})`);
  for (const [name, value] of r.headers) lines.push(`${name}: ${value}`);
  lines.push("");
  if (r.text === undefined) lines.push(`[binary body, ${r.bytes}${r.truncated ? "+" : ""} bytes, not shown]`);
  else if (r.text !== "") lines.push(r.text);
  if (r.truncated) lines.push("", `[body cut at ${r.bytes} bytes; pass a larger maxBytes for more]`);
  return lines.join("\n");
}
