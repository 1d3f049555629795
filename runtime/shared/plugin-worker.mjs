// The bootstrap of a plugin's worker (src/plugins/plugin-worker-client.ts is the bridge's side): one
// worker per loaded version of a plugin, so a handler stuck in a synchronous loop, or allocating
// without bound, stops its worker and never the bridge's event loop. It imports the plugin's
// entrypoint, runs register(ctx) and serves its tools' calls. ctx.fs / lsp / http / exec are proxies:
// each call is posted to the bridge, which runs it with the real, jailed capability of that call, so
// the jail, the exec allowlist and the SSRF guard are enforced on the bridge's side as before.
// Plain JavaScript, so that Node starts it without a loader (from the sources under tsx or vitest, and
// from dist/, where scripts/bundle.mjs copies it); Bun and Deno run it as a Web Worker module.

/** The methods each capability offers a plugin; the bridge refuses any other (plugin-capabilities.ts). */
const FS = ["resolve", "stat", "entryStat", "list", "readText", "readBytes", "readResolvedText", "writeFile", "commit"];
const FS_MORE = ["makeDirectory", "remove", "rename", "readMany", "walk"];
const LSP = ["diagnosticsFor", "handles", "handlesWorkspace", "languageOf", "workspaceDiagnostics", "workspaceErrors"];
const LSP_MORE = ["pathOf", "recheckable", "status", "available"];
/** Answered with an array by the bridge; the plugin iterates them as before. */
const GENERATORS = new Set(["readMany", "walk"]);

const web = typeof self !== "undefined" && typeof self.postMessage === "function";
const port = web ? undefined : (await import("node:worker_threads")).parentPort;
const send = (message) => (web ? self.postMessage(message) : port.postMessage(message));
const listen = (handle) => (web ? self.addEventListener("message", (event) => handle(event.data)) : port.on("message", handle));

let nextRequest = 1;
const waiting = new Map();
/** Calls in progress: id -> AbortController of their signal. */
const calls = new Map();
/** Registered tools: name -> { handler, schema (valibot, to parse the input) }. */
const tools = new Map();
let load;

listen((message) => {
  if (message === null || typeof message !== "object") return;
  if (message.t === "load") void loadPlugin(message);
  else if (message.t === "call") void runCall(message);
  else if (message.t === "cancel") cancel(message);
  else if (message.t === "reply") answer(message);
});
send({ t: "ready" });

function request(capability, method, args, call) {
  const id = nextRequest++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    send({ t: "request", id, capability, method, args: args.map(plain), ...(call === undefined ? {} : { call }) });
  });
}

function answer(message) {
  const waiter = waiting.get(message.id);
  if (waiter === undefined) return;
  waiting.delete(message.id);
  if (message.ok) waiter.resolve(message.value);
  else waiter.reject(bridgeError(message.error));
}

/** An error the bridge answered: thrown on, the bridge gives the caller its own original (token). */
function bridgeError(error) {
  const err = new Error(String(error?.message ?? "the bridge refused the request"));
  if (error?.suggestion !== undefined) err.suggestion = error.suggestion;
  if (error?.token !== undefined) err.bridgeToken = error.token;
  return err;
}

/** Arguments as the bridge can receive them: functions (callbacks, signals) are not sent. */
function plain(value, depth = 0) {
  if (typeof value === "function" || depth > 32) return undefined;
  if (value === null || typeof value !== "object" || ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date)
    return value;
  if (typeof AbortSignal !== "undefined" && value instanceof AbortSignal) return undefined;
  if (Array.isArray(value)) return value.map((item) => plain(item, depth + 1));
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    const copied = plain(item, depth + 1);
    if (copied !== undefined) out[key] = copied;
  }
  return out;
}

function capability(name, methods, call) {
  const out = {};
  for (const method of methods) {
    out[method] = GENERATORS.has(method)
      ? (...args) => iterate(request(name, method, args, call))
      : (...args) => request(name, method, args, call);
  }
  return out;
}

async function* iterate(answer) {
  for (const item of await answer) yield item;
}

function unavailable(what, instead) {
  return () => {
    throw new Error(`${what} is not available to plugins, which run in a worker; ${instead}`);
  };
}

function workspaceFs(folders, call) {
  const root = folders[0] ?? "";
  return {
    ...capability("fs", [...FS, ...FS_MORE], call),
    root,
    folders,
    relative: (path) => (path === root ? "" : path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path),
    openFile: unavailable("ctx.fs.openFile", "read the file with ctx.fs.readBytes or readText"),
    watch: unavailable("ctx.fs.watch", "read the files again on each call"),
  };
}

function languageServers(call) {
  const lsp = capability("lsp", [...LSP, ...LSP_MORE], call);
  // A document's data comes back; its requests go to the bridge, which opens it again (a cached, cheap step).
  lsp.document = async (file, opts) => {
    const data = await request("lsp", "document", [file, opts], call);
    return {
      ...data,
      request: (method, params) => request("lsp", "documentRequest", [file, opts, method, params], call),
      wholeProject: (method, params) => request("lsp", "documentWholeProject", [file, opts, method, params], call),
    };
  };
  return lsp;
}

function toolError(message, opts) {
  const err = new Error(String(message));
  err.suggestion = String(opts?.suggestion ?? "");
  err.pluginToolError = true;
  return err;
}

function logger() {
  const say = (level) => (message, fields) => send({ t: "log", level, message: String(message), fields: plain(fields) });
  return Object.freeze({ debug: say("debug"), info: say("info"), warn: say("warn"), error: say("error") });
}

