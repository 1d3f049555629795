// setWorkspaceSetting: changes one setting in the workspace's settings (.vscode/settings.json),
// never one that decides what runs or what is trusted (vscode-policy.ts).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { settingRefusal } from "./vscode-policy.ts";

export default defineTool({
  name: "setWorkspaceSetting",
  title: "Set VS Code setting",
  description:
    "Sets one VS Code setting for this workspace (e.g. editor.tabSize); settings that name programs, shells, environments, tasks or trust are refused.",
  searchHint: "turn on or change a vscode setting for this project: workspace settings.json, format on save, editor options",
  input: v.strictObject({
    key: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description('Full key, e.g. "editor.formatOnSave".')),
    value: v.pipe(v.unknown(), v.description("JSON value; null removes the workspace's value.")),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  extensionProtocol: "1.2.0",
  async viaExtension(input, ctx) {
    const refusal = settingRefusal(input.key);
    if (refusal !== undefined)
      throw new ToolError("permission_denied", `Refused: ${refusal}`, {
        suggestion: "Ask the user to change it in VS Code; the bridge changes only settings that run nothing.",
      });
    if (JSON.stringify(input.value ?? null).length > 32_768)
      throw new ToolError("invalid_arguments", "The value takes more than 32768 characters of JSON", {
        suggestion: "Set a smaller value.",
      });
    // null (or nothing) removes the workspace's own value: VS Code's update takes undefined for that.
    const value = input.value === null ? undefined : input.value;
    const { previous } = await ctx.extension.request("extension/setSetting", { key: input.key, value }, { signal: ctx.signal });
    const was = previous === undefined ? "not set in the workspace before" : `was ${previous}`;
    return value === undefined
      ? `Removed ${input.key} from the workspace settings (${was}).`
      : `Set ${input.key} to ${JSON.stringify(value)} in the workspace settings (${was}).`;
  },
});
