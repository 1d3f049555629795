// The notes toolset: what a session keeps for itself and the next one, in the workspace.
import { defineToolset } from "../platform/toolset.ts";
import createPlan from "./create-plan.ts";
import deletePlan from "./delete-plan.ts";
import getHandoffNote from "./get-handoff-note.ts";
import getPlan from "./get-plan.ts";
import listPlans from "./list-plans.ts";
import setHandoffNote from "./set-handoff-note.ts";
import updatePlan from "./update-plan.ts";

export const notesToolset = defineToolset({
  name: "notes",
  purpose: "plans as checklists and a handoff note for the next session",
  tools: [createPlan, getPlan, updatePlan, listPlans, deletePlan, getHandoffNote, setHandoffNote],
});