async function loadPlugin(message) {
  load = message;
  const definitions = [];
  const fail = (stage, err) => send({ t: "loadFailed", stage, message: describe(err) });
  let mod;
  try {
    const { pathToFileURL } = await import("node:url");
    mod = await import(pathToFileURL(message.entry).href);
  } catch (err) {
    return fail("import", err);
  }
  const register = registerOf(mod);
  if (register === undefined) return fail("exports");
  const ctx = Object.freeze({
    plugin: Object.freeze({ ...message.plugin }),
    bridgeVersion: message.bridgeVersion,
    workspaceFolders: Object.freeze([...message.workspaceFolders]),
    settings: Object.freeze({ ...message.settings }),
    log: logger(),
    fs: workspaceFs(message.workspaceFolders),
    lsp: languageServers(),
    http: capability("http", ["request"]),
    registerTool: (definition) => {
      if (definitions.length >= message.maxTools) throw new Error(`a plugin registers at most ${message.maxTools} tools`);
      definitions.push(definition);
    },
    toolError,
  });
  try {
    await register(ctx);
  } catch (err) {
    return fail("register", err);
  }
  const described = [];
  for (const definition of definitions) {
    try {
      described.push(await describeTool(definition));
    } catch (err) {
      return fail("register", err);
    }
  }
  send({ t: "registered", tools: described });
}

/** What the bridge checks and lists of a definition: data only, the input schema as JSON Schema. */
async function describeTool(definition) {
  if (typeof definition !== "object" || definition === null)
    throw new Error("registerTool takes an object (name, description, searchHint, inputSchema, annotations, handler)");
  const { handler, inputSchema, ...rest } = definition;
  let schema = inputSchema;
  let valibot;
  if (
    typeof inputSchema === "object" &&
    inputSchema !== null &&
    inputSchema.kind === "schema" &&
    typeof inputSchema["~run"] === "function"
  ) {
    const { toJsonSchema } = await import("@valibot/to-json-schema");
    try {
      const { $schema: _dialect, ...converted } = toJsonSchema(inputSchema, { target: "draft-2020-12", errorMode: "throw" });
      schema = converted;
    } catch (err) {
      throw new Error(
        `registerTool(${JSON.stringify(String(rest.name))}): inputSchema cannot be written as JSON Schema (${describe(err)})`,
      );
    }
    valibot = inputSchema;
  }
  if (typeof handler === "function" && typeof rest.name === "string") tools.set(rest.name, { handler, valibot });
  return { ...plain(rest), inputSchema: plain(schema), handler: typeof handler === "function" ? "function" : typeof handler };
}

function registerOf(mod) {
  if (typeof mod !== "object" || mod === null) return undefined;
  if (typeof mod.register === "function") return mod.register;
  if (typeof mod.default === "function") return mod.default;
  const inner = typeof mod.default === "object" && mod.default !== null ? mod.default.register : undefined;
  return typeof inner === "function" ? inner : undefined;
}

async function runCall({ id, tool, input }) {
  const registered = tools.get(tool);
  if (registered === undefined) return send({ t: "result", id, ok: false, error: { message: `no tool ${tool} in this worker` } });
  const controller = new AbortController();
  calls.set(id, controller);
  const ctx = Object.freeze({
    fs: workspaceFs(load.workspaceFolders, id),
    exec: {
      ...capability("exec", ["run", "runAllowed"], id),
      git: unavailable("ctx.exec.git", "declare git and run it with ctx.exec.run"),
    },
    http: capability("http", ["request"], id),
    lsp: languageServers(id),
    settings: Object.freeze({ ...load.settings }),
    workspaceFolders: Object.freeze([...load.workspaceFolders]),
    signal: controller.signal,
    progress: (progress, opts) => send({ t: "progress", call: id, progress, ...plain(opts ?? {}) }),
    log: (level, message, data) => send({ t: "callLog", call: id, level, message: String(message), data: plain(data) }),
  });
  try {
    let value = input;
    if (registered.valibot !== undefined) {
      // The bridge validated the arguments against the JSON Schema; valibot's own parse adds defaults and transforms.
      const parsed = await registered.valibot["~standard"].validate(input);
      if (parsed.issues !== undefined)
        throw toolError(`invalid arguments: ${parsed.issues.map((i) => i.message).join("; ")}`, {
          suggestion: "Fix the arguments as said.",
        });
      value = parsed.value;
    }
    const result = await registered.handler(value, ctx);
    reply(id, result);
  } catch (err) {
    send({ t: "result", id, ok: false, error: errorOf(err) });
  } finally {
    calls.delete(id);
  }
}

/** The handler's value as sent: as it is when it can be cloned, else as JSON. */
function reply(id, value) {
  try {
    send({ t: "result", id, ok: true, value });
  } catch {
    let json;
    try {
      json = JSON.parse(JSON.stringify(value) ?? "null");
    } catch (err) {
      return send({ t: "result", id, ok: false, error: { message: `returned a value that cannot be sent: ${describe(err)}` } });
    }
    send({ t: "result", id, ok: true, value: json });
  }
}

function errorOf(err) {
  if (typeof err !== "object" || err === null) return { message: describe(err) };
  return {
    message: describe(err),
    ...(err.pluginToolError === true ? { toolError: true, suggestion: String(err.suggestion ?? "") } : {}),
    ...(typeof err.bridgeToken === "number" ? { token: err.bridgeToken } : {}),
  };
}

function cancel({ id, timeout }) {
  // Answering at once tells the bridge this worker's event loop is free; the handler sees its signal.
  send({ t: "cancelled", id });
  const reason = timeout
    ? new DOMException("the call timed out", "TimeoutError")
    : new DOMException("the call was cancelled", "AbortError");
  calls.get(id)?.abort(reason);
}

function describe(err) {
  if (err instanceof Error) return err.message;
  try {
    return String(err);
  } catch {
    return "an unprintable value";
  }
}
