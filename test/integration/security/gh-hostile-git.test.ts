// gh runs git inside the workspace to find the repository (`git remote -v`, `git config
// --get-regexp`), with the repository's own config. gh 2.23's own git calls reach no
// program-running key, but a later gh (or `gh pr create`, which looks for uncommitted changes)
// runs git commands that do. So a `git` placed first on PATH stands in for such a gh: when gh asks
// for the remotes it runs `git status` first, with the environment gh gave it, then the real
// command. The repository names an fsmonitor, a clean filter and hooks, each leaving a marker with
// a fake secret. Plain gh (the control) makes them run; the github tools through the bridge must
// not: gh's git gets the runner's settings in its environment.
import { execFile } from "node:child_process";
import { appendFile, chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeWhich } from "../../../runtime/shared/spawn.ts";
import { githubToolset } from "../../../src/tools/github/index.ts";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

const SECRET = "fake-secret-9d2e";
let base: string;
let fx: GitFixture;
let gh: FakeGitHub;
let work: string;
let markers: string;
let env: Record<string, string>;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-gh-hostile-")));
  fx = await gitFixture(base);
  gh = await startFakeGitHub(join(base, "server"));
  gh.on("GET", "/repos/acme/widgets/issues", { json: [] });
  const configDir = join(base, "gh-config");
  await mkdir(join(configDir, "tmp"), { recursive: true });
  work = await fx.repo(join(base, "work"), { "a.txt": "a\n" });
  // No GH_REPO: gh finds acme/widgets among the workspace's remotes, with git.
  const { GH_REPO: _repo, ...ghEnv } = gh.env(configDir);
  fx.git(work, "remote", "add", "origin", `https://${gh.host}/acme/widgets.git`);

  markers = join(base, "markers");
  const programs = join(base, "programs");
  await mkdir(markers);
  await mkdir(programs);
  const program = async (name: string, filter = false) => {
    const path = join(programs, name);
    await writeFile(
      path,
      `#!/bin/sh\nprintf '%s\\n' "ran: $CIB_FAKE_SECRET" >> ${JSON.stringify(join(markers, name))}\n${filter ? "cat\n" : ""}`,
    );
    await chmod(path, 0o755);
    return path;
  };
  const hooks = join(base, "hooks");
  await mkdir(hooks);
  for (const hook of ["post-index-change", "reference-transaction"]) {
    await writeFile(join(hooks, hook), `#!/bin/sh\nprintf 'ran\\n' >> ${JSON.stringify(join(markers, `hook-${hook}`))}\n`, { mode: 0o755 });
  }
  await appendFile(
    join(work, ".git", "config"),
    `[core]\n\tfsmonitor = ${await program("fsmonitor")}\n\thooksPath = ${hooks}\n[filter "x"]\n\tclean = ${await program("clean", true)}\n`,
  );
  await writeFile(join(work, ".gitattributes"), "*.txt filter=x\n");
  await appendFile(join(work, "a.txt"), "changed\n");

  // The stand-in for a gh that looks at the working tree: status before the remotes.
  const realGit = (await nodeWhich("git", process.env)) ?? "/usr/bin/git";
  const bin = join(base, "bin");
  await mkdir(bin);
  await writeFile(
    join(bin, "git"),
    `#!/bin/sh\nif [ "$1" = remote ]; then\n  echo "$1" >> ${JSON.stringify(join(base, "gh-git-calls"))}\n  ${JSON.stringify(realGit)} status --porcelain >/dev/null 2>&1\nfi\nexec ${JSON.stringify(realGit)} "$@"\n`,
    { mode: 0o755 },
  );
  env = { ...fx.env, ...ghEnv, PATH: `${bin}:${fx.env.PATH ?? ""}`, CIB_FAKE_SECRET: SECRET };
}, 60_000);

afterAll(async () => {
  await gh?.close();
  await rm(base, { recursive: true, force: true });
});

const ran = async () => (await readdir(markers)).sort();
/** How many times gh asked its git for the remotes. */
const calls = async () => (await readFile(join(base, "gh-git-calls"), "utf8").catch(() => "")).split("\n").filter((l) => l !== "").length;

describe("gh's own git in a hostile repository", () => {
  it("runs none of the repository's programs through the github tools; plain gh runs them", async () => {
    const d = await dispatcher(work, { toolsets: [githubToolset], runtime: fx.runtime(env) });
    // gh 2.23 then finds no remote on GH_HOST (it compares hosts without the port), so the call
    // fails after gh's git ran: what matters here is what that git ran.
    const listed = await d.call("githubListIssues", {});
    expect(listed.content[0]?.text).toMatch(/remote|issues/);
    expect(await calls()).toBeGreaterThan(0);
    expect(await ran()).toEqual([]);

    // The control: plain gh, same environment and PATH, same question.
    const before = await calls();
    await promisify(execFile)("gh", ["api", "repos/{owner}/{repo}/issues"], { cwd: work, env, timeout: 30_000 }).catch(() => undefined);
    expect(await calls()).toBeGreaterThan(before);
    expect(await ran()).toEqual(expect.arrayContaining(["fsmonitor", "hook-post-index-change"]));
  }, 60_000);
});
