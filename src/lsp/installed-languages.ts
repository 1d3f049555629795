// Whether some server for a language is installed (its command found), asked once per language:
// the workspace walks that decide which files a server could check ask it for every file.
import type { ServerSpec } from "./server-specs.ts";

export function installedLanguages(
  specs: readonly ServerSpec[],
  found: (spec: ServerSpec) => Promise<unknown>,
): (languageId: string) => Promise<boolean> {
  const installed = new Map<string, Promise<boolean>>();
  return (languageId) => {
    let known = installed.get(languageId);
    if (known === undefined) {
      known = (async () => {
        for (const spec of specs) if (spec.languages.includes(languageId) && (await found(spec)) !== undefined) return true;
        return false;
      })();
      installed.set(languageId, known);
    }
    return known;
  };
}
