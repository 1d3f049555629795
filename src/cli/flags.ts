// A small flag parser for the CLI commands: `--name value`, `--name=value`, booleans, positionals.
import { BridgeError } from "../errors.ts";
import { isAbsolute, join } from "../lib/paths/posix-path.ts";

interface FlagSpec {
  /** Flags that take a value. */
  values?: readonly string[];
  /** Flags that take none. */
  booleans?: readonly string[];
  /** How many positional arguments are allowed. */
  maxPositionals?: number;
}

interface ParsedFlags {
  values: Map<string, string>;
  booleans: Set<string>;
  positionals: string[];
}

export function parseFlags(args: readonly string[], spec: FlagSpec): ParsedFlags {
  const parsed: ParsedFlags = { values: new Map(), booleans: new Set(), positionals: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (spec.booleans?.includes(name)) {
      if (eq !== -1) throw usage(`${name} takes no value`);
      parsed.booleans.add(name);
    } else if (spec.values?.includes(name)) {
      const value = eq !== -1 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined || value === "" || (eq === -1 && value.startsWith("--"))) throw usage(`${name} needs a value`);
      parsed.values.set(name, value);
    } else if (arg.startsWith("-") && arg !== "-") {
      throw usage(`unknown option ${name}`);
    } else {
      parsed.positionals.push(arg);
    }
  }
  if (parsed.positionals.length > (spec.maxPositionals ?? 0)) {
    throw usage(`unexpected argument "${parsed.positionals[spec.maxPositionals ?? 0]}"`);
  }
  return parsed;
}

export function portFlag(parsed: ParsedFlags): number | undefined {
  const raw = parsed.values.get("--port");
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 65535) throw usage(`--port must be a port number (1-65535), got "${raw}"`);
  return n;
}

/** --workspace as an absolute path (relative to `cwd`), or `cwd` itself without the flag. */
export function workspaceFlag(parsed: ParsedFlags, cwd: string): string {
  const raw = parsed.values.get("--workspace");
  if (raw === undefined) return cwd;
  return isAbsolute(raw) ? raw : join(cwd, raw);
}

export function usage(message: string): BridgeError {
  return new BridgeError("usage", message);
}
