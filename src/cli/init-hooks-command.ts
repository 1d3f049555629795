// Which command `init --hooks` writes into .claude/settings.json, a file teams commit: one that works
// on a teammate's machine whenever this one can tell how. Command hooks run through a shell, with
// CLAUDE_PROJECT_DIR set by Claude Code, so a variable in the line is expanded on each machine:
//   --command           the words given, as they are;
//   installed in the project (<dir>/node_modules/claude-ide-bridge): the project's own bin, through
//                       $CLAUDE_PROJECT_DIR: every teammate's `npm install` provides it, and it
//                       starts without npx's lookup on every hook;
//   --portable from a checkout: the checkout through $CLAUDE_IDE_BRIDGE_HOME, which each user sets;
//   a checkout otherwise: its absolute path, which works only on this machine (said so, with the way out);
//   an installed copy (npx's cache, global): the launcher, which works wherever it is installed alike.
import { join } from "../lib/paths/posix-path.ts";
import type { CommandContext } from "./command-io.ts";
import { PACKAGE_NAME } from "./launcher.ts";
import { shellLine } from "./self-invocation.ts";
import { checkoutOf, HOME_VARIABLE, shimCommand } from "./shim-entry.ts";

export type HooksForm = "command" | "project" | "portable" | "machine" | "installed";

export interface HooksCommand {
  form: HooksForm;
  /** The hook's command line for one event. */
  line(event: string): string;
  /** Which form was written and why, for the user. */
  why: string;
}

/** The notify line a hook runs, in the form that fits where this copy runs and what the project has. */
export async function hooksCommand(
  ctx: Pick<CommandContext, "self"> & { runtime: { fs: { stat(path: string): Promise<unknown> } } },
  opts: { dir: string; override?: string; portable?: boolean },
): Promise<HooksCommand> {
  const notify = (words: string, event: string) => `${words} notify ${event}`;
  if (opts.override !== undefined) {
    const words = shellWords(shimCommand(ctx.self, { override: opts.override }));
    return { form: "command", line: (event) => notify(words, event), why: "the command you gave (--command)" };
  }
  const inProject = await ctx.runtime.fs.stat(join(opts.dir, "node_modules", PACKAGE_NAME, "package.json")).then(
    () => true,
    () => false,
  );
  if (inProject) {
    const words = `"$CLAUDE_PROJECT_DIR/node_modules/.bin/${PACKAGE_NAME}"`;
    return {
      form: "project",
      line: (event) => notify(words, event),
      why: `${PACKAGE_NAME} is installed in this project: the hooks run its bin through $CLAUDE_PROJECT_DIR, which Claude Code sets, so they work for every teammate after npm install`,
    };
  }
  const self = shimCommand(ctx.self);
  const checkout = checkoutOf(self);
  if (checkout !== undefined && opts.portable === true) {
    const bin = "CHECKOUT_BIN";
    const args = self.args.map((arg) => (checkoutOf({ args: [arg] }) === undefined ? arg : bin));
    const words = shellWords({ command: self.command, args }).replace(bin, `"$${HOME_VARIABLE}/bin/claude-ide-bridge.js"`);
    return {
      form: "portable",
      line: (event) => notify(words, event),
      why: `--portable: the hooks read the checkout from $${HOME_VARIABLE}; each user sets it (export ${HOME_VARIABLE}=${checkout} here), or the hook fails with a non-blocking error`,
    };
  }
  const words = shellWords(self);
  if (checkout !== undefined) {
    return {
      form: "machine",
      line: (event) => notify(words, event),
      why:
        `this checkout's absolute path (${checkout}) works only on this machine; before committing .claude/settings.json, ` +
        `run init --hooks --portable (hooks read $${HOME_VARIABLE}), or install ${PACKAGE_NAME} in the project (npm i -D ${PACKAGE_NAME}) and run init --hooks again`,
    };
  }
  return {
    form: "installed",
    line: (event) => notify(words, event),
    why: `it names no path of this machine: it works for teammates who install ${PACKAGE_NAME} the same way`,
  };
}

/** The shim's command without its "shim" word, as a shell line. */
function shellWords(shim: { command: string; args: string[] }): string {
  return shellLine({ command: shim.command, args: shim.args.slice(0, -1) });
}
