// lock-schema.ts's parse without valibot, for the stdio shim: Claude Code starts a shim on every
// session, and loading valibot (a 200 KB module) cost the shim about 9 ms of CPU before its first
// answer, some 6% of its start-up. The rules are lock-schema.ts's; test/unit/lock/shim-lock-parse.test.ts
// runs both on a table and on generated locks, so a change to one that the other does not follow
// fails there, and test/e2e/shim-import-graph.test.ts fails if valibot enters the shim.
import { jsonOrUndefined, type IdeLock } from "./lock-fields.ts";

export function parseLockPlain(text: string): IdeLock | undefined {
  const json = jsonOrUndefined(text);
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const o = json as Record<string, unknown>;
  return {
    pid: typeof o.pid === "number" && Number.isInteger(o.pid) && o.pid >= 1 ? o.pid : undefined,
    workspace: stringOrUndefined(o.workspace),
    workspaceFolders: Array.isArray(o.workspaceFolders)
      ? o.workspaceFolders.filter((item): item is string => typeof item === "string")
      : [],
    ideName: stringOrUndefined(o.ideName),
    transport: stringOrUndefined(o.transport),
    authToken: typeof o.authToken === "string" && o.authToken !== "" ? o.authToken : undefined,
    isBridge: o.isBridge === true,
    runningInWindows: o.runningInWindows === true,
    startedAt: typeof o.startedAt === "number" && Number.isFinite(o.startedAt) ? o.startedAt : undefined,
    nonce: stringOrUndefined(o.nonce),
  };
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
