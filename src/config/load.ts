// Builds the one BridgeConfig: defaults < config file < CLI flags. The file is read through an
// injected function so this module stays runtime-free and testable without a disk.
import * as v from "valibot";
import { BridgeError, errorMessage } from "../errors.ts";
import { allowEntryProblem } from "../security/commands/command-policy.ts";
import { isAbsolute, join, normalize } from "../lib/paths/posix-path.ts";
import type { CliFlags } from "./cli.ts";
import { resolveRemote } from "./remote.ts";
import { resolveAutomation } from "./automation.ts";
import { pluginsFromConfigFile } from "./plugin-paths.ts";
import { ConfigFileSchema, DEFAULT_CONFIG, type BridgeConfig, type ConfigFile } from "./schema.ts";

export interface ConfigSources {
  readConfigFile(path: string): Promise<string>;
  /** Absolute; relative paths (workspace, config file) are resolved against it. */
  cwd: string;
  /** The workspace when neither a flag nor the file names one (the project around cwd); else cwd. */
  defaultWorkspace?: string;
  env: Readonly<Record<string, string | undefined>>;
}

const CONFIG_ENV = "CLAUDE_IDE_BRIDGE_CONFIG";
const TOKEN_ENV = "CLAUDE_IDE_BRIDGE_TOKEN";

export async function resolveConfig(flags: CliFlags, sources: ConfigSources): Promise<BridgeConfig> {
  const { configPath, ...cliValues } = flags;
  const filePath = configPath ?? nonEmpty(sources.env[CONFIG_ENV]);
  const fromFile = filePath === undefined ? {} : await loadConfigFile(absolute(filePath, sources.cwd), sources);
  const merged: ConfigFile = { ...fromFile, ...definedOnly(cliValues) };
  const token = merged.fixedToken ?? envToken(sources.env);
  const bind = merged.bind ?? DEFAULT_CONFIG.bind;

  return {
    workspace: absolute(merged.workspace ?? sources.defaultWorkspace ?? ".", sources.cwd),
    port: merged.port ?? DEFAULT_CONFIG.port,
    bind,
    ideName: merged.ideName ?? DEFAULT_CONFIG.ideName,
    fixedToken: token,
    slim: merged.slim ?? DEFAULT_CONFIG.slim,
    toolsets: merged.toolsets ?? DEFAULT_CONFIG.toolsets,
    excludeToolsets: merged.excludeToolsets ?? DEFAULT_CONFIG.excludeToolsets,
    profile: merged.profile ?? DEFAULT_CONFIG.profile,
    verbose: merged.verbose ?? DEFAULT_CONFIG.verbose,
    jsonl: merged.jsonl ?? DEFAULT_CONFIG.jsonl,
    timeoutMs: merged.timeout ?? DEFAULT_CONFIG.timeoutMs,
    maxResultSizeKb: merged.maxResultSize ?? DEFAULT_CONFIG.maxResultSizeKb,
    gracePeriodMs: merged.gracePeriod ?? DEFAULT_CONFIG.gracePeriodMs,
    toolRateLimit: merged.toolRateLimit ?? DEFAULT_CONFIG.toolRateLimit,
    requestRateLimit: merged.requestRateLimit ?? DEFAULT_CONFIG.requestRateLimit,
    maxSessions: merged.maxSessions ?? DEFAULT_CONFIG.maxSessions,
    maxWsSessions: merged.maxWsSessions ?? DEFAULT_CONFIG.maxWsSessions,
    maxSessionStagedMb: merged.maxSessionStagedMb ?? DEFAULT_CONFIG.maxSessionStagedMb,
    maxStagedMb: merged.maxStagedMb ?? DEFAULT_CONFIG.maxStagedMb,
    allowPushToMain: merged.allowPushToMain ?? DEFAULT_CONFIG.allowPushToMain,
    allowGitDirWrites: merged.allowGitDirWrites ?? DEFAULT_CONFIG.allowGitDirWrites,
    allowGitHooks: merged.allowGitHooks ?? DEFAULT_CONFIG.allowGitHooks,
    allowCommands: checkedAllowCommands(merged.allowCommands ?? DEFAULT_CONFIG.allowCommands),
    allowPrivateHttp: merged.allowPrivateHttp ?? DEFAULT_CONFIG.allowPrivateHttp,
    vscodeAllowCommands: merged.vscodeAllowCommands ?? DEFAULT_CONFIG.vscodeAllowCommands,
    vscodeAllowTasks: merged.vscodeAllowTasks ?? DEFAULT_CONFIG.vscodeAllowTasks,
    workspaceFolders: (merged.workspaceFolders ?? DEFAULT_CONFIG.workspaceFolders).map((dir) => absolute(dir, sources.cwd)),
    spawnRoots: (merged.spawnRoots ?? DEFAULT_CONFIG.spawnRoots).map((dir) => absolute(dir, sources.cwd)),
    allowVSCodeDirWrites: merged.allowVSCodeDirWrites ?? DEFAULT_CONFIG.allowVSCodeDirWrites,
    passEnv: checkedPassEnv(merged.passEnv ?? DEFAULT_CONFIG.passEnv),
    idleTimeoutMs: merged.idleTimeout ?? DEFAULT_CONFIG.idleTimeoutMs,
    exclusive: merged.exclusive ?? DEFAULT_CONFIG.exclusive,
    lsp: merged.lsp ?? DEFAULT_CONFIG.lsp,
    lspMemoryMb: merged.lspMemoryMb ?? DEFAULT_CONFIG.lspMemoryMb,
    lspMaxServers: merged.lspMaxServers ?? DEFAULT_CONFIG.lspMaxServers,
    remote: resolveRemote(merged, { bind, cwd: sources.cwd }),
    plugins: merged.plugins ?? DEFAULT_CONFIG.plugins,
    pluginWatch: merged.pluginWatch ?? DEFAULT_CONFIG.pluginWatch,
    automation: resolveAutomation(merged, { cwd: sources.cwd }),
  };
}

