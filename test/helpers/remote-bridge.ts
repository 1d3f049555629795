// The real bridge with remote access on (a child process): its public MCP URL, read from the
// "remote access at <url>" line it logs once the listener and the OAuth state are ready.
import { startBridgeProcess, type BridgeProcess, type StartBridgeOptions } from "./spawn-bridge.ts";

const REMOTE = /remote access at (\S+)\/mcp /;

export interface RemoteBridge extends BridgeProcess {
  /** The issuer: https://localhost:<port>, or the --issuer-url given. */
  issuer: string;
  /** `${issuer}/mcp` */
  remoteMcpUrl: string;
}

export async function startRemoteBridge(opts: StartBridgeOptions): Promise<RemoteBridge> {
  const bridge = await startBridgeProcess(opts);
  const issuer = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const found = REMOTE.exec(bridge.stderr())?.[1];
      if (found === undefined) return false;
      bridge.proc.stderr?.off("data", onData);
      resolve(found);
      return true;
    };
    const onData = () => void check();
    if (check()) return;
    bridge.proc.stderr?.on("data", onData);
    void bridge.exited.then(() => reject(new Error(`the bridge exited before remote access was up:\n${bridge.stderr()}`)));
  });
  return Object.assign(bridge, { issuer, remoteMcpUrl: `${issuer}/mcp` });
}

/** Arguments for TLS on localhost with the test CA's certificate. */
export function tlsArgs(ca: { certFile: string; keyFile: string }): string[] {
  return ["--tls-cert", ca.certFile, "--tls-key", ca.keyFile, "--bind", "localhost"];
}
