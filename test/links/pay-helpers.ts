// /pay helpers for the link tests: the page (GET) and the form (POST, JSON or HTML).
import { testService } from "../helpers/service.ts";

export const CARD = (number: string) => ({ card_holder: "MARIA SILVA", card_number: number, card_exp_month: "12", card_exp_year: "2035", card_cvc: "123" });

export function tokenOf(url: string): string {
  return new URL(url).pathname.split("/").pop()!;
}

export async function payPage(token: string) {
  const { baseUrl } = await testService();
  const res = await fetch(`${baseUrl}/pay/${token}`);
  return { status: res.status, text: await res.text() };
}

export async function payJson(token: string, body: Record<string, string>) {
  const { baseUrl } = await testService();
  const res = await fetch(`${baseUrl}/pay/${token}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

export const DAY = 86_400_000;
export const plusDays = (iso: string, days: number) => new Date(new Date(iso).getTime() + days * DAY).toISOString();
