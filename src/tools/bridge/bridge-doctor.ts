// bridgeDoctor: the `claude-ide-bridge doctor` checks (one source: src/cli/doctor.ts runs the same
// function), for this bridge's workspace: runtime, bridge and lock files, git/rg/gh, the VS Code
// extension, language servers (started and asked to initialize), Claude Code's config entries.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { monitorOf } from "./bridge-monitor.ts";

export default defineTool({
  name: "bridgeDoctor",
  title: "Bridge doctor",
  description:
    "Runs the doctor checks (runtime, bridge, lock files, git/rg/gh, extension, language servers, Claude Code config) and lists each problem with its fix.",
  searchHint: "doctor diagnose setup problems troubleshoot why tools missing fix installation check",
  input: v.strictObject({
    all: v.optional(v.pipe(v.boolean(), v.description("List the checks that passed too (default: only problems, warnings and notes)."))),
  }),
  output: v.object({
    ok: v.pipe(v.boolean(), v.description("No check failed.")),
    counts: v.object({ ok: v.number(), info: v.number(), warn: v.number(), fail: v.number() }),
    checks: v.array(
      v.object({ area: v.string(), status: v.picklist(["ok", "info", "warn", "fail"]), summary: v.string(), fix: v.optional(v.string()) }),
    ),
  }),
  annotations: { readOnlyHint: true },
  // A stdio entry of Claude Code's config may take 30 s to answer, as Claude Code would wait.
  timeoutMs: 90_000,
  async handler(input, ctx) {
    const doctor = monitorOf(ctx).doctor;
    if (doctor === undefined) {
      throw new ToolError("not_supported", "This bridge was started without the doctor checks", {
        suggestion: "Run `claude-ide-bridge doctor` in a terminal in the workspace.",
      });
    }
    const checks = await doctor(ctx.signal);
    const count = (status: string) => checks.filter((c) => c.status === status).length;
    return {
      ok: count("fail") === 0,
      counts: { ok: count("ok"), info: count("info"), warn: count("warn"), fail: count("fail") },
      checks: input.all ? checks : checks.filter((c) => c.status !== "ok"),
    };
  },
});
