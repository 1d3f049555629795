// A plugin's manifest, claude-ide-bridge-plugin.json at its root: what it is, where its code is, the
// prefix every tool name of it starts with, and the oldest bridge it works with. Checked before any
// of the plugin's code runs, with an error that names the field and says what it must be.
import * as v from "valibot";
import { PACKAGE_VERSION } from "../version.ts";

export const MANIFEST_FILE = "claude-ide-bridge-plugin.json";

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:[-+][0-9A-Za-z.+-]*)?$/;

const Manifest = v.strictObject({
  schemaVersion: v.pipe(v.literal(1), v.description("must be 1")),
  name: v.pipe(
    v.string("must be a string"),
    v.regex(/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/, "must be an npm-style name (lowercase, digits, - . _ ~)"),
    v.maxLength(214, "must be at most 214 characters"),
  ),
  version: v.pipe(v.string("must be a string"), v.regex(SEMVER, "must be a semantic version like 1.0.0")),
  entrypoint: v.pipe(
    v.string("must be a string"),
    v.regex(
      /^(?!\/)(?![A-Za-z]:)(?!.*(^|[/\\])\.\.([/\\]|$)).+\.(mjs|js|ts|mts)$/,
      "must be a relative path inside the plugin to a .mjs, .js, .ts or .mts file",
    ),
  ),
  toolNamePrefix: v.pipe(
    v.string("must be a string"),
    v.regex(/^[a-zA-Z][a-zA-Z0-9_]{1,19}$/, "must be 2-20 letters, digits or _ starting with a letter"),
  ),
  minBridgeVersion: v.pipe(v.string("must be a string"), v.regex(SEMVER, "must be a semantic version like 0.1.0")),
  description: v.optional(v.pipe(v.string("must be a string"), v.maxLength(200, "must be at most 200 characters"))),
});

export type PluginManifest = v.InferOutput<typeof Manifest>;

/** The manifest, or the first problem with it in words that name the field. */
export function parseManifest(
  text: string,
  opts: { bridgeVersion?: string } = {},
): { ok: true; manifest: PluginManifest } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `${MANIFEST_FILE} is not valid JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return { ok: false, error: `${MANIFEST_FILE} must hold a JSON object` };
  const parsed = v.safeParse(Manifest, json);
  if (!parsed.success) return { ok: false, error: describeIssue(parsed.issues[0]) };
  const bridgeVersion = opts.bridgeVersion ?? PACKAGE_VERSION;
  if (compareVersions(parsed.output.minBridgeVersion, bridgeVersion) > 0)
    return {
      ok: false,
      error: `${MANIFEST_FILE}: minBridgeVersion is ${parsed.output.minBridgeVersion}, but this bridge is ${bridgeVersion}; update claude-ide-bridge`,
    };
  return { ok: true, manifest: parsed.output };
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  const field = issue.path?.map((p) => String(p.key)).join(".") ?? "";
  const last = issue.path?.[issue.path.length - 1];
  if (issue.type === "strict_object" && last?.origin === "key") {
    return issue.expected === "never"
      ? `${MANIFEST_FILE}: unknown field "${field}" (allowed: ${Object.keys(Manifest.entries).join(", ")})`
      : `${MANIFEST_FILE}: missing field "${field}"`;
  }
  if (issue.type === "literal") return `${MANIFEST_FILE}: field "${field}" must be 1, got ${issue.received}`;
  return `${MANIFEST_FILE}: field "${field}" ${issue.message}, got ${issue.received}`;
}

/** -1, 0 or 1 as `a` is older than, the same as or newer than `b` (major.minor.patch; a pre-release counts as its release). */
export function compareVersions(a: string, b: string): number {
  const parts = (s: string) => (SEMVER.exec(s)?.slice(1, 4) ?? ["0", "0", "0"]).map(Number);
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}
