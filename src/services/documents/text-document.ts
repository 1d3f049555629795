// A file opened for editing: its bytes, the version they are (for the stale check and for the
// commit), and the text the edit tools work on. That text is the file as a model reads it: no BOM,
// and "\n" line breaks when every break in the file is "\r\n", so text a model sends (with "\n")
// matches and fits. Encoding puts back exactly what was there: the BOM, and CRLF where the file
// had CRLF; text inserted into a file with mixed endings gets its most common one.
import { ToolError } from "../../errors.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import { displayName } from "../../lib/text/display-name.ts";
import { contentHash, hashMatches, identityOf, wholeMtime, type FileIdentity } from "../../workspace/file-version.ts";
import type { FileWrite } from "../../workspace/workspace-fs.ts";
import type { ToolContext } from "../../capabilities/context.ts";

/** Edits go through memory whole (and through the diff); larger files are not edited here. */
const MAX_EDIT_BYTES = 8 * 1024 * 1024;
const BOM = "\uFEFF";

export interface TextDocument {
  readonly path: WorkspacePath;
  /** Workspace-relative, escaped for display. */
  readonly label: string;
  readonly original: Uint8Array;
  readonly identity: FileIdentity;
  readonly hash: string;
  readonly mtime: number;
  readonly bom: boolean;
  /** Every line break is "\r\n": the text has "\n" and encoding turns them back. */
  readonly crlf: boolean;
  /** The break that text inserted into the file gets. */
  readonly eol: "\n" | "\r\n";
  /** What the edit tools see and change. */
  readonly text: string;
}

export interface ExpectedVersion {
  /** The content hash a read returned (getBufferContent, an edit's result). */
  expectedHash?: string | undefined;
  /** The mtime (ms since the epoch) the caller saw. */
  expectedMtime?: number | undefined;
}

export async function readDocument(ctx: ToolContext, filePath: string, expected: ExpectedVersion = {}): Promise<TextDocument> {
  const { path, bytes, stat } = await ctx.fs.readBytes(filePath, { maxBytes: MAX_EDIT_BYTES, forWrite: true });
  const doc = decodeDocument(bytes, {
    path,
    label: displayName(ctx.fs.relative(path)),
    identity: identityOf(stat),
    hash: await contentHash(bytes),
    mtime: wholeMtime(stat),
  });
  if (expected.expectedHash !== undefined && !hashMatches(expected.expectedHash, doc.hash)) {
    throw stale(filePath, `its content hash is ${doc.hash}, not ${expected.expectedHash}`);
  }
  if (expected.expectedMtime !== undefined && Math.trunc(expected.expectedMtime) !== doc.mtime) {
    throw stale(filePath, `it was modified at ${doc.mtime}, not ${Math.trunc(expected.expectedMtime)}`);
  }
  return doc;
}

function decodeDocument(
  bytes: Uint8Array,
  file: { path: WorkspacePath; label: string; identity: FileIdentity; hash: string; mtime: number },
): TextDocument {
  const { path, label, ...version } = file;
  if (bytes.includes(0)) {
    throw new ToolError("binary_file", `${label} looks binary (it has a NUL byte); it is not edited as text`, {
      suggestion: "Only text files can be edited with these tools.",
    });
  }
  let raw: string;
  try {
    raw = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ToolError("binary_file", `${label} is not valid UTF-8; editing it as text would change bytes it did not mean to`, {
      suggestion: "Convert the file to UTF-8 first, or edit it with another tool.",
    });
  }
  const bom = raw.startsWith(BOM);
  const body = bom ? raw.slice(1) : raw;
  const breaks = (body.match(/\n/g) ?? []).length;
  const crlfBreaks = (body.match(/\r\n/g) ?? []).length;
  const crlf = breaks > 0 && crlfBreaks === breaks;
  const eol = crlfBreaks * 2 > breaks ? "\r\n" : "\n";
  return { path, label, original: bytes, ...version, bom, crlf, eol, text: crlf ? body.replaceAll("\r\n", "\n") : body };
}

/** Text a model sent, with the line breaks the document's text uses. */
export function fitLineBreaks(doc: TextDocument, text: string): string {
  const lf = text.replaceAll("\r\n", "\n");
  return doc.crlf || doc.eol === "\n" ? lf : lf.replaceAll("\n", "\r\n");
}

export function encodeDocument(doc: TextDocument, text: string): Uint8Array {
  const body = doc.crlf ? text.replaceAll("\n", "\r\n") : text;
  return new TextEncoder().encode(doc.bom ? BOM + body : body);
}

/** The write of `text` over the version of the file that was read. */
export function documentWrite(doc: TextDocument, text: string): FileWrite {
  return { label: doc.label, path: doc.path, data: encodeDocument(doc, text), expect: { identity: doc.identity, original: doc.original } };
}

function stale(filePath: string, why: string): ToolError {
  return new ToolError("file_changed", `${filePath} changed since you read it: ${why}`, {
    suggestion: "Read it again (getBufferContent gives the current hash) and redo the edit against what it says now.",
  });
}

/** The document of a file that does not exist yet (a transaction may create it). */
export function newDocument(path: WorkspacePath, label: string): TextDocument {
  return {
    path,
    label,
    original: new Uint8Array(0),
    identity: { dev: 0, ino: 0, size: 0, mtimeMs: 0 },
    hash: "",
    mtime: 0,
    bom: false,
    crlf: false,
    eol: "\n",
    text: "",
  };
}
