// Dynamic client registration (RFC 7591) for clients that still use it; newer ones name a Client
// ID Metadata Document instead. Public clients only, bounded in size, rate and count (clients.ts).
import { MAX_REGISTRATION_BYTES } from "./clients.ts";
import { readJson } from "./form.ts";
import { jsonResponse } from "./oauth-error.ts";
import { charge, type ServerContext } from "./server-context.ts";

export async function registerRequest(ctx: ServerContext, request: Request): Promise<Response> {
  charge(ctx, "register");
  const body = await readJson(request, MAX_REGISTRATION_BYTES);
  const registered = await ctx.clients.register(body);
  ctx.log("client registered", { client: String(registered.client_id), name: String(registered.client_name ?? "") });
  return jsonResponse(registered, { status: 201 });
}
