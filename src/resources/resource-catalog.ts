// resources/list, resources/templates/list and resources/read over the workspace: every file the
// search tools see (findFiles: .gitignore honoured, .git and node_modules never) as a file:// URI,
// paged; the bridge's own resources (bridge-resources.ts); and templates for any file and for
// one file's diagnostics. Reads go through the jail; text comes back as text, anything else as a
// base64 blob with its MIME type, and nothing larger than the cap is sent whole.
import { fromFileUri, toFileUri } from "../lib/paths/file-uri.ts";
import { BRIDGE_RESOURCES, FILE_DIAGNOSTICS_PREFIX } from "./bridge-resources.ts";
import { foundFiles } from "../prompts/tool-lines.ts";
import { decodeText, mimeTypeOf, toBase64 } from "./mime.ts";
import { readTerminal, terminalIdOf, terminalResources } from "./terminal-resources.ts";
import { type ResourceContext, ResourceMissing, ResourceRefused } from "./resource-context.ts";

/** Files listed by findFiles at most: a bigger workspace is listed in part, and the list says so. */
export const MAX_LISTED_FILES = 10_000;

export interface ResourceEntry {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ResourceContent {
  uri: string;
  mimeType: string;
  text?: string;
  blob?: string;
  _meta?: Record<string, unknown>;
}

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "file://{+path}",
    name: "workspace-file",
    title: "Workspace file",
    description: "Any file inside the workspace, by absolute path (text, or a base64 blob for binary files).",
  },
  {
    uriTemplate: `${FILE_DIAGNOSTICS_PREFIX}{+path}`,
    name: "file-diagnostics",
    title: "Diagnostics of one file",
    description: "Errors and warnings of one file (workspace-relative path), from the language servers and linters.",
    mimeType: "application/json",
  },
];

/** The bridge's resources, then every workspace file; `truncated` when the file list was cut. */
export async function listResources(ctx: ResourceContext): Promise<{ entries: ResourceEntry[]; truncated: boolean }> {
  const entries: ResourceEntry[] = BRIDGE_RESOURCES.filter((r) => !r.needsExtension || ctx.extensionConnected).map((r) => ({
    uri: r.uri,
    name: r.name,
    title: r.title,
    description: r.description,
    mimeType: r.mimeType,
  }));
  entries.push(...(await terminalResources(ctx)));
  const found = await ctx.tool("findFiles", { pattern: "**", maxResults: MAX_LISTED_FILES });
  const { files, truncated } = found.ok ? foundFiles(found.text) : { files: [], truncated: false };
  const root = ctx.fs.root;
  for (const file of files) {
    const name = file.slice(file.lastIndexOf("/") + 1);
    entries.push({ uri: toFileUri(`${root}/${file}`), name: file, mimeType: mimeTypeOf(name, true) });
  }
  return { entries, truncated };
}

/** One resource's contents; `maxChars` caps what one read sends (the bridge's result cap). */
export async function readResource(uri: string, ctx: ResourceContext, opts: { maxChars: number }): Promise<ResourceContent> {
  const own = BRIDGE_RESOURCES.find((r) => r.uri === uri);
  if (own !== undefined) {
    if (own.needsExtension && !ctx.extensionConnected) {
      throw new ResourceMissing(uri, `${uri} needs the VS Code extension, which is not connected`);
    }
    return { uri, mimeType: own.mimeType, text: cap(await own.read(ctx), opts.maxChars) };
  }
  const terminal = terminalIdOf(uri);
  if (terminal !== undefined) return { uri, mimeType: "text/plain", text: cap(await readTerminal(uri, terminal, ctx), opts.maxChars) };
  if (uri.startsWith(FILE_DIAGNOSTICS_PREFIX)) {
    const file = decodeURIComponent(uri.slice(FILE_DIAGNOSTICS_PREFIX.length));
    const outcome = await ctx.tool("getDiagnostics", { file });
    if (!outcome.ok) throw new ResourceMissing(uri, `No diagnostics for ${file}: ${outcome.text}`);
    return { uri, mimeType: "application/json", text: cap(outcome.text, opts.maxChars) };
  }
  const path = fromFileUri(uri);
  if (path === undefined)
    throw new ResourceMissing(uri, `Resource not found: ${uri} (resources/list and resources/templates/list name what exists)`);
  return readFile(uri, path, ctx, opts.maxChars);
}

async function readFile(uri: string, path: string, ctx: ResourceContext, maxChars: number): Promise<ResourceContent> {
  let file: Awaited<ReturnType<ResourceContext["fs"]["openFile"]>>;
  try {
    file = await ctx.fs.openFile(path);
  } catch (err) {
    // The jail's refusal and a missing file read the same to the client: nothing served at that URI.
    throw new ResourceMissing(uri, `Resource not found: ${uri} (${err instanceof Error ? err.message : String(err)})`);
  }
  try {
    const size = file.stat.size;
    const bytes = await file.read(0, Math.min(size, maxChars + 4));
    const name = path.slice(path.lastIndexOf("/") + 1);
    const whole = bytes.length >= size;
    const text = whole ? decodeText(bytes) : decodeCut(bytes, maxChars);
    if (text !== undefined) {
      const mimeType = mimeTypeOf(name, true);
      if (whole && text.length <= maxChars) return { uri, mimeType, text };
      const shown = text.slice(0, maxChars);
      return {
        uri,
        mimeType,
        text: `${shown}\n[cut: ${size} bytes in all, the first ${shown.length} characters shown; readFile with startLine reads the rest]`,
        _meta: { "claude-ide-bridge/truncated": { shownChars: shown.length, totalBytes: size } },
      };
    }
    // Base64 grows 4/3: the blob must fit the same cap as text.
    if (Math.ceil(size / 3) * 4 > maxChars) {
      throw new ResourceRefused(
        uri,
        `${uri} is a ${size}-byte binary file; its base64 would exceed the bridge's ${maxChars}-character cap`,
      );
    }
    return { uri, mimeType: mimeTypeOf(name, false), blob: toBase64(bytes.subarray(0, size)) };
  } finally {
    await file.close();
  }
}

/** Text cut at a byte count may end inside a UTF-8 sequence: back off up to 3 bytes to decode it. */
function decodeCut(bytes: Uint8Array, maxChars: number): string | undefined {
  const end = Math.min(bytes.length, maxChars);
  for (let back = 0; back < 4 && end - back > 0; back++) {
    const text = decodeText(bytes.subarray(0, end - back));
    if (text !== undefined) return text;
  }
  return undefined;
}

function cap(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}\n[cut at the bridge's ${maxChars}-character cap]`;
}
