// What the model reads of a paused Node program, as DAP answers: the stack (JavaScript positions
// read back through source maps to TypeScript lines), scopes (the innermost block scopes and the
// function's own as one "Locals", then closures, module and global), variables and evaluation.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { basename } from "../../lib/paths/posix-path.ts";
import type { CdpClient } from "./cdp-client.ts";
import { firstLine, Handles, toVariable, typeText, valueText, type PropertyDescriptor, type RemoteObject } from "./remote-values.ts";
import type { SourceMapStore } from "./source-map-store.ts";

export interface CallFrame {
  callFrameId: string;
  functionName: string;
  location: { scriptId: string; lineNumber: number; columnNumber?: number };
  scopeChain: { type: string; object: RemoteObject; name?: string }[];
}

export interface Pause {
  callFrames: CallFrame[];
  reason: string;
  data?: RemoteObject;
  hitBreakpoints?: string[];
}

/** Properties shown per object: a huge array is cut, not sent whole. */
const MAX_PROPERTIES = 500;

export class PausedProgram {
  readonly handles = new Handles();

  constructor(
    private readonly cdp: CdpClient,
    private readonly maps: SourceMapStore,
    private readonly scripts: {
      script(id: string): { path: string | undefined; url: string; sourceMapUrl: string | undefined } | undefined;
    },
  ) {}

  async stackTrace(pause: Pause, args: DebugProtocol.StackTraceArguments): Promise<DebugProtocol.StackTraceResponse["body"]> {
    const start = args.startFrame ?? 0;
    const frames = pause.callFrames.slice(start, args.levels === undefined || args.levels === 0 ? undefined : start + args.levels);
    const stackFrames = await Promise.all(
      frames.map(async (frame, i): Promise<DebugProtocol.StackFrame> => {
        const { lineNumber, columnNumber = 0 } = frame.location;
        const script = this.scripts.script(frame.location.scriptId);
        const map = script?.path === undefined ? undefined : await this.maps.forScript(script.path, script.sourceMapUrl);
        const original = map?.originalFor(lineNumber, columnNumber);
        const path = original?.path ?? script?.path;
        return {
          id: start + i + 1,
          name: frame.functionName === "" ? "(anonymous)" : frame.functionName,
          ...(path === undefined
            ? script === undefined
              ? {}
              : { source: { name: script.url } }
            : { source: { path, name: basename(path) } }),
          line: (original?.line ?? lineNumber) + 1,
          column: original === undefined ? columnNumber + 1 : 1,
        };
      }),
    );
    return { stackFrames, totalFrames: pause.callFrames.length };
  }

  scopes(pause: Pause, frameId: number): DebugProtocol.ScopesResponse["body"] {
    const frame = this.frame(pause, frameId);
    const chain = frame.scopeChain.filter((s) => s.object.objectId !== undefined);
    const innermost = innermostScopes(chain);
    const scopes: DebugProtocol.Scope[] = [];
    if (innermost.length > 0) {
      const objects = innermost.flatMap((s) => s.object.objectId ?? []);
      scopes.push({ name: "Locals", presentationHint: "locals", variablesReference: this.handles.add({ objects }), expensive: false });
    }
    for (const s of chain.slice(innermost.length)) {
      const objectId = s.object.objectId ?? "";
      scopes.push({
        name: s.name === undefined || s.name === "" ? titleOf(s.type) : `${titleOf(s.type)}: ${s.name}`,
        variablesReference: this.handles.add({ objects: [objectId] }),
        expensive: s.type === "global",
      });
    }
    return { scopes };
  }

