// Posts a provider's notice to /gateways/<id>/webhooks from a loopback address of its own (Linux routes all
// of 127.0.0.0/8 to lo). Refused notices are budgeted per client address, and the suite shares one
// service: tests that forge notices on purpose would otherwise spend the budget of every later genuine
// notice sent in the same minute. Tests of the budget itself pick their addresses (test/security/hosted-client.ts).
import { randomInt } from "node:crypto";
import { sendFrom } from "../security/hosted-client.ts";

export async function postNotice(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: any }> {
  const u = new URL(url);
  const address = `127.${randomInt(100, 200)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  const res = await sendFrom(address, u.origin, `${u.pathname}${u.search}`, body, headers);
  let parsed: unknown = null;
  try {
    parsed = res.json();
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed };
}
