// resolve-merge-conflict: the conflicted files with their markers, to be resolved and continued.
import { Assembly } from "../assembly.ts";
import { definePrompt } from "../define-prompt.ts";

export default definePrompt({
  name: "resolve-merge-conflict",
  title: "Resolve a merge conflict",
  description: "Resolves merge, rebase or cherry-pick conflicts: the conflicted files with their markers and the status of the operation.",
  arguments: [{ name: "file", description: "Only this conflicted file", complete: "path" }],
  async build(args, ctx) {
    const a = new Assembly(ctx);
    const status = await a.add("Git status", { tool: "getGitStatus" });
    const listed = conflicted(status.data);
    const files = args.file ? [args.file] : listed.slice(0, 5);
    if (files.length === 0) a.note("git reports no conflicted file.");
    if (!args.file && listed.length > files.length)
      a.note(`${listed.length - files.length} more conflicted files are not attached; read them with readFile.`);
    for (const file of files) await a.add(`Conflicted file ${file}`, { tool: "readFile", args: { path: file } });
    return a.render(`Resolve the conflicts in the files below. For each hunk between <<<<<<< and >>>>>>>, work out what each side meant (getGitLog and getCommitDetails on the two sides help) and combine them; never just pick a side without saying why.
Edit the file so no markers remain, check it with getDiagnostics, stage it with gitAdd, and when all are resolved continue the operation with gitContinueOperation (or stop with gitAbortOperation if the user prefers). Summarise each resolution.`);
  },
});

function conflicted(data: unknown): string[] {
  const list = typeof data === "object" && data !== null ? (data as { conflicts?: unknown }).conflicts : undefined;
  if (!Array.isArray(list)) return [];
  return list
    .map((c) => (typeof c === "object" && c !== null ? (c as { path?: unknown }).path : undefined))
    .filter((p): p is string => typeof p === "string");
}
