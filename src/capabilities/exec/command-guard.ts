// What the bridge holds once for runCommand's guarded path: the allowlist policy built from
// --allow-command, the --pass-env names, (src/security/commands/command-policy.ts) and the identity check of executables, whose list of
// interpreters on PATH is looked up on first use and kept.
import type { Runtime } from "../../ports/runtime.ts";
import { createCommandPolicy, type CommandPolicy } from "../../security/commands/command-policy.ts";
import { createIdentityCheck, type IdentityCheck } from "../../security/commands/executable-identity.ts";

export interface CommandGuard {
  readonly policy: CommandPolicy;
  readonly identity: IdentityCheck;
  /** --pass-env: variables that reach commands even though they look like secrets (src/security/commands/child-env.ts). */
  readonly passEnv: readonly string[];
  /** --allow-private-http: the hosts commands connect to may be private or loopback too. */
  readonly allowPrivateNetwork: boolean;
}

export function createCommandGuard(
  runtime: Pick<Runtime, "fs" | "which">,
  opts: { allowCommands: readonly string[]; passEnv?: readonly string[]; allowPrivateNetwork?: boolean },
): CommandGuard {
  const { allowCommands, passEnv = [], allowPrivateNetwork = false } = opts;
  return { policy: createCommandPolicy(allowCommands), identity: createIdentityCheck(runtime), passEnv, allowPrivateNetwork };
}
