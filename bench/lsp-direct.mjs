// A language server asked directly, as the benches' baseline: spawned in the project, spoken to
// over vscode-jsonrpc, initialized with the project as its one folder and one file opened.
// `configuration(section)` answers its workspace/configuration requests (null: the defaults).
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = await import("vscode-jsonrpc/node");

export async function startDirectServer(command, { root, open, languageId, configuration = () => null, capabilities = {} }) {
  const child = spawn(command[0], command.slice(1), { cwd: root, stdio: ["pipe", "pipe", "ignore"] });
  child.stdin.on("error", () => {});
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onRequest((method, params) =>
    method === "workspace/configuration" ? params.items.map((item) => configuration(item.section ?? "")) : null,
  );
  connection.onNotification(() => {});
  connection.listen();
  const uri = `file://${root}`;
  await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: uri,
    workspaceFolders: [{ uri, name: "bench" }],
    capabilities,
  });
  connection.sendNotification("initialized", {});
  const doc = `file://${join(root, open)}`;
  const text = await readFile(join(root, open), "utf8");
  connection.sendNotification("textDocument/didOpen", { textDocument: { uri: doc, languageId, version: 1, text } });
  return {
    connection,
    doc,
    text,
    async stop() {
      await connection.sendRequest("shutdown").catch(() => {});
      // A server may exit on shutdown already: the exit notification then meets a closed pipe.
      await connection.sendNotification("exit").catch(() => {});
      child.kill();
    },
  };
}
