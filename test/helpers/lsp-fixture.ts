// Real language servers for tests: a workspace the test writes, the bridge's own LSP service on the
// real Node runtime (src/lsp/lsp-service.ts), and dispatchers that call the tools through an MCP
// session with it. stop() ends every server the service started.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createNodeRuntime } from "../../runtime/node.ts";
import { createLspService, type LspService, type LspServiceOptions } from "../../src/lsp/lsp-service.ts";
import { createWorkspace } from "../../src/security/jail/workspace-jail.ts";
import { createWorkspaceFs } from "../../src/workspace/workspace-fs.ts";
import { dispatcher, type Dispatcher } from "./tool-dispatch.ts";

export interface LspFixture {
  root: string;
  lsp: LspService;
  tools: Dispatcher;
  /** Another MCP session on the same bridge (the same servers). */
  session(): Promise<Dispatcher>;
  write(path: string, text: string): Promise<void>;
  stop(): Promise<void>;
}

const runtime = createNodeRuntime();

export async function writeFiles(root: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

export async function lspFixture(
  files: Readonly<Record<string, string>>,
  opts: Partial<Pick<LspServiceOptions, "specs" | "idleMs" | "maxServers" | "maxMemoryBytes">> = {},
): Promise<LspFixture> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "lsp-fixture-")));
  await writeFiles(root, files);
  const lsp = createLspService({ runtime, fs: createWorkspaceFs(runtime.fs, await createWorkspace(runtime.fs, { root })), ...opts });
  const session = () => dispatcher(root, { lsp });
  return {
    root,
    lsp,
    tools: await session(),
    session,
    write: (path, text) => writeFiles(root, { [path]: text }),
    async stop() {
      await lsp.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}
