// The bridge's introspection toolset: what works here and why not, what the bridge is doing
// (status, activity, performance, usage), its doctor checks, and a search over its tools.
import { defineToolset } from "../platform/toolset.ts";
import bridgeDoctor from "./bridge-doctor.ts";
import getActivityLog from "./get-activity-log.ts";
import getAnalyticsReport from "./get-analytics-report.ts";
import getBridgeStatus from "./get-bridge-status.ts";
import getPerformanceReport from "./get-performance-report.ts";
import getSessionUsage from "./get-session-usage.ts";
import getToolCapabilities from "./get-tool-capabilities.ts";
import searchTools from "./search-tools.ts";
import watchActivityLog from "./watch-activity-log.ts";

export const bridgeToolset = defineToolset({
  name: "bridge",
  purpose: "what works here and why, health, activity log, performance, doctor, tool search",
  tools: [
    getToolCapabilities,
    getBridgeStatus,
    getActivityLog,
    watchActivityLog,
    getPerformanceReport,
    getAnalyticsReport,
    getSessionUsage,
    bridgeDoctor,
    searchTools,
  ],
});
