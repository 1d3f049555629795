// A request the extension could not carry out, with the bridge's error code and what to do next
// (answered as EXTENSION_FAILED; the bridge turns it into a ToolError the model reads).
export class Failure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly suggestion: string,
  ) {
    super(message);
  }
}
