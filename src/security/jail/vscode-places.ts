// Where VS Code takes code to run from in a workspace, which no tool writes unless the user started
// the bridge with --allow-vscode-dir-writes: .vscode/ (tasks.json and launch.json are commands,
// settings.json names shells, interpreters and language servers, extensions.json recommends what to
// install) and *.code-workspace files, which hold the same "tasks", "launch" and "settings". A model
// that could write a task there could then run it with runVSCodeTask, in a terminal with VS Code's
// whole environment. setWorkspaceSetting changes settings through VS Code's API, which checks its
// keys, and is not a write of the bridge's.

/** Why VS Code may take code from `inFolder` (a path relative to its workspace folder), or undefined. */
export function vscodePlace(inFolder: string): string | undefined {
  const parts = inFolder.split("/");
  if (parts.some((part) => folded(part) === ".vscode")) return "is in a .vscode folder";
  if (folded(parts.at(-1) ?? "").endsWith(".code-workspace")) return "is a VS Code workspace file (.code-workspace)";
  return undefined;
}

/** As a case-insensitive filesystem (macOS, Windows) or NTFS's trailing dots and spaces would read the name. */
function folded(name: string): string {
  return name.replace(/[. ]+$/, "").toLowerCase();
}
