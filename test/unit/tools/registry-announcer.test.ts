// The tools only VS Code can answer are listed while its extension is connected, and clients are
// told (once the extension's state settles) only when tools/list's answer really changed.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ToolListAnnouncer } from "../../../src/tools/platform/registry-announcer.ts";
import { ToolRegistry } from "../../../src/tools/platform/registry.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";

const fresh = () => new ToolRegistry(TOOLSETS, { slim: false, maxResultChars: 512 * 1024 });
const names = (registry: ToolRegistry) => registry.entries().map((e) => e.name);

afterEach(() => {
  vi.useRealTimers();
});

describe("ToolRegistry.listExtensionTools", () => {
  it("hides the VS Code-only tools from tools/list, keeps them callable, and bumps the list version", () => {
    const registry = fresh();
    const all = names(registry);
    const version = registry.version;
    expect(registry.listExtensionTools(false)).toBe(true);
    const listed = names(registry);
    expect(listed).not.toContain("createTerminal");
    expect(listed).not.toContain("getCurrentSelection");
    // A tool with a headless path stays listed; a hidden one is still callable by name.
    expect(listed).toContain("readFile");
    expect(registry.get("createTerminal")).toBeDefined();
    expect(all.filter((n) => !listed.includes(n)).every((n) => registry.get(n)?.requires.extension === "required")).toBe(true);
    expect(registry.version).toBeGreaterThan(version);
    expect(registry.listExtensionTools(false)).toBe(false);
    expect(registry.listExtensionTools(true)).toBe(true);
    expect(names(registry)).toEqual(all);
  });

  it("says nothing changed for a registry with no VS Code-only tool", () => {
    const git = new ToolRegistry(
      TOOLSETS.filter((t) => t.name === "git"),
      { slim: false, maxResultChars: 512 * 1024 },
    );
    const version = git.version;
    expect(git.listExtensionTools(false)).toBe(false);
    expect(git.version).toBe(version);
  });
});

describe("ToolListAnnouncer", () => {
  it("announces once after the extension's state holds, and not for a flap that ends where it began", () => {
    vi.useFakeTimers();
    const registry = fresh();
    const announce = vi.fn();
    const announcer = new ToolListAnnouncer([registry], { announce, debounceMs: 1000 });
    announcer.extensionPresent(false);
    vi.advanceTimersByTime(999);
    expect(announce).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(announce).toHaveBeenCalledTimes(1);
    // VS Code reloads its window: gone and back within the debounce.
    announcer.extensionPresent(true);
    vi.advanceTimersByTime(500);
    announcer.extensionPresent(false);
    vi.advanceTimersByTime(2000);
    expect(announce).toHaveBeenCalledTimes(1);
    announcer.extensionPresent(true);
    vi.advanceTimersByTime(1000);
    expect(announce).toHaveBeenCalledTimes(2);
    announcer.dispose();
  });

  it("takes a change already announced elsewhere as the new baseline", () => {
    vi.useFakeTimers();
    const registry = fresh();
    const announce = vi.fn();
    const announcer = new ToolListAnnouncer([registry], { announce, debounceMs: 10 });
    announcer.extensionPresent(false);
    // A plugin reload told every client about the list as it is now, hidden tools and all.
    announcer.alreadyTold();
    vi.advanceTimersByTime(100);
    expect(announce).not.toHaveBeenCalled();
    announcer.dispose();
  });
});
