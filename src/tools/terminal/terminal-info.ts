// A terminal as the terminal tools answer with it: compact, no field twice.
import * as v from "valibot";
import type { WireTerminal } from "../../extension/protocol-ide.ts";

export const TerminalInfo = v.object({
  id: v.string(),
  name: v.string(),
  pid: v.optional(v.number()),
  /** Commands run with an exit code and readable output; without it they are typed as text. */
  shellIntegration: v.boolean(),
  /** The shell VS Code detected; commands needing quotes run only where it is known. */
  shell: v.optional(v.string()),
  createdByBridge: v.boolean(),
  active: v.optional(v.literal(true)),
  exitCode: v.optional(v.nullable(v.number())),
});
export type TerminalInfo = v.InferOutput<typeof TerminalInfo>;

export function terminalInfo(t: WireTerminal): TerminalInfo {
  return {
    id: t.id,
    name: t.name,
    ...(t.processId === undefined ? {} : { pid: t.processId }),
    shellIntegration: t.shellIntegration,
    ...(t.shell === undefined ? {} : { shell: t.shell }),
    createdByBridge: t.createdByBridge,
    ...(t.active ? { active: true as const } : {}),
    ...(t.exitCode === undefined ? {} : { exitCode: t.exitCode }),
  };
}