  async variables(reference: number): Promise<DebugProtocol.VariablesResponse["body"]> {
    const handle = this.handles.get(reference);
    if (handle === undefined) throw new Error(`No variables reference ${reference} (references end when the program runs again)`);
    const seen = new Set<string>();
    const variables: DebugProtocol.Variable[] = [];
    for (const objectId of handle.objects) {
      const { result } = await this.cdp.send<{ result: PropertyDescriptor[] }>("Runtime.getProperties", {
        objectId,
        ownProperties: true,
        generatePreview: false,
      });
      for (const p of result) {
        // An inner block's name hides the function's own: the first one seen is the one in force.
        if (p.value === undefined || p.name === "__proto__" || seen.has(p.name)) continue;
        if (variables.length >= MAX_PROPERTIES) break;
        seen.add(p.name);
        variables.push(toVariable(p.value, { name: p.name, handles: this.handles }));
      }
    }
    return { variables };
  }

  async evaluate(pause: Pause | undefined, args: DebugProtocol.EvaluateArguments): Promise<DebugProtocol.EvaluateResponse["body"]> {
    const answer =
      pause === undefined
        ? await this.cdp.send<{ result: RemoteObject; exceptionDetails?: ExceptionDetails }>("Runtime.evaluate", {
            expression: args.expression,
            silent: true,
          })
        : await this.cdp.send<{ result: RemoteObject; exceptionDetails?: ExceptionDetails }>("Debugger.evaluateOnCallFrame", {
            callFrameId: this.frame(pause, args.frameId ?? 1).callFrameId,
            expression: args.expression,
            silent: true,
          });
    if (answer.exceptionDetails !== undefined) {
      const details = answer.exceptionDetails;
      throw new Error(firstLine(details.exception?.description ?? details.text ?? "the expression threw"));
    }
    const variable = toVariable(answer.result, { name: "", handles: this.handles });
    return { result: valueText(answer.result), type: typeText(answer.result), variablesReference: variable.variablesReference };
  }

  /** A name's value where the program is paused (its top frame), else in its global scope. */
  async evaluateObject(pause: Pause | undefined, expression: string): Promise<RemoteObject | undefined> {
    const top = pause?.callFrames[0];
    const answer =
      top === undefined
        ? await this.cdp.send<{ result: RemoteObject; exceptionDetails?: ExceptionDetails }>("Runtime.evaluate", {
            expression,
            silent: true,
          })
        : await this.cdp.send<{ result: RemoteObject; exceptionDetails?: ExceptionDetails }>("Debugger.evaluateOnCallFrame", {
            callFrameId: top.callFrameId,
            expression,
            silent: true,
          });
    return answer.exceptionDetails === undefined ? answer.result : undefined;
  }

  /** The exception a pause stopped on: its class, message and stack as V8 describes it. */
  exceptionInfo(pause: Pause | undefined): DebugProtocol.ExceptionInfoResponse["body"] {
    const data = pause?.data;
    if (pause === undefined || !["exception", "promiseRejection"].includes(pause.reason) || data === undefined) {
      throw new Error("The program is not stopped on an exception");
    }
    const description = data.description ?? valueText(data);
    return {
      exceptionId: data.className ?? data.type,
      description: data.subtype === "error" ? firstLine(description) : valueText(data),
      breakMode: "unhandled",
      ...(data.subtype === "error" ? { details: { stackTrace: description } } : {}),
    };
  }

  private frame(pause: Pause, frameId: number): CallFrame {
    const frame = pause.callFrames[frameId - 1];
    if (frame === undefined) throw new Error(`No stack frame ${frameId} (frames are numbered from 1 at each stop)`);
    return frame;
  }
}

interface ExceptionDetails {
  text?: string;
  exception?: RemoteObject;
}

/** The block scopes around the pause and the function's own scope, which the model reads as its locals. */
function innermostScopes<T extends { type: string }>(chain: readonly T[]): T[] {
  const out: T[] = [];
  for (const scope of chain) {
    if (scope.type !== "block" && scope.type !== "local") break;
    out.push(scope);
    if (scope.type === "local") break;
  }
  return out;
}

function titleOf(type: string): string {
  return type.charAt(0).toUpperCase() + type.slice(1);
}
