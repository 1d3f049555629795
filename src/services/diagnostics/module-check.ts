// A module checker (go vet) run where the project's own build runs it: from each edited file's
// module root (the nearest folder above it with a go.mod), once per module, so a workspace whose
// module is in a subfolder, or that holds several modules (with or without a go.work, which go
// finds itself above the module and honours), is checked rather than answered "could not check"
// by a `go vet ./...` at a workspace root that is no module. Files under no module are said not
// checked; a module whose run fails fails the whole check, named.
import type { ToolContext } from "../../capabilities/context.ts";
import { type LanguageCheck, type LanguageChecker, runLanguageCheck } from "./language-check.ts";

/** Modules checked per edit; the files of more are said not checked. */
const MAX_MODULES = 16;
/** What marks a module's root, by checker program. */
const MODULE_FILE: Readonly<Record<string, string>> = { go: "go.mod" };

/** The checker over the modules holding root-relative `files` (its language's only), one run per module, in turn. */
export async function runModuleChecks(
  ctx: ToolContext,
  checker: LanguageChecker,
  opts: { files: readonly string[] },
): Promise<LanguageCheck> {
  const { files } = opts;
  const marker = MODULE_FILE[checker.program] ?? "go.mod";
  const byModule = new Map<string, string[]>();
  const outside: string[] = [];
  const roots = new Map<string, Promise<string | undefined>>();
  const rootOf = (dir: string): Promise<string | undefined> => {
    let found = roots.get(dir);
    if (found === undefined) {
      found = ctx.fs
        .stat(dir === "" ? marker : `${dir}/${marker}`)
        .then((s) => (s.isFile ? dir : undefined))
        .catch(() => undefined)
        .then((here) => (here !== undefined || dir === "" ? here : rootOf(parentOf(dir))));
      roots.set(dir, found);
    }
    return found;
  };
  for (const file of files) {
    const root = await rootOf(parentOf(file));
    if (root === undefined) outside.push(file);
    else byModule.set(root, [...(byModule.get(root) ?? []), file]);
  }
  const modules = [...byModule.keys()].sort();
  const checked = modules.slice(0, MAX_MODULES);
  const skipped = modules.slice(MAX_MODULES).flatMap((m) => byModule.get(m) ?? []);
  const base = { checker: checker.name, scope: scopeOf(checked) };
  if (checked.length === 0)
    return {
      ...base,
      errors: [],
      files: 0,
      notChecked: files.length,
      ...(files.length === 0 ? {} : { failed: `no ${marker} above ${files.slice(0, 3).join(", ")}, so there is no module to check` }),
    };
  const runs: LanguageCheck[] = [];
  for (const module of checked) {
    const run = await runLanguageCheck(ctx, checker, { files: byModule.get(module) ?? [], cwd: module });
    if (run.failed !== undefined)
      return {
        ...base,
        errors: [],
        files: 0,
        notChecked: files.length,
        failed: `in ${module === "" ? "the root module" : module}: ${run.failed}`,
      };
    runs.push(run);
  }
  const nested = (file: string, module: string) =>
    checked.some((m) => m !== module && m.startsWith(module === "" ? "" : `${module}/`) && within(file, m));
  return {
    ...base,
    errors: runs.flatMap((r) => r.errors),
    files: runs.reduce((n, r) => n + r.files, 0),
    notChecked: outside.length + skipped.length,
    // A module's run covers its files, not those of a module nested in it (./... stops at a go.mod).
    covers: (file) => runs.some((r, i) => r.covers?.(file) === true && !nested(file, checked[i] ?? "")),
  };
}

/** How the answer names the modules: "the module", "the module in api", "3 modules (., api, web)". */
function scopeOf(modules: readonly string[]): string {
  if (modules.length === 0) return "no module";
  if (modules.length === 1) return modules[0] === "" ? "the module" : `the module in ${modules[0]}`;
  const names = modules.map((m) => (m === "" ? "." : m));
  return `${modules.length} modules (${names.slice(0, 5).join(", ")}${names.length > 5 ? ` and ${names.length - 5} more` : ""})`;
}

function within(file: string, dir: string): boolean {
  return dir === "" || file.startsWith(`${dir}/`);
}

/** The root-relative folder of a root-relative path ("" at the root). */
function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut < 0 ? "" : path.slice(0, cut);
}
