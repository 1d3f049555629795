// The one way tools run gh. REST calls go through `gh api` (stable across gh versions, and the
// bridge picks the fields it returns): the path is built from validated parts and URL-encoded
// query values, a request body is JSON on stdin (`--input -`), so no value is ever an argv
// option, a `-f key=@file` upload, or shell text.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import type { RunResult } from "../../capabilities/exec/exec.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { GH_ENV } from "./gh-environment.ts";
import { ghFailure } from "./gh-failure.ts";

type Query = Record<string, string | number | boolean | undefined>;

export interface GitHub {
  /** "repos/owner/name", or gh's placeholders, which gh fills in from the workspace's remotes. */
  readonly repoPath: string;
  /** A REST call whose answer must match `schema`. */
  json<S extends v.GenericSchema>(
    schema: S,
    method: "GET" | "POST" | "PATCH",
    path: string,
    opts?: { query?: Query; body?: unknown },
  ): Promise<v.InferOutput<S>>;
  /** A REST call answered as text (a diff), at most maxOutputBytes of it. */
  text(path: string, opts: { accept: string; maxOutputBytes: number }): Promise<RunResult>;
  /** Another gh command (e.g. `run view`); `repo` adds --repo when one was given. */
  command(args: readonly string[], opts?: { maxOutputBytes?: number }): Promise<RunResult>;
}

export function github(ctx: ToolContext, repo: string | undefined): GitHub {
  const run = async (what: string, args: readonly string[], opts: { stdin?: string; maxOutputBytes?: number } = {}): Promise<RunResult> => {
    const result = await ctx.exec.run("gh", { args, env: GH_ENV, ...opts });
    if (result.exitCode !== 0) throw ghFailure(what, result);
    return result;
  };
  const repoPath = repo === undefined ? "repos/{owner}/{repo}" : `repos/${repo}`;
  return {
    repoPath,
    async json(schema, method, path, opts = {}) {
      const body = opts.body === undefined ? {} : { stdin: JSON.stringify(opts.body) };
      const result = await run(
        `api ${method} ${path}`,
        ["api", "--method", method, ...(opts.body === undefined ? [] : ["--input", "-"]), withQuery(path, opts.query)],
        body,
      );
      let parsed: unknown;
      try {
        parsed = JSON.parse(result.stdout);
      } catch {
        throw unexpected(path, "not JSON");
      }
      const checked = v.safeParse(schema, parsed);
      if (!checked.success) throw unexpected(path, `${v.getDotPath(checked.issues[0]) ?? "value"}: ${checked.issues[0].message}`);
      return checked.output;
    },
    text: (path, opts) =>
      run(`api GET ${path}`, ["api", "--method", "GET", "-H", `Accept: ${opts.accept}`, path], { maxOutputBytes: opts.maxOutputBytes }),
    command: (args, opts = {}) => run(args.slice(0, 2).join(" "), [...args, ...(repo === undefined ? [] : [`--repo=${repo}`])], opts),
  };
}

function withQuery(path: string, query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text === "" ? path : `${path}?${text}`;
}

function unexpected(path: string, why: string): ToolError {
  return new ToolError("github_failed", `GitHub's answer to ${path} was not what the bridge expects (${why})`, {
    suggestion: "Retry; if it persists, the server may not be GitHub's REST API v3 (check GH_HOST).",
  });
}
