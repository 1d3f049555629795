// A hook's prompt: {{name}} placeholders filled from the event. Values from the workspace or the
// outside (file paths, branch names, commit subjects, test failures, diagnostics) go in fenced, with
// a nonce per prompt (src/lib/text/fence.ts), so an instruction inside them stays quoted data;
// only values the bridge itself chose (counts, outcomes) go in bare. An unknown placeholder is left
// as it is written.
import { fence, fenceNonce } from "../../lib/text/fence.ts";

export type TemplateValue = { text: string; trusted: boolean };

export function renderPrompt(template: string, values: Readonly<Record<string, TemplateValue>>): string {
  const nonce = fenceNonce();
  return template.replace(/\{\{\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return value.trusted ? value.text : `\n${fence(name, value.text, { nonce })}\n`;
  });
}
