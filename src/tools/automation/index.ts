// The automation toolset: Claude Code tasks run by the bridge as subprocesses (src/capabilities/claude/)
// through one queue (src/services/claude-tasks/), started by a tool call or an automation hook.
import { defineToolset } from "../platform/toolset.ts";
import cancelClaudeTask from "./cancel-claude-task.ts";
import getClaudeTaskStatus from "./get-claude-task-status.ts";
import launchQuickTask from "./launch-quick-task.ts";
import listClaudeTasks from "./list-claude-tasks.ts";
import resumeClaudeTask from "./resume-claude-task.ts";
import runClaudeTask from "./run-claude-task.ts";

export const automationToolset = defineToolset({
  name: "automation",
  purpose: "background Claude Code tasks: run, status, cancel",
  tools: [runClaudeTask, getClaudeTaskStatus, listClaudeTasks, cancelClaudeTask, resumeClaudeTask, launchQuickTask],
});
