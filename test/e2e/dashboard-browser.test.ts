// The dashboard in headless chromium (Debian's, driven by extension/'s playwright-core, as the
// VS Code e2e does), against the real bridge process: `claude-ide-bridge dashboard` prints a
// one-time link; the browser logs in with it; a tool call made by an SDK client appears without a
// reload; no console error and no CSP violation; a screenshot is kept in test-results/dashboard/.
// One bridge and one browser for the file.
import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BRIDGE_BIN, REPO_ROOT, startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";

const run = promisify(execFile);
const ARTIFACTS = join(REPO_ROOT, "test-results", "dashboard");

interface Page {
  goto(url: string, opts?: Record<string, unknown>): Promise<unknown>;
  url(): string;
  on(event: string, listener: (arg: { type?(): string; text?(): string; message?: string }) => void): void;
  waitForSelector(selector: string, opts?: Record<string, unknown>): Promise<unknown>;
  textContent(selector: string): Promise<string | null>;
  evaluate<T>(fn: string): Promise<T>;
  screenshot(opts: { path: string; fullPage?: boolean }): Promise<unknown>;
  context(): { cookies(): Promise<{ name: string; httpOnly: boolean; sameSite: string }[]> };
}
interface Browser {
  newPage(opts?: Record<string, unknown>): Promise<Page>;
  close(): Promise<void>;
}

let bridge: BridgeProcess;
let browser: Browser | undefined;
let client: Client | undefined;

beforeAll(async () => {
  bridge = await startBridgeProcess();
  const pw = createRequire(join(REPO_ROOT, "extension", "package.json"))("playwright-core") as {
    chromium: { launch(opts: Record<string, unknown>): Promise<Browser> };
  };
  browser = await pw.chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await bridge?.stop();
});

async function loginLink(): Promise<string> {
  const { stdout } = await run(process.execPath, [BRIDGE_BIN, "dashboard", "--port", String(bridge.port)], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: bridge.configDir },
    timeout: 30_000,
  });
  return stdout.trim();
}

describe("the dashboard in a real browser", () => {
  it("logs in once, shows an SDK client's tool call live, with no console error or CSP violation", async () => {
    if (browser === undefined) throw new Error("no browser");
    const link = await loginLink();
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${bridge.port}/dashboard/login\\?code=[0-9a-f]{64}$`));
    expect(link).not.toContain(bridge.token);

    // Without the cookie: 401.
    expect((await fetch(`${bridge.url}/dashboard`)).status).toBe(401);

    const page = await browser.newPage({ viewport: { width: 480, height: 900 } });
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type?.() === "error" || m.type?.() === "warning") problems.push(`console ${m.type?.()}: ${m.text?.()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.goto(link, { waitUntil: "domcontentloaded" });
    expect(page.url()).toBe(`${bridge.url}/dashboard`);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === "cib_dashboard")).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    await page.evaluate(
      `document.addEventListener("securitypolicyviolation", (e) => { window.__csp = (window.__csp || []).concat(e.violatedDirective); }); 0`,
    );
    await page.waitForSelector("#stream-status:text('Live')", { timeout: 20_000 });

    // The link worked once.
    expect((await fetch(link, { redirect: "manual" })).status).toBe(401);

    client = new Client({ name: "dashboard-e2e", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${bridge.token}` } } }),
    );
    await client.callTool({ name: "getProjectInfo", arguments: {} });
    await page.waitForSelector('#recent tbody tr[data-tool="getProjectInfo"]', { timeout: 20_000 });
    expect(await page.textContent("#recent")).toContain("dashboard-e2e");
    expect(await page.textContent("#calls-chart")).toContain("getProjectInfo");

    // Usable in a narrow window: at 480 px nothing is wider than the page; wide tables scroll inside
    // their own region (.scroll) rather than the page.
    const overflowing = await page.evaluate<string[]>(`(() => {
      const width = document.documentElement.clientWidth;
      const out = [];
      if (document.documentElement.scrollWidth > width) out.push("page scrolls sideways: " + document.documentElement.scrollWidth + " > " + width);
      for (const el of document.querySelectorAll("body *")) {
        if (el.closest(".scroll") !== null && !el.classList.contains("scroll")) continue;
        const box = el.getBoundingClientRect();
        if (box.width > 0 && (box.right > width + 0.5 || box.left < -0.5))
          out.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + "." + el.className + " " + Math.round(box.left) + ".." + Math.round(box.right));
      }
      return out;
    })()`);
    expect(await page.evaluate<number>("document.documentElement.clientWidth")).toBeLessThanOrEqual(480);
    expect(overflowing).toEqual([]);

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "dashboard.png"), fullPage: true });
    const csp = await page.evaluate<string[] | undefined>("window.__csp");
    expect(csp ?? []).toEqual([]);
    expect(problems).toEqual([]);
    // The page never holds the token.
    expect(await page.evaluate<string>("document.documentElement.outerHTML")).not.toContain(bridge.token);
  }, 90_000);
});
