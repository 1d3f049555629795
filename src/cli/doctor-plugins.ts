// doctor's word on the running bridge's plugins, read from its /health: each loaded one (✓), each
// that failed to load or whose last reload was refused (✗ with its error), and the last call of one
// of its tools that threw or hung (!).
import type { Check } from "./doctor-report.ts";

interface HealthPlugin {
  name?: unknown;
  source?: unknown;
  version?: unknown;
  state?: unknown;
  tools?: unknown;
  error?: unknown;
  lastToolFailure?: { tool?: unknown; error?: unknown };
}

export function pluginChecks(health: Record<string, unknown>, opts: { cli: string }): Check[] {
  const plugins = Array.isArray(health.plugins) ? (health.plugins as HealthPlugin[]) : [];
  return plugins.flatMap((p): Check[] => {
    const name = `${String(p.name)}${p.version === undefined ? "" : ` ${String(p.version)}`}`;
    const tools = Array.isArray(p.tools) ? p.tools.length : 0;
    const checks: Check[] = [];
    if (p.state === "loaded" && p.error === undefined) {
      checks.push({ area: "plugin", status: "ok", summary: `${name}: ${tools} tool(s) served` });
    } else {
      checks.push({
        area: "plugin",
        status: "fail",
        summary: `${name} (${String(p.source)}): ${String(p.error)}`,
        fix:
          p.state === "loaded"
            ? "fix the plugin; the version loaded before serves until an edit loads (with --plugin-watch)"
            : `fix the plugin, then restart the bridge (${opts.cli} stop), or save it again with --plugin-watch`,
      });
    }
    const failure = p.lastToolFailure;
    if (failure !== undefined)
      checks.push({
        area: "plugin",
        status: "warn",
        summary: `${name}: its tool ${String(failure.tool)} failed: ${String(failure.error)}`,
        fix: "the plugin's code threw or hung; see the bridge log",
      });
    return checks;
  });
}
