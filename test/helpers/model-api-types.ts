// The slice of the Anthropic Messages API that Claude Code sends and reads, as the fake model API
// sees it. Only what the fake and its scripts look at is typed; everything else in a request
// body is kept as it came (the recorded body is the parsed JSON, untouched).

export interface TextBlock {
  type: "text";
  text: string;
}

export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  /** A string, or blocks (text, image, tool_reference for ToolSearch, ...). */
  content?: string | Array<{ type: string; text?: string; tool_name?: string }>;
  is_error?: boolean;
}

/** Anything else Claude Code puts in a message (thinking, image, document, ...). */
export interface OtherBlock {
  type: string;
}

export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | OtherBlock;

export interface Message {
  /** "system" appears too: mid-conversation system messages (a beta Claude Code uses). */
  role: "user" | "assistant" | "system";
  content: string | ContentBlock[];
}

export interface ToolDefinition {
  name: string;
  description?: string;
  input_schema?: unknown;
  /** Set on tools the model must first load through ToolSearch. */
  defer_loading?: boolean;
}

export interface MessagesRequest {
  model: string;
  max_tokens: number;
  stream?: boolean;
  system?: string | TextBlock[];
  messages: Message[];
  tools?: ToolDefinition[];
  /** `format` asks for structured output: `{ type: "json_schema", schema }`. */
  output_config?: { format?: { type?: string; schema?: unknown } };
}

/** What a script answers: text, tool calls, or both (text first, as a model writes). */
export interface AssistantTurn {
  text?: string;
  toolUses?: Array<{ name: string; input: Record<string, unknown> }>;
}

export type StopReason = "end_turn" | "tool_use" | "max_tokens";

/** A complete assistant message, the non-streaming response body. */
export interface AssistantMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: Array<TextBlock | ToolUseBlock>;
  stop_reason: StopReason;
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number };
}

export const isToolUse = (b: ContentBlock): b is ToolUseBlock => b.type === "tool_use";
export const isToolResult = (b: ContentBlock): b is ToolResultBlock => b.type === "tool_result";

/** A message's blocks; a string content is one text block. */
export function blocksOf(message: Message): ContentBlock[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

/** The system prompt as one string, however it was sent. */
export function systemText(request: MessagesRequest): string {
  if (request.system === undefined) return "";
  return typeof request.system === "string" ? request.system : request.system.map((b) => b.text).join("\n");
}
