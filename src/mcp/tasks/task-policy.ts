// Which tool calls become tasks when the client declared the tasks extension: the ones that can
// take minutes (test runs, commands, a terminal's run, diagnostics over the whole workspace).
// Everything else answers at once, as it would without the extension: a task costs the client
// polls, which a quick call does not need. The server decides per call (SEP-2663).
const ALWAYS = new Set(["runTests", "runCommand", "runInTerminal"]);

export function runsAsTask(tool: string, input: unknown): boolean {
  if (ALWAYS.has(tool)) return true;
  // getDiagnostics over one file is quick; over the workspace it waits for every language server.
  if (tool === "getDiagnostics") return !(typeof input === "object" && input !== null && "file" in input && input.file !== undefined);
  return false;
}

/** A task's statusMessage for a progress report: "3/10: compiling", "compiling", "3". */
export function progressMessage(progress: number, opts?: { total?: number; message?: string }): string {
  const count = opts?.total !== undefined ? `${progress}/${opts.total}` : String(progress);
  return opts?.message !== undefined ? `${count}: ${opts.message}` : count;
}
