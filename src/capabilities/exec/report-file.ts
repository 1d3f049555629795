// A private place for a runner's machine-readable report (pytest's JUnit XML, a coverage file):
// a fresh 0700 directory under the bridge's temp dir, outside the workspace so a run leaves nothing
// behind in the project, removed after the run.
import type { Runtime } from "../../ports/runtime.ts";
import { join } from "../../lib/paths/posix-path.ts";

interface ReportFile {
  readonly path: string;
  /** The report's text (at most `maxBytes`), or undefined when the runner wrote none. */
  read(maxBytes: number): Promise<string | undefined>;
  remove(): Promise<void>;
}

export async function createReportFile(runtime: Pick<Runtime, "fs" | "paths">): Promise<ReportFile> {
  const dir = join(runtime.paths.tmp, `claude-ide-bridge-report-${crypto.randomUUID()}`);
  await runtime.fs.mkdir(dir, { mode: 0o700 });
  const path = join(dir, "report");
  return {
    path,
    async read(maxBytes) {
      const bytes = await runtime.fs.readFile(path).catch(() => undefined);
      return bytes === undefined ? undefined : new TextDecoder().decode(bytes.subarray(0, maxBytes));
    },
    remove: () => runtime.fs.rm(dir, { recursive: true, force: true }),
  };
}
