// The bridge's introspection toolset.
import type { Tool } from "../define-tool.ts";
import getToolCapabilities from "./get-tool-capabilities.ts";

export const bridgeTools: Tool[] = [getToolCapabilities];
