// Breakpoints on the Node inspector. A line in a TypeScript file goes through its source map to the
// compiled JavaScript; V8 binds a breakpoint by URL, now or when the script loads, at the first code
// on or after the line (the answer says where). V8 has conditions but no hit counts: hits are counted
// here and a stop before the wanted hit is resumed. A logpoint is a condition that logs and is false.
// Function breakpoints need the function object: its name is evaluated where the program is.
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { CdpClient } from "./cdp-client.ts";
import type { RemoteObject } from "./remote-values.ts";
import type { SourceMap } from "./source-map.ts";
import type { SourceMapStore } from "./source-map-store.ts";

interface Placed {
  readonly id: number;
  readonly cdpId: string;
  readonly hitCondition: string | undefined;
  hits: number;
  /** For a breakpoint set through a source map: the map, to read bound locations back as source lines. */
  readonly map: SourceMap | undefined;
}

interface CdpLocation {
  scriptId: string;
  lineNumber: number;
  columnNumber?: number;
}

const HIT_CONDITION = /^\s*(>=|>|==|=|<=|<|%)?\s*(\d+)\s*$/;
const TYPESCRIPT = /\.[cm]?tsx?$/;

export class NodeBreakpoints {
  private nextId = 1;
  private readonly byFile = new Map<string, Placed[]>();
  private functions: Placed[] = [];
  private readonly byCdp = new Map<string, Placed>();
  private busy: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly cdp: CdpClient,
    private readonly maps: SourceMapStore,
    private readonly scripts: { isLoaded(path: string): boolean },
  ) {}

  /**
   * Resolves once the changes under way are registered: V8 may hit a breakpoint before the answer
   * that names it has been read, and its pause must find it (to count its hits).
   */
  settled(): Promise<unknown> {
    return this.busy;
  }

  /** Replaces a file's breakpoints (DAP's setBreakpoints). */
  setForFile(path: string, wanted: readonly DebugProtocol.SourceBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
    return this.track(this.placeForFile(path, wanted));
  }

  /** Replaces the function breakpoints; `resolve` evaluates a name where the program is. */
  setFunctions(
    wanted: readonly DebugProtocol.FunctionBreakpoint[],
    resolve: (name: string) => Promise<RemoteObject | undefined>,
  ): Promise<DebugProtocol.Breakpoint[]> {
    return this.track(this.placeFunctions(wanted, resolve));
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.busy = Promise.allSettled([this.busy, work]);
    return work;
  }

  private async placeForFile(path: string, wanted: readonly DebugProtocol.SourceBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
    await this.removeAll(this.byFile.get(path) ?? []);
    const mapped = TYPESCRIPT.test(path) ? await this.maps.forSource(path) : undefined;
    const placed: Placed[] = [];
    const answers: DebugProtocol.Breakpoint[] = [];
    for (const bp of wanted) {
      const refused = hitConditionError(bp.hitCondition);
      if (refused !== undefined) {
        answers.push({ verified: false, line: bp.line, message: refused });
        continue;
      }
      if (TYPESCRIPT.test(path) && mapped === undefined) {
        answers.push({
          verified: false,
          line: bp.line,
          message: "no source map names this file: compile it with sourceMap (tsc) so its lines map to the JavaScript Node runs",
        });
        continue;
      }
      const target = mapped === undefined ? { file: path, genLine: bp.line - 1, genColumn: 0 } : where(mapped, path, bp.line);
      if (target === undefined) {
        answers.push({ verified: false, line: bp.line, message: "no code on or after this line in the compiled JavaScript" });
        continue;
      }
      const condition = conditionOf(bp);
      const result = await this.cdp
        .send<{ breakpointId: string; locations: CdpLocation[] }>("Debugger.setBreakpointByUrl", {
          urlRegex: urlRegexOf(target.file),
          lineNumber: target.genLine,
          columnNumber: target.genColumn,
          ...(condition === undefined ? {} : { condition }),
        })
        .catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
      if (result instanceof Error) {
        answers.push({ verified: false, line: bp.line, message: result.message });
        continue;
      }
      const p: Placed = { id: this.nextId++, cdpId: result.breakpointId, hitCondition: bp.hitCondition, hits: 0, map: mapped?.map };
      placed.push(p);
      this.byCdp.set(p.cdpId, p);
      const location = result.locations[0];
      const bound = location === undefined ? undefined : this.sourceLine(p, location);
      if (bound !== undefined) answers.push({ id: p.id, verified: true, line: bound });
      else if (location !== undefined) {
        answers.push({
          id: p.id,
          verified: false,
          line: bp.line,
          message: "no code on or after this line (V8 bound it past the compiled code)",
        });
      } else {
        answers.push({
          id: p.id,
          verified: false,
          line: bp.line,
          message: this.scripts.isLoaded(target.file)
            ? "no code on or after this line"
            : "the script is not loaded yet: the breakpoint binds when Node loads it",
        });
      }
    }
    this.byFile.set(path, placed);
    return answers;
  }

  private async placeFunctions(
    wanted: readonly DebugProtocol.FunctionBreakpoint[],
    resolve: (name: string) => Promise<RemoteObject | undefined>,
  ): Promise<DebugProtocol.Breakpoint[]> {
    await this.removeAll(this.functions);
    this.functions = [];
    const answers: DebugProtocol.Breakpoint[] = [];
    for (const bp of wanted) {
      const refused = hitConditionError(bp.hitCondition);
      const fn = refused === undefined ? await resolve(bp.name).catch(() => undefined) : undefined;
      if (fn?.type !== "function" || fn.objectId === undefined) {
        answers.push({
          verified: false,
          message:
            refused ??
            `no function ${bp.name} is in scope where the program is paused (nor global): set a breakpoint on its first line instead`,
        });
        continue;
      }
      const condition = conditionOf(bp);
      const result = await this.cdp.send<{ breakpointId: string }>("Debugger.setBreakpointOnFunctionCall", {
        objectId: fn.objectId,
        ...(condition === undefined ? {} : { condition }),
      });
      const p: Placed = { id: this.nextId++, cdpId: result.breakpointId, hitCondition: bp.hitCondition, hits: 0, map: undefined };
      this.functions.push(p);
      this.byCdp.set(p.cdpId, p);
      answers.push({ id: p.id, verified: true });
    }
    return answers;
  }

  /** A breakpoint V8 bound later (its script loaded): the DAP breakpoint it updates. */
  resolved(cdpId: string, location: CdpLocation): DebugProtocol.Breakpoint | undefined {
    const p = this.byCdp.get(cdpId);
    const line = p === undefined ? undefined : this.sourceLine(p, location);
    return p === undefined || line === undefined ? undefined : { id: p.id, verified: true, line };
  }

  /** Counts the hits of a pause's breakpoints: false when each waits for a later hit (resume, say nothing). */
  shouldStop(hitIds: readonly string[]): boolean {
    let stop = hitIds.length === 0;
    for (const cdpId of hitIds) {
      const p = this.byCdp.get(cdpId);
      if (p === undefined) {
        stop = true;
        continue;
      }
      p.hits += 1;
      if (p.hitCondition === undefined || hitReached(p.hitCondition, p.hits)) stop = true;
    }
    return stop;
  }

  /** The DAP ids of a pause's breakpoints, and whether one of them is a function breakpoint. */
  hits(hitIds: readonly string[]): { ids: number[]; onFunction: boolean } {
    const placed = hitIds.flatMap((id) => this.byCdp.get(id) ?? []);
    return { ids: placed.map((p) => p.id), onFunction: placed.some((p) => this.functions.includes(p)) };
  }

  /** The 1-based source line of a bound location; undefined when the map gives the JavaScript there no source line. */
  private sourceLine(p: Placed, location: CdpLocation): number | undefined {
    if (p.map === undefined) return location.lineNumber + 1;
    const back = p.map.originalFor(location.lineNumber, location.columnNumber ?? 0);
    return back === undefined ? undefined : back.line + 1;
  }

  private async removeAll(placed: readonly Placed[]): Promise<void> {
    for (const p of placed) {
      this.byCdp.delete(p.cdpId);
      await this.cdp.send("Debugger.removeBreakpoint", { breakpointId: p.cdpId }).catch(() => {});
    }
  }
}

