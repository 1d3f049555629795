// The lock file's schema (valibot): the one definition of how a lock is read, used by the bridge
// and its commands. The shim reads locks with lock-parse-plain.ts instead, to keep valibot out of
// its start-up; test/unit/lock/shim-lock-parse.test.ts proves the two agree.
import * as v from "valibot";
import { jsonOrUndefined, type IdeLock } from "./lock-fields.ts";

/** A field of the wrong type counts as absent (IdeLock says why). */
const optionalString = v.fallback(v.optional(v.string()), undefined);
const flag = v.fallback(v.boolean(), false);

const LockJson = v.pipe(
  // valibot's object schemas take arrays too; a lock is a JSON object.
  v.custom<Record<string, unknown>>(
    (input) => typeof input === "object" && input !== null && !Array.isArray(input),
    "a lock file holds a JSON object",
  ),
  v.object({
    pid: v.fallback(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))), undefined),
    workspace: optionalString,
    workspaceFolders: v.fallback(
      v.pipe(
        v.array(v.unknown()),
        v.transform((items) => items.filter((item): item is string => typeof item === "string")),
      ),
      [],
    ),
    ideName: optionalString,
    transport: optionalString,
    authToken: v.fallback(v.optional(v.pipe(v.string(), v.nonEmpty())), undefined),
    isBridge: flag,
    runningInWindows: flag,
    startedAt: v.fallback(v.optional(v.pipe(v.number(), v.finite())), undefined),
    nonce: optionalString,
  }),
);

export function parseLockText(text: string): IdeLock | undefined {
  const json = jsonOrUndefined(text);
  const parsed = v.safeParse(LockJson, json);
  if (!parsed.success) return undefined;
  const o = parsed.output;
  return {
    pid: o.pid,
    workspace: o.workspace,
    workspaceFolders: o.workspaceFolders,
    ideName: o.ideName,
    transport: o.transport,
    authToken: o.authToken,
    isBridge: o.isBridge,
    runningInWindows: o.runningInWindows,
    startedAt: o.startedAt,
    nonce: o.nonce,
  };
}
