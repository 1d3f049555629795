// The cost of checking an OAuth access token on each request, against the static bridge token, in
// one run: the real Hono app with remote access on (in-process, app.request, no sockets), an MCP
// session already open with each credential, then `ping` requests on it. Two ratios: the whole
// request (what a client feels) and the resource guard's check alone (the JWT's ES256 signature,
// claims and grant lookup vs a constant-time string compare). Median of RUNS after a warm-up.
// Usage: node bench/oauth.mjs   (CIB_BENCH_RUNS=N to change the run count)
import { register as registerTsx } from "tsx/esm/api";
import { medianTime } from "./timing.mjs";

registerTsx();
const { makeOAuthApp, OWNER_TOKEN, ISSUER } = await import(new URL("../test/helpers/oauth-app.ts", import.meta.url).href);
const { authorize, pkce, register, tokenRequest } = await import(new URL("../test/helpers/oauth-client.ts", import.meta.url).href);

const RUNS = Number(process.env.CIB_BENCH_RUNS ?? 2000);
const MCP = `${ISSUER}/mcp`;
const app = await makeOAuthApp();

async function accessToken() {
  const client = await register(app.fetch, `${ISSUER}/oauth/register`);
  const { verifier, challenge } = pkce();
  const redirect = await authorize(app.fetch, {
    authorizationEndpoint: `${ISSUER}/oauth/authorize`,
    ...client,
    challenge,
    resource: MCP,
    ownerToken: OWNER_TOKEN,
  });
  const answer = await tokenRequest(app.fetch, `${ISSUER}/oauth/token`, {
    grant_type: "authorization_code",
    code: redirect.searchParams.get("code") ?? "",
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    code_verifier: verifier,
    resource: MCP,
  });
  if (answer.status !== 200) throw new Error(`no token: ${JSON.stringify(answer.json)}`);
  return answer.json.access_token;
}

/** A function that sends one `ping` on an MCP session opened with this bearer token. */
async function pinger(token) {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await app.fetch(MCP, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    }),
  });
  const session = init.headers.get("mcp-session-id");
  if (init.status !== 200 || session === null) throw new Error(`initialize failed: ${init.status} ${await init.text()}`);
  const sessionHeaders = { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
  await app.fetch(MCP, {
    method: "POST",
    headers: sessionHeaders,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  let id = 2;
  return async () => {
    const response = await app.fetch(MCP, {
      method: "POST",
      headers: sessionHeaders,
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method: "ping" }),
    });
    await response.text();
    if (response.status !== 200) throw new Error(`ping failed: ${response.status}`);
  };
}

try {
  const jwt = await accessToken();
  const opts = { runs: RUNS, warmup: Math.ceil(RUNS / 10) };
  const pingStatic = await pinger(OWNER_TOKEN);
  const pingJwt = await pinger(jwt);
  // Interleaved halves, so a change in the machine's load falls on both sides alike.
  const half = { runs: Math.ceil(RUNS / 2), warmup: opts.warmup };
  const requestStatic = [await medianTime(pingStatic, half)];
  const requestJwt = [await medianTime(pingJwt, half)];
  requestStatic.push(await medianTime(pingStatic, half));
  requestJwt.push(await medianTime(pingJwt, half));
  const guard = app.access.guard;
  const checkStatic = await medianTime(() => guard.check(`Bearer ${OWNER_TOKEN}`), opts);
  const checkJwt = await medianTime(async () => {
    const verdict = await guard.check(`Bearer ${jwt}`);
    if (!verdict.ok) throw new Error(verdict.message);
  }, opts);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const rs = mean(requestStatic);
  const rj = mean(requestJwt);
  console.log(`runs per case: ${RUNS} (median), one process, in-process app`);
  console.log(
    `MCP ping request   static token ${(rs * 1000).toFixed(0)} µs   OAuth JWT ${(rj * 1000).toFixed(0)} µs   ratio ${(rj / rs).toFixed(2)}x`,
  );
  console.log(
    `guard check alone  static token ${(checkStatic * 1000).toFixed(1)} µs   OAuth JWT ${(checkJwt * 1000).toFixed(0)} µs   JWT check = ${((checkJwt / rs) * 100).toFixed(0)}% of a static-token request`,
  );
} finally {
  await app.close();
}
