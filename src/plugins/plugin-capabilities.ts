// The bridge's side of a plugin's ctx.fs / lsp / http / exec: a worker posts {capability, method,
// args} and the bridge runs it with the real capability of that call (or of the plugin's register,
// which has no exec), so the jail, the exec allowlist with the tool's declared programs and the SSRF
// guard decide as for a built-in tool. Only the methods named here are run; what comes back is
// copied as plain data (no functions, no handles), since it crosses to the worker by structured clone.
import type { ToolContext } from "../capabilities/context.ts";

/** What a plugin may call; each list matches the worker's proxies (runtime/shared/plugin-worker.mjs). */
const METHODS: Readonly<Record<string, ReadonlySet<string>>> = {
  fs: new Set([
    "resolve",
    "stat",
    "entryStat",
    "list",
    "readText",
    "readBytes",
    "readResolvedText",
    "writeFile",
    "commit",
    "makeDirectory",
    "remove",
    "rename",
    "readMany",
    "walk",
  ]),
  lsp: new Set([
    "diagnosticsFor",
    "handles",
    "handlesWorkspace",
    "languageOf",
    "workspaceDiagnostics",
    "workspaceErrors",
    "pathOf",
    "recheckable",
    "status",
    "available",
    "document",
    "documentRequest",
    "documentWholeProject",
  ]),
  http: new Set(["request"]),
  exec: new Set(["run", "runAllowed"]),
};

/** ctx.lsp methods whose options (the argument at this index) take the call's signal. */
const LSP_OPTIONS_AT: Readonly<Record<string, number>> = {
  diagnosticsFor: 1,
  workspaceDiagnostics: 0,
  workspaceErrors: 0,
  document: 1,
  documentRequest: 1,
  documentWholeProject: 1,
};

/** A walk or readMany is sent whole; past this many entries the plugin is asked to narrow it. */
const MAX_COLLECTED = 50_000;

export interface CapabilityRequest {
  capability: string;
  method: string;
  args: readonly unknown[];
}

type Method = (...args: unknown[]) => unknown;

/** Runs the request with `ctx`'s capabilities (`exec: false` for register-time requests); resolves to plain data. */
export async function serveCapability(
  ctx: Pick<ToolContext, "fs" | "lsp" | "http" | "exec" | "signal">,
  req: CapabilityRequest,
  opts: { exec: boolean },
): Promise<unknown> {
  const { capability, method } = req;
  if (!METHODS[capability]?.has(method) || (capability === "exec" && !opts.exec)) {
    throw new Error(
      capability === "exec"
        ? "ctx.exec is given to a tool's handler only (declare the programs it runs in requires)"
        : `ctx.${capability}.${method} is not available to plugins`,
    );
  }
  const args = [...req.args];
  if (capability === "lsp") return plainData(await serveLsp(ctx, method, args));
  if (capability === "exec" && typeof args[1] === "object" && args[1] !== null) args[1] = { ...args[1] };
  const target = ctx[capability as "fs" | "http" | "exec"] as unknown as Record<string, Method>;
  const result = (target[method] as Method).apply(target, args);
  return plainData(method === "walk" || method === "readMany" ? await collect(result as AsyncIterable<unknown>) : await result);
}

async function serveLsp(ctx: Pick<ToolContext, "lsp" | "signal">, method: string, args: unknown[]): Promise<unknown> {
  const at = LSP_OPTIONS_AT[method];
  if (at !== undefined) {
    const given = args[at];
    args[at] = { ...(typeof given === "object" && given !== null ? given : {}), signal: ctx.signal };
  }
  const lsp = ctx.lsp;
  switch (method) {
    case "handlesWorkspace":
      return lsp.handlesWorkspace(ctx.signal);
    case "document": {
      const doc = await lsp.document(String(args[0]), args[1] as Parameters<typeof lsp.document>[1]);
      return { path: doc.path, relative: doc.relative, uri: doc.uri, languageId: doc.languageId, text: doc.text, fresh: doc.fresh };
    }
    case "documentRequest":
    case "documentWholeProject": {
      const doc = await lsp.document(String(args[0]), args[1] as Parameters<typeof lsp.document>[1]);
      const [, , name, params] = args;
      return method === "documentRequest" ? doc.request(String(name), params) : doc.wholeProject(String(name), params);
    }
    default:
      return (lsp[method as keyof typeof lsp] as unknown as Method).apply(lsp, args);
  }
}

async function collect(items: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of items) {
    if (out.length >= MAX_COLLECTED) throw new Error(`more than ${MAX_COLLECTED} entries; narrow the walk or read fewer files`);
    out.push(item);
  }
  return out;
}

/** A copy holding only what structured clone carries as data: functions and cycles are left out. */
export function plainData(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === "function" || typeof value === "symbol") return undefined;
  if (value === null || typeof value !== "object") return value;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date) return value;
  if (seen.has(value)) return undefined;
  seen.add(value);
  let out: unknown[] | Record<string, unknown>;
  if (Array.isArray(value)) out = value.map((item) => plainData(item, seen));
  else {
    const fields: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const copied = plainData(item, seen);
      if (copied !== undefined) fields[key] = copied;
    }
    out = fields;
  }
  // Only a cycle is cut: the same object twice in the tree is copied twice.
  seen.delete(value);
  return out;
}
