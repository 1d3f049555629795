// The bridge's own refusals inside a debug session (the in-process Node adapter's, the attach checks
// of src/dap/) answered with their code and fix, not as an adapter failure.
import { AdapterRefusal } from "../../dap/adapter-refusal.ts";
import { DapRequestError } from "../../dap/dap-connection.ts";
import { ToolError } from "../../errors.ts";

export function refusalAsToolError(err: unknown): ToolError | undefined {
  const refusal = err instanceof AdapterRefusal ? err : err instanceof DapRequestError ? err.refusal : undefined;
  return refusal === undefined ? undefined : new ToolError(refusal.code, refusal.message, { suggestion: refusal.suggestion });
}
