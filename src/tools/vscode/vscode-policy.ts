// What the bridge lets a model do to VS Code itself. Commands run only when the user allowed them by
// id (--vscode-allow-command), and never when they are on the deny list, which wins: commands that
// type into terminals, run tasks, code or the debugger, install extensions, change settings or
// trust, or act for the user on the bridge's own diffs. Settings are refused when they decide what
// runs or where code comes from (paths of programs, their arguments and environment, shells,
// tasks, trust): a setting is code execution one reload later.

/** Command ids that never run through executeVSCodeCommand, whatever is allowed. */
const DENIED_COMMANDS: readonly RegExp[] = [
  /^workbench\.action\.terminal\./, // sendSequence, runSelectedText, new terminals with a command...
  /^terminal\./,
  /^workbench\.action\.tasks\./, // tasks run the workspace's commands: runVSCodeTask says which
  /^workbench\.action\.debug\./,
  /^debug\./,
  /^workbench\.extensions\./, // install, uninstall, enable, disable
  /^extension\.(install|uninstall)/i,
  /settings|preferences|configure/i, // opening and editing settings: setWorkspaceSetting checks keys
  /trust/i,
  /^git\./, // git's commands run the repository's hooks
  /(run|exec|execute)\w*(InTerminal|Selection|Code|Cell|Script|File|Command)/i,
  /^(notebook|jupyter|interactive)\.\S*(execute|run)/i, // notebook cells run in a kernel: runNotebookCell asks the user
  /^workbench\.action\.(url\.openUrl|openFolder|files\.openFolder|openWorkspace|newWindow|reloadWindow|quit|closeWindow)/,
  /^vscode\.(openFolder|newWindow)$/,
  /^claudeIdeBridge\./, // a model must not accept its own diffs
  /^_/, // VS Code's internal commands
];

export function commandDenied(id: string): boolean {
  return DENIED_COMMANDS.some((re) => re.test(id));
}

export function commandAllowed(id: string, allowed: readonly string[]): boolean {
  return allowed.includes(id) && !commandDenied(id);
}

/** Whole sections whose settings decide what runs, what is trusted or where requests go. */
const DENIED_SECTIONS =
  /^(?:(?:security|tasks|launch|extensions|remote|http)(?:\.|$)|terminal\.integrated\.(?:env|profiles|shell|automation|defaultProfile))/;
/** A key's last word naming a program, its arguments, environment or a place code is loaded from. */
const DENIED_LAST_WORD =
  /(path|paths|executable|executables|exe|command|commands|cmd|args|argv|arguments|binary|bin|interpreter|runtime|launcher|tsdk|shell|shellargs|script|scripts|hooks|plugins|pluginpaths|alternatetools|server)$/i;

/** Why a workspace setting may not be changed through the bridge, or undefined. */
export function settingRefusal(key: string): string | undefined {
  if (!/^[A-Za-z0-9_.\-[\]]+$/.test(key)) return `"${key.slice(0, 80)}" is not a setting key`;
  if (DENIED_SECTIONS.test(key)) return `${key} decides what runs, what is trusted or where requests go`;
  const words = key.split(".");
  const last = words.at(-1) ?? "";
  if (DENIED_LAST_WORD.test(last)) return `${key} names a program, its arguments or where code is loaded from`;
  if (words.some((w) => /env/i.test(w))) return `${key} sets the environment programs run with`;
  return undefined;
}

/** Whether runVSCodeTask may run the task named `name`: the user named it, or allowed every task with "*". */
export function taskAllowed(name: string, allowed: readonly string[]): boolean {
  return allowed.includes("*") || allowed.includes(name);
}
