// The prompts' fence for untrusted text lives in src/lib/text/fence.ts, where the automation hooks'
// prompt templates (a service, below the prompts) use the same one.
export { fence, fenceNonce } from "../lib/text/fence.ts";
