// Whether gh is logged in, checked without the network: `gh auth status` asks GitHub (slow, and
// fails offline as if logged out), so this looks for a token the way gh does. An environment token
// (GH_TOKEN / GITHUB_TOKEN, or the enterprise pair when GH_HOST names another host) wins, as in gh;
// otherwise `gh auth token` reads gh's stored login. Its output is the token itself: it is not
// kept (maxOutputBytes 0), only the exit code is.
import type { RunResult } from "../../capabilities/exec/exec.ts";
import { AUTH_SUGGESTION } from "./gh-environment.ts";

interface NotReady {
  reason: string;
  suggestion: string;
}

interface AuthCheckDeps {
  env: Readonly<Record<string, string | undefined>>;
  run(args: readonly string[], opts: { maxOutputBytes: number }): Promise<RunResult>;
}

export async function ghLoginProblem(deps: AuthCheckDeps): Promise<NotReady | undefined> {
  const host = deps.env.GH_HOST ?? "";
  const enterprise = host !== "" && host !== "github.com";
  const tokens = enterprise ? ["GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"] : ["GH_TOKEN", "GITHUB_TOKEN"];
  if (tokens.some((name) => (deps.env[name] ?? "") !== "")) return undefined;
  const result = await deps.run(["auth", "token", ...(enterprise ? [`--hostname=${host}`] : [])], { maxOutputBytes: 0 });
  if (result.exitCode === 0) return undefined;
  return { reason: `gh is not logged in to ${enterprise ? host : "github.com"}`, suggestion: AUTH_SUGGESTION };
}
