// Turns a scripted assistant turn into what the Messages API sends back: one JSON message, or the
// same message as server-sent events in the order the real API streams them (message_start, ping,
// per block content_block_start / _delta... / _stop, message_delta with the stop reason and the
// output usage, message_stop). Tool input arrives as input_json_delta fragments that only parse
// once joined, and text in several text_delta pieces, so the client's accumulation is exercised.
import { randomBytes } from "node:crypto";
import type { AssistantMessage, AssistantTurn, TextBlock, ToolUseBlock } from "./model-api-types.ts";

const DELTA_CHARS = 40;

/** Ids shaped like the API's (msg_01…, toolu_01…); the CLI only needs them unique. */
const randomId = (prefix: string): string => `${prefix}01${randomBytes(12).toString("hex")}`;

/** A rough token count, enough for usage figures and count_tokens (about 4 characters a token). */
export const roughTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

export function assistantMessage(turn: AssistantTurn, opts: { model: string; inputTokens: number }): AssistantMessage {
  const content: Array<TextBlock | ToolUseBlock> = [];
  if (turn.text !== undefined) content.push({ type: "text", text: turn.text });
  for (const use of turn.toolUses ?? []) content.push({ type: "tool_use", id: randomId("toolu_"), name: use.name, input: use.input });
  if (content.length === 0) content.push({ type: "text", text: "" });
  const outputTokens = roughTokens(JSON.stringify(content));
  return {
    id: randomId("msg_"),
    type: "message",
    role: "assistant",
    model: opts.model,
    content,
    stop_reason: turn.toolUses?.length ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: opts.inputTokens, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += DELTA_CHARS) out.push(text.slice(i, i + DELTA_CHARS));
  return out;
}

const frame = (event: string, data: Record<string, unknown>): string =>
  `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;

/** The SSE frames of `message`, each a complete `event:`/`data:` record. */
export function streamFrames(message: AssistantMessage): string[] {
  const { content, stop_reason, usage, ...head } = message;
  const frames = [
    frame("message_start", {
      message: { ...head, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    }),
    frame("ping", {}),
  ];
  content.forEach((block, index) => {
    if (block.type === "text") {
      frames.push(frame("content_block_start", { index, content_block: { type: "text", text: "" } }));
      for (const text of chunks(block.text)) frames.push(frame("content_block_delta", { index, delta: { type: "text_delta", text } }));
    } else {
      frames.push(frame("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } }));
      // The real API opens every tool_use with an empty fragment.
      for (const partial_json of ["", ...chunks(JSON.stringify(block.input))]) {
        frames.push(frame("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } }));
      }
    }
    frames.push(frame("content_block_stop", { index }));
  });
  frames.push(frame("message_delta", { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }));
  frames.push(frame("message_stop", {}));
  return frames;
}
