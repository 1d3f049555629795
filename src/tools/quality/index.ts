// The quality toolset: what the project's own checkers, linters, formatters and package managers
// say about the code, each run through ctx.exec.runToolchain with an argv the tool builds.
import { defineToolset } from "../platform/toolset.ts";
import auditDependencies from "./audit-dependencies.ts";
import getSecurityAdvisories from "./audit-security-advisories.ts";
import fixAllLintErrors from "./fix-all-lint-errors.ts";
import formatAndSave from "./format-and-save.ts";
import formatDocument from "./format-document.ts";
import getDependencyTree from "./get-dependency-tree.ts";
import getDiagnostics from "./get-diagnostics.ts";

export const qualityToolset = defineToolset({
  name: "quality",
  purpose: "diagnostics from checkers (tsc, eslint, ruff...), lint autofix, formatting, dependency audit and tree",
  tools: [getDiagnostics, fixAllLintErrors, formatDocument, formatAndSave, auditDependencies, getSecurityAdvisories, getDependencyTree],
});
