// Who may see the dashboard: its owner, who holds the bridge token. `claude-ide-bridge dashboard`
// trades the token (POST /dashboard/login-link) for a one-time code valid 2 minutes; opening
// /dashboard/login?code=… once sets an HttpOnly SameSite=Strict cookie and redirects to /dashboard,
// so the code never stays in the address bar and the token never reaches the browser. Codes and
// cookies live in this object (one per app), in memory: a bridge restart signs everyone out.
const CODE_TTL_MS = 2 * 60_000;
const COOKIE_TTL_MS = 12 * 60 * 60_000;
const MAX_CODES = 20;
const MAX_COOKIES = 50;
export const COOKIE_NAME = "cib_dashboard";

function randomHex(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export class DashboardAuth {
  private readonly codes = new Map<string, number>();
  private readonly cookies = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new one-time code (the oldest unused ones go past 20). */
  issueCode(): string {
    this.sweep();
    const code = randomHex();
    this.codes.set(code, this.now() + CODE_TTL_MS);
    while (this.codes.size > MAX_CODES) this.codes.delete(this.codes.keys().next().value ?? "");
    return code;
  }

  /** Uses `code` up: a cookie value when it was valid and unused, else undefined. */
  redeem(code: string | undefined): string | undefined {
    if (code === undefined) return undefined;
    const expires = this.codes.get(code);
    this.codes.delete(code);
    if (expires === undefined || expires < this.now()) return undefined;
    const cookie = randomHex();
    this.cookies.set(cookie, this.now() + COOKIE_TTL_MS);
    while (this.cookies.size > MAX_COOKIES) this.cookies.delete(this.cookies.keys().next().value ?? "");
    return cookie;
  }

  allows(cookie: string | undefined): boolean {
    if (cookie === undefined) return false;
    const expires = this.cookies.get(cookie);
    return expires !== undefined && expires >= this.now();
  }

  setCookieHeader(cookie: string, opts: { secure: boolean }): string {
    return `${COOKIE_NAME}=${cookie}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${COOKIE_TTL_MS / 1000}${opts.secure ? "; Secure" : ""}`;
  }

  private sweep(): void {
    const now = this.now();
    for (const [code, expires] of this.codes) if (expires < now) this.codes.delete(code);
    for (const [cookie, expires] of this.cookies) if (expires < now) this.cookies.delete(cookie);
  }
}