async function loadConfigFile(path: string, sources: ConfigSources): Promise<ConfigFile> {
  let text: string;
  try {
    text = await sources.readConfigFile(path);
  } catch (err) {
    throw new BridgeError("config_invalid", `${path}: cannot read the config file: ${errorMessage(err)}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new BridgeError("config_invalid", `${path}: not valid JSON: ${errorMessage(err)}`, { cause: err });
  }
  // valibot's object schemas accept arrays (as objects with keys "0", "1", …); say it plainly.
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new BridgeError("config_invalid", `${path}: the file must hold a JSON object, like {"port": 4000}`);
  }
  const result = v.safeParse(ConfigFileSchema, json);
  if (!result.success) {
    const issue = result.issues[0];
    const at = v.getDotPath(issue) ?? "(top level)";
    // strictObject reports an unknown key as "Expected never"; say what it means instead.
    const what = issue.expected === "never" ? `unknown key (allowed: ${Object.keys(ConfigFileSchema.entries).join(", ")})` : issue.message;
    throw new BridgeError("config_invalid", `${path}: ${at}: ${what}`);
  }
  const file = result.output;
  return file.plugins === undefined ? file : { ...file, plugins: pluginsFromConfigFile(file.plugins, path) };
}

/** The env token is a fallback only, but it is checked as strictly as the flag. */
function envToken(env: ConfigSources["env"]): string | undefined {
  const raw = nonEmpty(env[TOKEN_ENV]);
  if (raw === undefined) return undefined;
  if (!v.safeParse(ConfigFileSchema.entries.fixedToken, raw).success) {
    throw new BridgeError("config_invalid", `${TOKEN_ENV}: must be 16-500 visible ASCII characters, no spaces`);
  }
  return raw;
}

/** Interpreters and shells can never be allowed, from the command line or a config file alike. */
function checkedAllowCommands(entries: string[]): string[] {
  for (const entry of entries) {
    const problem = allowEntryProblem(entry);
    if (problem !== undefined) throw new BridgeError("config_invalid", `--allow-command (allowCommands): ${problem}`);
  }
  return entries;
}

/** A variable name; never the bridge's own secrets, which no child gets. */
function checkedPassEnv(names: string[]): string[] {
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new BridgeError("config_invalid", `--pass-env (passEnv): "${name.slice(0, 80)}" is not an environment variable name`);
    if (name === TOKEN_ENV || name === CONFIG_ENV)
      throw new BridgeError("config_invalid", `--pass-env (passEnv): ${name} is the bridge's own and never reaches a child process`);
  }
  return names;
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? normalize(path) : join(cwd, path);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** Drops keys whose value is undefined so they do not shadow the config file in a spread. */
function definedOnly<T extends object>(obj: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (value !== undefined) Object.assign(out, { [key]: value });
  }
  return out;
}
