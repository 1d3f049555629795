// What every gh the bridge runs gets: no prompt, no pager, no colour, no update check (which would
// reach the network on its own schedule). gh keeps the user's own login and GH_HOST.
export const GH_ENV: Readonly<Record<string, string>> = {
  GH_PROMPT_DISABLED: "1",
  GH_NO_UPDATE_NOTIFIER: "1",
  GH_PAGER: "cat",
  PAGER: "cat",
  NO_COLOR: "1",
  CLICOLOR: "0",
  GH_SPINNER_DISABLED: "1",
  // gh runs git to find the repository's remotes; it must not prompt either.
  GIT_TERMINAL_PROMPT: "0",
};

export const GH_TIMEOUT_MS = 60_000;

export const AUTH_SUGGESTION =
  "Run `gh auth login` in a terminal (or give the bridge GH_TOKEN; for GitHub Enterprise GH_HOST and GH_ENTERPRISE_TOKEN), then retry; getToolCapabilities shows whether gh is logged in.";
