import { describe, expect, it } from "vitest";
import { holdSse } from "../../../src/transports/http/held-sse.ts";

const text = async (body: string | ReadableStream<Uint8Array>) => new Response(body).text();

describe("a held SSE response", () => {
  it("goes out whole, priming event and answer in one body, when the answer comes first", async () => {
    const held = holdSse(() => {});
    held.connection.write("prime\n\n");
    const body = held.armed();
    await Promise.resolve();
    held.connection.write("answer\n\n");
    held.connection.close();
    const got = await body;
    expect(typeof got).toBe("string");
    expect(await text(got)).toBe("prime\n\nanswer\n\n");
  });

  it("opens the stream at the first notification, with what was held, and carries the rest live", async () => {
    const held = holdSse(() => {});
    held.connection.write("prime\n\n");
    const body = held.armed();
    held.connection.write("progress\n\n");
    const got = await body;
    expect(got).toBeInstanceOf(ReadableStream);
    held.connection.write("answer\n\n");
    held.connection.close();
    expect(await text(got)).toBe("prime\n\nprogress\n\nanswer\n\n");
  });

  it("opens the stream when nothing comes within the hold, so a long call's client has its head", async () => {
    const held = holdSse(() => {});
    held.connection.write("prime\n\n");
    const got = await held.armed();
    expect(got).toBeInstanceOf(ReadableStream);
    held.connection.write("answer\n\n");
    held.connection.close();
    expect(await text(got)).toBe("prime\n\nanswer\n\n");
  });

  it("tells the channel when the client leaves a live stream", async () => {
    let gone = 0;
    const held = holdSse(() => gone++);
    const got = await held.armed();
    await (got as ReadableStream<Uint8Array>).cancel();
    expect(gone).toBe(1);
    expect(held.connection.write("late\n\n")).toBe(false);
  });

  it("takes an answer closed before arming as whole", async () => {
    const held = holdSse(() => {});
    held.connection.write("answer\n\n");
    held.connection.close();
    expect(await text(await held.armed())).toBe("answer\n\n");
  });
});
