// A browser-like client of the panel over HTTP: a cookie jar, form posts with the page's CSRF token,
// redirects seen (not followed). Plus the operator's invitation and a member made through it.
import { generateSync } from "otplib";
import { op } from "./http.ts";
import { testService } from "./service.ts";

export interface PanelAnswer {
  status: number;
  location: string | null;
  html: string;
  setCookies: string[];
}

export class PanelBrowser {
  readonly jar = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string> = {},
  ) {}

  static async open(headers: Record<string, string> = {}): Promise<PanelBrowser> {
    return new PanelBrowser((await testService()).baseUrl, headers);
  }

  private cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** `form` as pairs when a field repeats (checkboxes). */
  async request(method: "GET" | "POST", path: string, form?: Record<string, string> | [string, string][]): Promise<PanelAnswer> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: "manual",
      headers: {
        ...this.headers,
        ...(this.jar.size ? { cookie: this.cookieHeader() } : {}),
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const setCookies = res.headers.getSetCookie();
    for (const c of setCookies) {
      const [pair = "", ...attrs] = c.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === "";
      if (expired) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return { status: res.status, location: res.headers.get("location"), html: await res.text(), setCookies };
  }

  get(path: string): Promise<PanelAnswer> {
    return this.request("GET", path);
  }

  /** GET `formPage`, then POST `form` to `action` with the CSRF token that page carried. */
  async submit(formPage: string, action: string, form: Record<string, string>): Promise<PanelAnswer> {
    const page = await this.get(formPage);
    return this.request("POST", action, { csrf: csrfOf(page.html), ...form });
  }
}

export function csrfOf(html: string): string {
  const m = /name="csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no CSRF token on the page: ${html.slice(0, 300)}`);
  return m[1]!;
}

export async function invite(tenantId: string, email: string, role = "DEVELOPER"): Promise<string> {
  const { inviteTenantUser } = await op(`mutation($t: ID!, $e: String!, $r: TenantUserRole!) { inviteTenantUser(tenantId: $t, email: $e, role: $r) { url } }`, {
    t: tenantId,
    e: email,
    r: role,
  });
  return new URL(inviteTenantUser.url as string).pathname;
}

export const PASSWORD = "cavalo-correto-bateria-grampo-42";

export const uniqueEmail = (tag = "m") => `${tag}-${Math.random().toString(36).slice(2, 10)}@example.com`;

/** A member who accepted an invitation; not signed in. */
export async function newMember(tenantId: string, role = "DEVELOPER", email = uniqueEmail()): Promise<{ email: string; password: string }> {
  const path = await invite(tenantId, email, role);
  const b = await PanelBrowser.open();
  const done = await b.submit(path, path, { password: PASSWORD });
  if (done.status !== 200) throw new Error(`accepting the invitation answered ${done.status}: ${done.html.slice(0, 300)}`);
  return { email, password: PASSWORD };
}

/** Signs in with e-mail and password (and a TOTP code from `totpSecret` when asked). */
export async function signIn(email: string, password: string, totpSecret?: string, headers: Record<string, string> = {}): Promise<PanelBrowser> {
  const b = await PanelBrowser.open(headers);
  let answer = await b.submit("/panel/login", "/panel/login", { email, password });
  if (answer.status === 303 && answer.location === "/panel/login" && totpSecret) {
    answer = await b.submit("/panel/login", "/panel/login", { code: generateSync({ secret: totpSecret }) });
  }
  if (answer.status !== 303 || answer.location !== "/panel/") throw new Error(`sign-in answered ${answer.status} ${answer.location}: ${answer.html.slice(0, 300)}`);
  return b;
}

/** The secret shown on the security page (after "turn on"). */
export function secretOf(html: string): string {
  const m = /Chave: <code>([A-Z2-7]+)<\/code>/.exec(html);
  if (!m) throw new Error("no TOTP secret on the page");
  return m[1]!;
}

export const totpNow = (secret: string, at = Date.now()) => generateSync({ secret, epoch: Math.floor(at / 1000) });
