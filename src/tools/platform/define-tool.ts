// The shape of a tool: data, one per file (DESIGN.md, "Tools are data"). This is the contract every
// tool of the bridge is written against, so it carries what Claude Code needs to find a tool (its
// tool search ranks names, search hints and descriptions) and what the dispatcher needs to run it.
import type * as v from "valibot";
import type { ToolContext, ToolRequirements } from "../../capabilities/context.ts";

export type Schema = v.GenericSchema;

/** The hints tools/list carries about a tool's effects (MCP's ToolAnnotations), as the registry serves them. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * What every tool states about its effects, in one spelling. readOnlyHint always: clients assume the
 * worst of a missing hint, and Claude Code runs read-only tools concurrently and sends one again after
 * a dropped connection even when it may have run, so `true` promises that both are harmless. A tool
 * that is not read-only also says whether it may destroy (delete files or data, discard work, run
 * arbitrary commands: destructiveHint true) or only creates and edits (false); MCP gives destructiveHint
 * meaning only then, so a read-only tool leaves it out. The registry checks the same at start.
 */
export type DeclaredAnnotations =
  | { readOnlyHint: true; destructiveHint?: never; idempotentHint?: boolean; openWorldHint?: boolean }
  | { readOnlyHint: false; destructiveHint: boolean; idempotentHint?: boolean; openWorldHint?: boolean };

/**
 * `probes`: executables the tool cannot work without (the call is refused when one is missing).
 * `optionalProbes`: executables it uses when present and works without (rg for search, git for
 * recent changes); ctx.exec may run both kinds, and ctx.probes says which are there.
 */
export interface DeclaredRequirements {
  readonly probes?: readonly string[];
  readonly optionalProbes?: readonly string[];
}

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string };

/**
 * What a handler returns. With an output schema: the structured value (data payloads: locations,
 * statuses, lists). Without: plain text or content blocks (text payloads: file content, trees,
 * diffs, logs), because Claude Code shows the model only the JSON of structured content.
 */
export type ToolReturn<O extends Schema | undefined> = O extends Schema ? v.InferOutput<O> : string | { content: ContentBlock[] };

export type ToolHandler<I extends Schema, O extends Schema | undefined> = (
  input: v.InferOutput<I>,
  ctx: ToolContext,
) => Promise<ToolReturn<O>>;

interface ToolFields<I extends Schema, O extends Schema | undefined> {
  /** 1-128 chars of [A-Za-z0-9_.-]; camelCase as in the original catalogue. */
  name: string;
  title?: string;
  /** At most 200 characters, starting with a verb ("Lists…", "Reads…"; checked by the registry). */
  description: string;
  /** One short line of the words a model would search for (Claude Code's `anthropic/searchHint`). */
  searchHint: string;
  /** A strict valibot object schema (unknown keys are refused); validated once by the dispatcher. */
  input: I;
  /** Only for data payloads: becomes outputSchema, and results carry structuredContent. */
  output?: O;
  annotations: DeclaredAnnotations;
  /** Added to its toolset's (src/tools/platform/toolset-defaults.ts). */
  requires?: DeclaredRequirements;
  /** Loaded by Claude Code up front, at a context cost on every turn: IDE essentials only (at most 8). */
  alwaysLoad?: boolean;
  /** Part of the --slim set: IDE-exclusive, nothing Claude Code's own tools can do. */
  slim?: boolean;
  /** For tools that legitimately run long: the larger of this and --timeout applies. Wins over its toolset's. */
  timeoutMs?: number;
  /** May return more than Claude Code's default 50,000 characters (tools/list then raises its limit). */
  largeResult?: boolean;
  /**
   * With viaExtension: the extension protocol its VS Code handler needs (protocol.ts's version of the
   * methods it asks). An older extension gets the headless answer with a note, or an isError naming
   * the upgrade when there is none; getToolCapabilities answers from the connected version.
   */
  extensionProtocol?: string;
}

/** A headless handler, one through the VS Code extension, or both (the dispatcher picks per call). */
type Handlers<I extends Schema, O extends Schema | undefined> =
  | {
      handler: ToolHandler<I, O>;
      viaExtension?: ToolHandler<I, O>;
      /** Which calls VS Code answers when connected (default all); the others are headless (a write the bridge's server must check). */
      viaExtensionWhen?: (input: v.InferOutput<I>) => boolean;
    }
  | { handler?: undefined; viaExtension: ToolHandler<I, O>; viaExtensionWhen?: undefined };

export type ToolDefinition<I extends Schema, O extends Schema | undefined> = ToolFields<I, O> & Handlers<I, O>;

type ErasedHandler = (input: unknown, ctx: ToolContext) => Promise<unknown>;

/** A tool with its types erased, as the registry stores it. */
export interface Tool {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  readonly searchHint: string;
  readonly input: Schema;
  readonly output: Schema | undefined;
  readonly annotations: ToolAnnotations;
  readonly requires: ToolRequirements;
  readonly alwaysLoad: boolean;
  readonly slim: boolean;
  readonly timeoutMs: number | undefined;
  readonly largeResult: boolean;
  readonly handlers: {
    readonly headless: ErasedHandler | undefined;
    readonly extension: ErasedHandler | undefined;
    /** Whether VS Code answers this call (input already validated); undefined: every call. */
    readonly extensionWhen?: ((input: unknown) => boolean) | undefined;
  };
}

export function defineTool<I extends Schema, O extends Schema | undefined = undefined>(def: ToolDefinition<I, O>): Tool {
  // The dispatcher validates `input` against `def.input` before calling, so the erased argument
  // has exactly the handler's input type.
  const erase = (fn: ToolHandler<I, O> | undefined): ErasedHandler | undefined =>
    fn && ((input, ctx) => fn(input as v.InferOutput<I>, ctx));
  const requires: ToolRequirements = {};
  if (def.requires?.probes !== undefined && def.requires.probes.length > 0) requires.probes = def.requires.probes;
  if (def.requires?.optionalProbes !== undefined && def.requires.optionalProbes.length > 0)
    requires.optionalProbes = def.requires.optionalProbes;
  if (def.viaExtension !== undefined) requires.extension = def.handler === undefined ? "required" : "fallback";
  if (def.viaExtension !== undefined && def.extensionProtocol !== undefined) requires.extensionProtocol = def.extensionProtocol;
  const when = def.viaExtensionWhen;
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    searchHint: def.searchHint,
    input: def.input,
    output: def.output,
    annotations: def.annotations,
    requires,
    alwaysLoad: def.alwaysLoad ?? false,
    slim: def.slim ?? false,
    timeoutMs: def.timeoutMs,
    largeResult: def.largeResult ?? false,
    handlers: {
      headless: erase(def.handler),
      extension: erase(def.viaExtension),
      extensionWhen: when && ((input) => when(input as v.InferOutput<I>)),
    },
  };
}
