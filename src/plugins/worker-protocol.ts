// The messages between the bridge and a plugin's worker (runtime/shared/plugin-worker.mjs is the
// other side). What the worker posts comes from code the bridge did not write: every message is
// checked here before anything reads it, and one that does not fit is dropped.
import type { LogLevel } from "../capabilities/log-levels.ts";
import { isLogLevel } from "../capabilities/log-levels.ts";
import type { ToolSettings } from "../capabilities/context.ts";

/** The bridge's side. */
export type ToWorker =
  | {
      t: "load";
      /** Absolute path of the entrypoint. */
      entry: string;
      plugin: { name: string; version: string; toolNamePrefix: string };
      bridgeVersion: string;
      workspaceFolders: readonly string[];
      settings: Readonly<ToolSettings>;
      maxTools: number;
    }
  | { t: "call"; id: number; tool: string; input: unknown }
  | { t: "cancel"; id: number; timeout: boolean }
  | { t: "reply"; id: number; ok: true; value: unknown }
  | { t: "reply"; id: number; ok: false; error: WireError };

/** An error as it crosses: a ToolError the bridge answered carries a token, so that thrown on it comes back as itself. */
export interface WireError {
  message: string;
  suggestion?: string;
  token?: number;
  /** Made by ctx.toolError: an expected failure, answered with its message and suggestion. */
  toolError?: boolean;
}

/** The worker's side. */
export type FromWorker =
  | { t: "ready" }
  | { t: "registered"; tools: Record<string, unknown>[] }
  | { t: "loadFailed"; stage: "import" | "exports" | "register"; message: string }
  | { t: "result"; id: number; ok: true; value: unknown }
  | { t: "result"; id: number; ok: false; error: WireError }
  | { t: "cancelled"; id: number }
  | { t: "request"; id: number; call?: number; capability: string; method: string; args: unknown[] }
  | { t: "log"; level: "debug" | "info" | "warn" | "error"; message: string; fields?: Record<string, unknown> }
  | { t: "callLog"; call: number; level: LogLevel; message: string; data?: unknown }
  | { t: "progress"; call: number; progress: number; total?: number; message?: string };

type Loose = Record<string, unknown>;

const isId = (x: unknown): x is number => typeof x === "number" && Number.isSafeInteger(x) && x > 0;
const isRecord = (x: unknown): x is Loose => typeof x === "object" && x !== null && !Array.isArray(x);
const optional = (x: unknown, type: "string" | "number") => x === undefined || typeof x === type;

/** The message, when it has the shape of one; undefined for anything else. */
export function parseFromWorker(message: unknown): FromWorker | undefined {
  if (!isRecord(message)) return undefined;
  const m = message;
  switch (m.t) {
    case "ready":
      return { t: "ready" };
    case "registered":
      return Array.isArray(m.tools) && m.tools.every(isRecord) ? { t: "registered", tools: m.tools } : undefined;
    case "loadFailed":
      return (m.stage === "import" || m.stage === "exports" || m.stage === "register") && typeof m.message === "string"
        ? { t: "loadFailed", stage: m.stage, message: m.message }
        : undefined;
    case "result":
      if (!isId(m.id)) return undefined;
      if (m.ok === true) return { t: "result", id: m.id, ok: true, value: m.value };
      return isWireError(m.error) ? { t: "result", id: m.id, ok: false, error: m.error } : undefined;
    case "cancelled":
      return isId(m.id) ? { t: "cancelled", id: m.id } : undefined;
    case "request":
      return isId(m.id) &&
        (m.call === undefined || isId(m.call)) &&
        typeof m.capability === "string" &&
        typeof m.method === "string" &&
        Array.isArray(m.args)
        ? {
            t: "request",
            id: m.id,
            ...(m.call === undefined ? {} : { call: m.call }),
            capability: m.capability,
            method: m.method,
            args: m.args,
          }
        : undefined;
    case "log":
      return (m.level === "debug" || m.level === "info" || m.level === "warn" || m.level === "error") &&
        typeof m.message === "string" &&
        (m.fields === undefined || isRecord(m.fields))
        ? { t: "log", level: m.level, message: m.message, ...(m.fields === undefined ? {} : { fields: m.fields }) }
        : undefined;
    case "callLog":
      return isId(m.call) && isLogLevel(m.level) && typeof m.message === "string"
        ? { t: "callLog", call: m.call, level: m.level, message: m.message, data: m.data }
        : undefined;
    case "progress":
      return isId(m.call) && typeof m.progress === "number" && optional(m.total, "number") && optional(m.message, "string")
        ? {
            t: "progress",
            call: m.call,
            progress: m.progress,
            ...(m.total === undefined ? {} : { total: m.total as number }),
            ...(m.message === undefined ? {} : { message: m.message as string }),
          }
        : undefined;
    default:
      return undefined;
  }
}

function isWireError(x: unknown): x is WireError {
  return (
    isRecord(x) &&
    typeof x.message === "string" &&
    optional(x.suggestion, "string") &&
    (x.token === undefined || isId(x.token)) &&
    (x.toolError === undefined || typeof x.toolError === "boolean")
  );
}
