// The WebSocket policy helpers the Bun and Deno adapters share (runtime/shared/ws-policy.ts); the
// adapters themselves are held to the policy over the wire in test/contract/runtime-adapter.test.ts.
import { describe, expect, it } from "vitest";
import { failedChild } from "../../../runtime/shared/spawn-failed.ts";
import {
  CLOSE_WAIT_MS,
  closeWithGoingAway,
  frameBytes,
  idleTimeoutSeconds,
  MAX_FRAME_BYTES,
  preferredSubprotocol,
} from "../../../runtime/shared/ws-policy.ts";

describe("preferredSubprotocol", () => {
  it("says mcp whenever it is offered, in any position or spacing", () => {
    expect(preferredSubprotocol("mcp")).toBe("mcp");
    expect(preferredSubprotocol("other,mcp")).toBe("mcp");
    expect(preferredSubprotocol("other, mcp , third")).toBe("mcp");
  });

  it("leaves the runtime's default alone otherwise", () => {
    expect(preferredSubprotocol(undefined)).toBeUndefined();
    expect(preferredSubprotocol(null)).toBeUndefined();
    expect(preferredSubprotocol("")).toBeUndefined();
    expect(preferredSubprotocol("mcp2, xmcp")).toBeUndefined();
  });
});

describe("idleTimeoutSeconds", () => {
  it("is twice the ping period, in whole seconds, at least 1", () => {
    expect(idleTimeoutSeconds(30_000)).toBe(60);
    expect(idleTimeoutSeconds(4_000)).toBe(8);
    expect(idleTimeoutSeconds(100)).toBe(1);
  });
});

describe("frameBytes", () => {
  it("counts UTF-8 bytes of strings that could be too big, and bytes of binary data", () => {
    expect(frameBytes("abc")).toBe(3);
    const wide = "é".repeat(MAX_FRAME_BYTES / 2);
    expect(frameBytes(wide)).toBe(MAX_FRAME_BYTES);
    expect(frameBytes(`${wide}é`)).toBeGreaterThan(MAX_FRAME_BYTES);
    expect(frameBytes(new ArrayBuffer(10))).toBe(10);
    expect(frameBytes(new Uint8Array(7))).toBe(7);
    expect(frameBytes(new Blob(["12345"]))).toBe(5);
  });
});

describe("closeWithGoingAway", () => {
  it("closes each socket and returns once all are gone", async () => {
    const sockets = new Set(["a", "b"]);
    const closed: string[] = [];
    await closeWithGoingAway(sockets, (s) => {
      closed.push(s);
      setTimeout(() => sockets.delete(s), 5);
    });
    expect(closed).toEqual(["a", "b"]);
    expect(sockets.size).toBe(0);
  });

  it("gives up after CLOSE_WAIT_MS on sockets that never go, and survives a close that throws", async () => {
    const started = Date.now();
    await closeWithGoingAway(new Set(["deaf"]), () => {
      throw new Error("already closing");
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(CLOSE_WAIT_MS - 20);
  });
});

describe("failedChild", () => {
  it("has empty streams and an exited that rejects with the error as a RuntimeError", async () => {
    const err = Object.assign(new Error("nope"), { code: "ENOENT" });
    const child = failedChild(err);
    expect(child.pid).toBeUndefined();
    expect(await new Response(child.stdout).text()).toBe("");
    expect(await new Response(child.stderr).text()).toBe("");
    await expect(child.exited).rejects.toMatchObject({ name: "RuntimeError", code: "ENOENT", message: "nope", cause: err });
    child.kill();
  });
});
