// The command line shared by every runtime: subcommands (runtime/cli/subcommands.ts) or the bridge.
// Logs go to stderr; stdout carries only --help, --version and subcommand output, because the
// stdio shim owns stdout when it runs.
import { BridgeError, errorMessage } from "../../src/errors.ts";
import { HELP_TEXT, parseCli } from "../../src/config/cli.ts";
import { resolveConfig } from "../../src/config/load.ts";
import { projectRootFor } from "../../src/cli/project-root-runtime.ts";
import { selfInvocation, shellLine } from "../../src/cli/self-invocation.ts";
import { binPath, findSubcommand, listSubcommands, runtimeVersion } from "./subcommands.ts";
import type { Runtime } from "../../src/ports/runtime.ts";
import type { CliHost } from "../../src/cli/cli-host.ts";

export async function runCli(host: CliHost, argv: string[]): Promise<void> {
  try {
    await run(host, argv);
  } catch (err) {
    if (err instanceof BridgeError && (err.code === "usage" || err.code === "config_invalid")) {
      console.error(`claude-ide-bridge: ${err.message}`);
      console.error("Run claude-ide-bridge --help for the options.");
      await host.shutdown(2);
    }
    console.error(`claude-ide-bridge: ${errorMessage(err)}`);
    if (!(err instanceof BridgeError) && err instanceof Error && err.stack !== undefined) console.error(err.stack);
    // Whatever did start (lock file, listeners) is cleaned up by the handlers registered so far.
    await host.shutdown(1);
  }
}

async function run(host: CliHost, argv: string[]): Promise<void> {
  const { runtime } = host;
  const subcommand = findSubcommand(argv[0]);
  if (subcommand) {
    const code = await (await subcommand.load())(host, argv.slice(1));
    if (code !== undefined) await host.shutdown(code);
    return;
  }
  const cli = parseCli(argv);
  if (cli.kind === "help") {
    const commands = listSubcommands().map((c) => `  ${c.name.padEnd(26)} ${c.summary}`);
    host.writeStdout(`${HELP_TEXT}\nCommands (claude-ide-bridge <command> --help for their options):\n${commands.join("\n")}\n`);
    return host.shutdown(0);
  }
  if (cli.kind === "version") {
    host.writeStdout(`${await packageVersion(runtime)}\n`);
    return host.shutdown(0);
  }
  const config = await resolveConfig(cli.flags, {
    readConfigFile: (path) => runtime.fs.readTextFile(path),
    cwd: runtime.paths.cwd,
    defaultWorkspace: await projectRootFor(runtime, runtime.paths.cwd),
    env: runtime.env,
  });
  // Loaded lazily so --help, --version and subcommands stay fast (DESIGN.md, "Start-up cost").
  const { startBridge } = await import("../../src/bridge.ts");
  const shim = await selfInvocation(runtime, await binPath(runtime));
  // startBridge registers its own stop() with runtime.onShutdown before it writes the lock file.
  await startBridge(runtime, config, {
    exit: (code) => void host.shutdown(code),
    shimCommand: shellLine({ command: shim.command, args: [...shim.args, "shim"] }),
    bridgeCommand: shim,
    // bridgeDoctor runs the doctor command's own checks, loaded when first asked for.
    doctor: async (signal) =>
      (
        await (
          await import("../../src/cli/doctor.ts")
        ).doctorChecks(runtime, {
          cwd: config.workspace,
          configPath: cli.flags.configPath,
          self: shim,
          runtimeVersion: runtimeVersion(runtime),
          signal,
        })
      ).checks,
  });
}

/** package.json sits two levels up from runtime/cli/cli.ts and from the bundle dist/runtime/node-bundle.js, three up from dist/runtime/cli/cli.js. */
async function packageVersion(rt: Runtime): Promise<string> {
  for (const relative of ["../../package.json", "../../../package.json"]) {
    const url = new URL(relative, import.meta.url);
    // file:///C:/x -> C:/x on Windows; /x elsewhere.
    const path = decodeURIComponent(url.pathname).replace(/^\/([A-Za-z]:)/, "$1");
    try {
      const pkg: unknown = JSON.parse(await rt.fs.readTextFile(path));
      if (typeof pkg === "object" && pkg !== null && "name" in pkg && pkg.name === "claude-ide-bridge" && "version" in pkg) {
        return String(pkg.version);
      }
    } catch {
      // Not this candidate; try the next one.
    }
  }
  return "unknown";
}