function where(
  mapped: { generated: string; map: SourceMap },
  path: string,
  line: number,
): { file: string; genLine: number; genColumn: number } | undefined {
  const found = mapped.map.generatedFor(path, line - 1);
  return found === undefined ? undefined : { file: mapped.generated, genLine: found.genLine, genColumn: found.genColumn };
}

/** Node names a CommonJS script by its path and an ES module by its file:// URL: either matches. */
function urlRegexOf(path: string): string {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const encoded = encodeURI(path).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return `^(${escaped}|file://${encoded})$`;
}

function conditionOf(bp: { condition?: string; logMessage?: string }): string | undefined {
  const parts = [
    ...(bp.condition === undefined || bp.condition === "" ? [] : [`(${bp.condition})`]),
    ...("logMessage" in bp && bp.logMessage !== undefined ? [`(${logCall(bp.logMessage)}, false)`] : []),
  ];
  return parts.length === 0 ? undefined : parts.join(" && ");
}

/** "x is {x}" as console.log(`x is ${x}`): the text is literal, each {expression} is evaluated. */
function logCall(message: string): string {
  const body = message
    .split(/(\{[^{}]+\})/)
    .map((part) => (/^\{[^{}]+\}$/.test(part) ? `\${${part.slice(1, -1)}}` : part.replace(/[`\\$]/g, (c) => `\\${c}`)))
    .join("");
  return `console.log(\`${body}\`)`;
}

function hitConditionError(condition: string | undefined): string | undefined {
  if (condition === undefined || HIT_CONDITION.test(condition)) return undefined;
  return `the hit condition ${JSON.stringify(condition)} is not one of N, == N, > N, >= N, < N, <= N, % N`;
}

function hitReached(condition: string, hits: number): boolean {
  const match = HIT_CONDITION.exec(condition);
  const n = Number(match?.[2]);
  switch (match?.[1]) {
    case ">":
      return hits > n;
    case ">=":
      return hits >= n;
    case "<":
      return hits < n;
    case "<=":
      return hits <= n;
    case "%":
      return n > 0 && hits % n === 0;
    default:
      return hits === n;
  }
}
