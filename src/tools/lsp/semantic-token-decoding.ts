// The protocol's packed semantic tokens (five integers each: line delta, start delta, length, type
// index, modifier bits; LSP 3.17 "Semantic Tokens") decoded into positions and names by the
// server's legend. An index the legend lacks is named by its number, not dropped.
import type { SemanticTokensLegend } from "vscode-languageserver-protocol";

export interface DecodedToken {
  /** 0-based. */
  line: number;
  character: number;
  length: number;
  type: string;
  modifiers: string[];
}

export function decodeTokens(data: readonly number[], legend: SemanticTokensLegend): DecodedToken[] {
  const out: DecodedToken[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i + 4 < data.length; i += 5) {
    const deltaLine = data[i] ?? 0;
    const deltaStart = data[i + 1] ?? 0;
    line += deltaLine;
    character = deltaLine === 0 ? character + deltaStart : deltaStart;
    const typeIndex = data[i + 3] ?? 0;
    const bits = data[i + 4] ?? 0;
    const modifiers: string[] = [];
    for (let m = 0; m < 32; m++) if ((bits & (1 << m)) !== 0) modifiers.push(legend.tokenModifiers[m] ?? `modifier${m}`);
    out.push({ line, character, length: data[i + 2] ?? 0, type: legend.tokenTypes[typeIndex] ?? `type${typeIndex}`, modifiers });
  }
  return out;
}
