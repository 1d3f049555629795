// The bridge's introspection toolset.
import { defineToolset } from "../platform/toolset.ts";
import getToolCapabilities from "./get-tool-capabilities.ts";

export const bridgeToolset = defineToolset({
  name: "bridge",
  purpose: "what works on this machine and why not (missing executables, the VS Code extension)",
  tools: [getToolCapabilities],
});
