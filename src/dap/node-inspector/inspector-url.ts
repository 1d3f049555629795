// The WebSocket URL of a Node program's inspector listening on a loopback port (node --inspect=PORT),
// from the inspector's own target list, and the program's main script it names. Only loopback is
// asked, and a URL pointing anywhere else than the port asked is refused: the list is the program's
// answer, not the user's.
import { AdapterRefusal } from "../adapter-refusal.ts";

const LIST_TIMEOUT_MS = 10_000;

export async function inspectorTarget(port: number): Promise<{ url: string; script: string | undefined }> {
  let targets: unknown;
  try {
    const response = await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
    targets = await response.json();
  } catch (err) {
    throw new AdapterRefusal(
      "invalid_arguments",
      `No Node inspector answers on 127.0.0.1:${port} (${err instanceof Error ? err.message : String(err)})`,
      { suggestion: `Start the program with node --inspect=127.0.0.1:${port}, or name the port its inspector listens on.` },
    );
  }
  const list = Array.isArray(targets) ? (targets as { type?: unknown; webSocketDebuggerUrl?: unknown; url?: unknown }[]) : [];
  const target = list.find((t) => t.type === "node" && typeof t.webSocketDebuggerUrl === "string");
  const url = target?.webSocketDebuggerUrl;
  if (typeof url !== "string") {
    throw new AdapterRefusal("not_supported", `The inspector on 127.0.0.1:${port} lists no Node target`, {
      suggestion: "Attach needs the inspector's http listing: start the program without --inspect-publish-uid=stderr.",
    });
  }
  const parsed = new URL(url);
  if (parsed.protocol !== "ws:" || parsed.port !== String(port) || !["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname)) {
    throw new AdapterRefusal("command_refused", `The inspector on 127.0.0.1:${port} named another address (${parsed.host})`, {
      suggestion: "Only an inspector on this machine's loopback is attached to.",
    });
  }
  const script = typeof target?.url === "string" && target.url.startsWith("file://") ? decodeURIComponent(target.url.slice(7)) : undefined;
  return { url: `ws://127.0.0.1:${port}${parsed.pathname}`, script };
}
