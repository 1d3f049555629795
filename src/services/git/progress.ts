// Network commands (fetch, pull, push) report git's progress lines ("Receiving objects: 45%") as
// notifications/progress, so a long transfer is visibly alive.
import type { ToolContext } from "../../capabilities/context.ts";

export function gitProgress(ctx: Pick<ToolContext, "progress">): (stream: "stdout" | "stderr", text: string) => void {
  let count = 0;
  let last = "";
  return (stream, text) => {
    if (stream !== "stderr") return;
    // Git redraws a progress line with "\r"; the newest complete part is what a person would see.
    const line = text
      .split(/[\r\n]/)
      .filter((l) => l.trim() !== "")
      .pop()
      ?.trim();
    if (line === undefined || line === last) return;
    last = line;
    ctx.progress(++count, { message: line.slice(0, 200) });
  };
}
