// What runCommand and runInTerminal share: one input shape, one guarded path (ctx.exec.runAllowed),
// progress with the latest output lines, and the plain-text answer (the command line, exit code,
// duration, then the output). A non-zero exit is an answer, not a tool error: the model reads it.
import * as v from "valibot";
import type { RunResult } from "../../capabilities/exec/exec.ts";
import { outputProgress } from "../../capabilities/exec/output-progress.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { timeoutAdvice } from "./command-timeout.ts";

/** A command may run this long at most (--timeout is its default). */
export const MAX_COMMAND_MS = 600_000;

export const commandFields = {
  command: v.pipe(v.string(), v.minLength(1), v.maxLength(4096), v.description('Allowlisted program, e.g. "npm" (no shell).')),
  args: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.maxLength(32_768))),
      v.maxLength(1000),
      v.description('Arguments, e.g. ["run", "build"] (no shell).'),
    ),
  ),
  cwd: v.optional(v.pipe(v.string(), v.description("Workspace-relative (default: root)."))),
  timeoutMs: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(MAX_COMMAND_MS), v.description("Kill after this many ms.")),
  ),
};

interface CommandInput {
  command: string;
  args?: string[] | undefined;
  cwd?: string | undefined;
  timeoutMs?: number | undefined;
}

/** Plain words only: "npm test" splits, "npm test && rm -rf x" stays whole and is refused as not a program. */
export const PLAIN_WORDS = /^[\w.+\-/=:@,%]+([ \t]+[\w.+\-/=:@,%]+)*$/;

export async function runUserCommand(input: CommandInput, ctx: ToolContext): Promise<string> {
  let command = input.command.trim();
  let args = input.args ?? [];
  if (input.args === undefined && /[ \t]/.test(command) && PLAIN_WORDS.test(command)) {
    [command = "", ...args] = command.split(/[ \t]+/);
  }
  const timeoutMs = input.timeoutMs ?? ctx.settings.timeoutMs;
  const progress = outputProgress((count, message) => ctx.progress(count, { message }));
  const result = await ctx.exec.runAllowed(command, {
    args,
    ...(input.cwd === undefined ? {} : { cwd: input.cwd }),
    timeoutMs,
    // Half the result cap each, head and tail kept: the verdict is usually at the end.
    maxOutputBytes: Math.max(4096, Math.min(1024 * 1024, Math.floor(ctx.settings.maxResultChars / 2) - 1024)),
    keep: "head-and-tail",
    onOutput: progress.onOutput,
  });
  return formatRun([command, ...args], input.cwd, result, timeoutMs);
}

function formatRun(argv: readonly string[], cwd: string | undefined, result: RunResult, timeoutMs: number): string {
  const where = cwd === undefined || cwd === "." || cwd === "" ? "" : ` (in ${cwd})`;
  const seconds = (result.durationMs / 1000).toFixed(1);
  const status = result.timedOut ? `killed after the ${timeoutMs} ms timeout, with everything it started` : `exit ${result.exitCode}`;
  const out: string[] = [`$ ${argv.map(quoteForDisplay).join(" ")}${where}`, `${status} · ${seconds} s`];
  const cut = [result.stdoutTruncated && "stdout", result.stderrTruncated && "stderr"].filter(Boolean);
  if (result.stdout !== "") out.push("", result.stdout.replace(/\n$/, ""));
  if (result.stderr !== "") out.push("", "--- stderr ---", result.stderr.replace(/\n$/, ""));
  if (result.stdout === "" && result.stderr === "") out.push("", "(no output)");
  if (cut.length > 0) out.push("", `[${cut.join(" and ")} cut to the first and last part; run a narrower command for the middle]`);
  if (result.leftoversStopped) out.push("", "[processes it left running in the background kept its output open and were stopped]");
  if (result.timedOut) {
    const shown = argv.map(quoteForDisplay).join(" ");
    out.push(
      "",
      timeoutAdvice(shown, {
        timeoutMs,
        maxMs: MAX_COMMAND_MS,
        durationMs: result.durationMs,
        output: result.stdout + result.stderr !== "",
      }),
    );
  }
  return out.join("\n");
}

/** Shown, never run: quoted so the line reads as what was passed. */
function quoteForDisplay(arg: string): string {
  return /^[\w.+\-/=:@,%]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}
