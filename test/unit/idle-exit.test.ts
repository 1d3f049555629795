// --idle-timeout: exits once no session has been there for the whole period, never while one is.
import { afterEach, expect, it, vi } from "vitest";
import { idleCheckInterval, startIdleExit } from "../../src/idle-exit.ts";

afterEach(() => {
  vi.useRealTimers();
});

it("exits after the period without a session, counted from the last one seen", () => {
  vi.useFakeTimers();
  let busy = true;
  const onIdle = vi.fn();
  const idle = startIdleExit({ idleMs: 10_000, isBusy: () => busy, onIdle });
  vi.advanceTimersByTime(60_000);
  expect(onIdle).not.toHaveBeenCalled();
  busy = false;
  vi.advanceTimersByTime(9_000);
  expect(onIdle).not.toHaveBeenCalled();
  vi.advanceTimersByTime(idleCheckInterval(10_000) + 1_000);
  expect(onIdle).toHaveBeenCalledTimes(1);
  vi.advanceTimersByTime(60_000);
  expect(onIdle).toHaveBeenCalledTimes(1);
  idle.stop();
});

it("a session in between starts the period again; stop() ends the watch", () => {
  vi.useFakeTimers();
  let busy = false;
  const onIdle = vi.fn();
  const idle = startIdleExit({ idleMs: 8_000, isBusy: () => busy, onIdle });
  vi.advanceTimersByTime(6_000);
  busy = true;
  vi.advanceTimersByTime(2_000);
  busy = false;
  vi.advanceTimersByTime(6_000);
  expect(onIdle).not.toHaveBeenCalled();
  idle.stop();
  vi.advanceTimersByTime(60_000);
  expect(onIdle).not.toHaveBeenCalled();
});

it("looks often enough for short periods and at most every 5 s for long ones", () => {
  expect(idleCheckInterval(1_000)).toBe(250);
  expect(idleCheckInterval(600_000)).toBe(5_000);
});
