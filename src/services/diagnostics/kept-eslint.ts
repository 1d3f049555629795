// eslint's answer over the whole workspace, kept while nothing it depends on changed, so a warm
// getDiagnostics does not run it again: on hono it took 2 s a call, and failed each time the same
// way (its config needs type information), an answer that depends only on the config and the
// project's files. eslint reads its config (eslint.config.*, what that imports), package.json,
// every file it lints, and its plugins in node_modules: so the answer, a failure's message or the
// diagnostics, is kept under kept-answers.ts's rules with `everything` (any change the watcher
// hears runs it again; where it cannot vouch, nothing is kept), the configs and lock files listed as
// inputs. What the proof does not see: a plugin's files edited by hand in node_modules (only an
// install, through the lock file at node_modules' top, is heard), and a node_modules linked from
// outside the workspace (its lock file is not heard either: nothing is kept then, as its folder's
// content cannot be read). Kept only when the config is a flat config at the workspace's root:
// eslint then reads no config above it (an .eslintrc cascades up to the file system's root).
import type { ToolContext } from "../../capabilities/context.ts";
import { defineToolsetState } from "../../capabilities/toolset-state.ts";
import type { Diagnostic } from "./diagnostic.ts";
import { KeptAnswers } from "./kept-answers.ts";

/** One checker run as the report reads it: what it found, or why it checked nothing. */
export interface CheckerOutcome {
  all: Diagnostic[];
  failed?: string;
  /** It timed out or was killed (a status past 125 is a signal's): a failure of that moment, not of the config. */
  cut?: boolean;
}

const FLAT_CONFIGS = ["js", "mjs", "cjs", "ts", "mts", "cts"].map((ext) => `eslint.config.${ext}`);
/** What eslint or the package manager may change besides the linted files: the configs, and each lock file (an install). */
const INPUTS = [
  ...FLAT_CONFIGS,
  ".eslintrc",
  ".eslintrc.js",
  ".eslintrc.cjs",
  ".eslintrc.json",
  ".eslintrc.yaml",
  ".eslintrc.yml",
  ".eslintignore",
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  "bun.lock",
  "bun.lockb",
];
const KEY = "eslint .";

const KEPT = defineToolsetState("diagnostics.kept-eslint", () => new KeptAnswers<CheckerOutcome>(1));

/** eslint's kept answer over the whole workspace while nothing changed, else `run`'s, kept when it may be. */
export async function keptEslint(ctx: ToolContext, run: () => Promise<CheckerOutcome>): Promise<CheckerOutcome> {
  const kept = ctx.state(KEPT);
  const found = await kept.lookup(ctx, KEY);
  if (found !== undefined) return found;
  const start = await kept.start(ctx, KEY);
  const outcome = await run();
  const flat = await Promise.all(
    FLAT_CONFIGS.map((name) =>
      ctx.fs.stat(name).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (outcome.cut !== true && flat.includes(true))
    await kept.keep(ctx, KEY, { value: keptPart(outcome), files: [], configs: INPUTS, start, readsOutside: false, everything: true });
  return outcome;
}

/** What is kept of a run: not its raw output (a fixer's, up to 16 MB). */
function keptPart(outcome: CheckerOutcome): CheckerOutcome {
  return outcome.failed === undefined ? { all: outcome.all } : { all: outcome.all, failed: outcome.failed };
}
