// The dashboard's two charts as inline SVG (no library, no script): p95 latency per minute over the
// last 30 minutes, and calls per tool (the 10 most called). Each has a title and a text summary
// for screen readers; sizes are SVG attributes, never style attributes (the CSP forbids those).
import { jsx as h } from "hono/jsx";
import type { BridgeSnapshot } from "../services/activity/bridge-snapshot.ts";

type Node = ReturnType<typeof h>;
const W = 600;
const H = 180;
const PAD = 36;

export function charts(snap: BridgeSnapshot): Node {
  return h("div", { class: "charts" }, latencyChart(snap), callsChart(snap));
}

function latencyChart(snap: BridgeSnapshot): Node {
  const points = snap.latency.perMinute;
  const max = Math.max(1, ...points.map((p) => p.p95Ms ?? 0));
  const x = (i: number) => PAD + (i * (W - 2 * PAD)) / Math.max(1, points.length - 1);
  const y = (ms: number) => H - PAD + 10 - (ms / max) * (H - PAD - 10);
  const measured = points.map((p, i) => ({ ...p, i })).filter((p) => p.p95Ms !== null);
  const summary =
    measured.length === 0
      ? "No calls in the last 30 minutes."
      : `p95 latency per minute, highest ${max} ms, over ${measured.length} minutes with calls.`;
  return h(
    "figure",
    { class: "card chart" },
    h("figcaption", { id: "lat-cap" }, "p95 latency per minute (last 30 min)"),
    h(
      "svg",
      { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "lat-cap lat-desc" },
      h("desc", { id: "lat-desc" }, summary),
      h("line", { x1: PAD, y1: H - PAD + 10, x2: W - PAD, y2: H - PAD + 10, class: "axis" }),
      h("text", { x: 2, y: 16, class: "label" }, `${max} ms`),
      h("text", { x: 2, y: H - PAD + 14, class: "label" }, "0"),
      h("text", { x: W - PAD, y: H - 4, class: "label end" }, "now"),
      measured.length > 1 ? h("polyline", { points: measured.map((p) => `${x(p.i)},${y(p.p95Ms ?? 0)}`).join(" "), class: "line" }) : null,
      ...measured.map((p) =>
        h(
          "circle",
          { cx: x(p.i), cy: y(p.p95Ms ?? 0), r: 3, class: "dot" },
          h("title", {}, `${new Date(p.at).toISOString().slice(11, 16)}: p95 ${p.p95Ms} ms, ${p.calls} calls`),
        ),
      ),
    ),
  );
}

function callsChart(snap: BridgeSnapshot): Node {
  const rows = snap.latency.tools.slice(0, 10);
  const max = Math.max(1, ...rows.map((r) => r.calls));
  const barH = 16;
  const height = Math.max(40, rows.length * (barH + 6) + 10);
  const labelW = 170;
  return h(
    "figure",
    { class: "card chart" },
    h("figcaption", { id: "calls-cap" }, "Calls per tool (most called)"),
    h(
      "svg",
      { viewBox: `0 0 ${W} ${height}`, role: "img", "aria-labelledby": "calls-cap calls-desc", id: "calls-chart" },
      h("desc", { id: "calls-desc" }, rows.length === 0 ? "No calls yet." : rows.map((r) => `${r.name}: ${r.calls}`).join(", ")),
      ...rows.flatMap((r, i) => {
        const top = 5 + i * (barH + 6);
        const width = Math.max(2, ((W - labelW - 50) * r.calls) / max);
        return [
          h("text", { x: labelW - 6, y: top + barH - 3, class: "label end" }, r.name),
          h(
            "rect",
            { x: labelW, y: top, width, height: barH, class: r.errors > 0 ? "bar has-errors" : "bar" },
            h("title", {}, `${r.name}: ${r.calls} calls, ${r.errors} errors`),
          ),
          h("text", { x: labelW + width + 6, y: top + barH - 3, class: "label" }, String(r.calls)),
        ];
      }),
    ),
  );
}
