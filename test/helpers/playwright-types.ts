// playwright-core is a devDependency of extension/ (beside vsce), not of the bridge, loaded at run
// time by the real-VS-Code e2e: the part of its API those tests use.
export interface Locator {
  first(): Locator;
  click(): Promise<void>;
  textContent(): Promise<string | null>;
  count(): Promise<number>;
  waitFor(opts: { state: "visible" | "hidden"; timeout?: number }): Promise<void>;
}
export interface Page {
  goto(url: string, opts: { waitUntil: "domcontentloaded"; timeout: number }): Promise<unknown>;
  reload(opts: { waitUntil: "domcontentloaded"; timeout: number }): Promise<unknown>;
  waitForSelector(selector: string, opts: { timeout: number }): Promise<unknown>;
  locator(selector: string): Locator;
  screenshot(opts: { path: string }): Promise<unknown>;
  close(opts: { runBeforeUnload: boolean }): Promise<void>;
  keyboard: { press(key: string): Promise<void>; type(text: string): Promise<void> };
}
export interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
export interface Playwright {
  chromium: { launchPersistentContext(dir: string, opts: Record<string, unknown>): Promise<BrowserContext> };
}
