// Source maps as the Node debugger reads them: VLQ mappings both ways, a line without code moved to
// the next line that has some, and inline maps (tsc's inlineSourceMap) decoded from their data URL.
import { describe, expect, it } from "vitest";
import { mapLocation, SourceMap } from "../../../src/dap/node-inspector/source-map.ts";

// Generated line 0 <- source line 0; line 1 <- source line 1 (col 2 -> source col 4); line 2 (none);
// line 3 <- source line 4 at columns 0 and 6 (the second from source line 5).
const MAPPINGS = "AAAA;AACA,EAAI;;AAGJ,MACA";

describe("SourceMap", () => {
  const map = new SourceMap({ version: 3, sources: ["../src/app.ts"], mappings: MAPPINGS }, "/w/dist");

  it("resolves its sources against the map's directory", () => {
    expect(map.sources).toEqual(["/w/src/app.ts"]);
  });

  it("finds a source line's first generated position, or the next line with code", () => {
    expect(map.generatedFor("/w/src/app.ts", 1)).toEqual({ line: 1, genLine: 1, genColumn: 0 });
    expect(map.generatedFor("/w/src/app.ts", 2)).toEqual({ line: 4, genLine: 3, genColumn: 0 });
    expect(map.generatedFor("/w/src/app.ts", 9)).toBeUndefined();
    expect(map.generatedFor("/w/src/other.ts", 0)).toBeUndefined();
  });

  it("reads a generated position back as its source line", () => {
    expect(map.originalFor(3, 0)).toEqual({ path: "/w/src/app.ts", line: 4 });
    expect(map.originalFor(3, 7)).toEqual({ path: "/w/src/app.ts", line: 5 });
    expect(map.originalFor(2, 0)).toBeUndefined();
  });
});

describe("mapLocation", () => {
  it("decodes an inline map and names a file map next to its script", () => {
    const raw = { version: 3, sources: ["ü.ts"], mappings: "AAAA" };
    const base64 = btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(raw))));
    expect(mapLocation("/w/dist/app.js", `data:application/json;charset=utf-8;base64,${base64}`)).toEqual({ inline: raw });
    expect(mapLocation("/w/dist/app.js", "app.js.map")).toEqual({ file: "/w/dist/app.js.map" });
    expect(mapLocation("/w/dist/app.js", "https://example.com/app.js.map")).toBeUndefined();
  });
});
