// deleteFile's trash stays out of every listing and search (split from
// test/unit/tools/file-tools.test.ts): findFiles lists with rg when it is on PATH, so this runs it.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let root: string;
let d: Dispatcher;

const at = (rel: string) => join(root, rel);
const put = async (rel: string, content: string | Uint8Array) => {
  await mkdir(join(at(rel), ".."), { recursive: true });
  await writeFile(at(rel), content);
};

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-files-")));
  root = join(base, "ws");
  await mkdir(root);
  d = await dispatcher(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("deleteFile", () => {
  it("keeps the trash out of every listing and search", async () => {
    await put("listed.txt", "needle\n");
    await d.data("deleteFile", { filePath: "listed.txt" });
    expect(await d.text("getFileTree", { includeHidden: true, maxDepth: 10 })).not.toMatch(/claude-ide-bridge|listed/);
    expect(await d.text("findFiles", { pattern: "**/listed.txt", includeHidden: true })).toBe("No file matches **/listed.txt.");
  });
});
