// Why a program the tests drive for real cannot run here, or undefined when it can: the reason goes
// into the skipped test's name, so a skip always says what was missing.
import { execFileSync } from "node:child_process";

export function missingProgram(cmd: string, args: readonly string[], input?: string): string | undefined {
  try {
    execFileSync(cmd, args, input === undefined ? { stdio: "ignore" } : { input, stdio: ["pipe", "ignore", "ignore"] });
    return undefined;
  } catch {
    return `${cmd} ${args.join(" ")} failed`;
  }
}
