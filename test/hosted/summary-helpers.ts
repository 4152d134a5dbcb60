// The order summary as a shopper reads it, and what the sandbox charged: for the tests that compare them.
import { gatewayEvents } from "../helpers/billing.ts";
import type { TestTenant } from "../helpers/tenant.ts";

/** The summary's rows as the shopper reads them: term -> text. */
export function summaryRows(html: string): Record<string, string> {
  const rows: Record<string, string> = {};
  for (const m of html.matchAll(/<div class="sum-row"><dt>(.*?)<\/dt><dd>(.*?)<\/dd><\/div>/g)) rows[m[1]!] = m[2]!.replace(/<!-- -->/g, "");
  return rows;
}

/** "R$ 44,91 em 10 de abril de 2027" -> cents and the date text. */
export function nextCharge(text: string): { cents: number; day: string } {
  const m = /^R\$\u00a0([\d.]+),(\d{2}) em (.+)$/.exec(text);
  if (!m) throw new Error(`unexpected next charge: ${text}`);
  return { cents: Number(m[1]!.replace(/\./g, "") + m[2]), day: m[3]! };
}

export function money(text: string): number {
  const m = /^R\$\u00a0([\d.]+),(\d{2})$/.exec(text);
  if (!m) throw new Error(`unexpected amount: ${text}`);
  return Number(m[1]!.replace(/\./g, "") + m[2]);
}

export async function approvedCharges(t: TestTenant, subscriptionId: string): Promise<number[]> {
  return (await gatewayEvents(t, subscriptionId)).filter((e) => e.kind === "charge_card" && e.outcome === "approved").map((e) => e.amount_cents);
}

/** Our own script on a checkout with a coupon field ("Aplicar" without a reload): the only script tag of a sandbox checkout. */
export const COUPON_SCRIPT = '<script src="/checkout/coupon.js" defer></script>';
