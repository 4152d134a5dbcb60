// A /pay link is spent once: the links transition table (prisma/status-machines.ts) and its database
// trigger refuse every move out of a spent status, whatever writes it, and /pay keeps answering 410.
import { describe, expect, it } from "vitest";
import { isAppError } from "../../core/shared/errors.ts";
import { sha256Hex } from "../../core/shared/secrets.ts";
import { moveStatus } from "../../core/shared/transition.ts";
import { LINK } from "../../prisma/status-machines.ts";
import { CARDS, subscribe } from "../helpers/billing.ts";
import { post } from "../helpers/http.ts";
import { testService } from "../helpers/service.ts";
import { newTenant } from "../helpers/tenant.ts";
import { CARD, payJson, tokenOf } from "./pay-helpers.ts";

const prisma = async () => (await testService()).runtime.db.prisma;
const linkOf = async (token: string) => (await prisma()).link.findUniqueOrThrow({ where: { tokenHash: sha256Hex(token) } });

/** Every way to rewrite a link's status behind the helper's back; each answer is "accepted" or the error. */
async function rewrites(id: string, to: string): Promise<string[]> {
  const db = await prisma();
  const answer = (p: Promise<unknown>) => p.then(() => "accepted", (e: Error) => e.message + JSON.stringify((e as { meta?: unknown }).meta ?? ""));
  return [
    await answer(db.$executeRawUnsafe(`UPDATE links SET status = $1::"LinkStatus", used_at = NULL WHERE id = $2`, to, id)),
    await answer(db.link.update({ where: { id }, data: { status: to as never } })),
  ];
}

describe("link status transitions", () => {
  it("a used payment-method link never reopens: the database refuses it, the helper calls it a conflict, /pay stays 410", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const token = tokenOf((await post(`/v1/subscriptions/${id}/payment-method-link`, t.writeKey)).body.url);
    expect((await linkOf(token)).status).toBe("OPEN");
    expect((await payJson(token, CARD("5555555555554444"))).status).toBe(200);
    const link = await linkOf(token);
    expect(link.status).toBe("USED");

    for (const to of ["OPEN", "ACTIVE", "PAID", "CANCELED", "EXPIRED", "USED"]) {
      for (const answer of await rewrites(link.id, to)) expect(answer, `USED -> ${to}`).toMatch(/links_status_transition/);
    }
    await expect(moveStatus(await prisma(), LINK, { id: link.id, tenantId: t.tenantId, to: "PAID" })).rejects.toSatisfy((e) => isAppError(e) && e.status === 409);
    expect((await linkOf(token)).status).toBe("USED");
    const again = await payJson(token, CARD(CARDS.ok));
    expect(again.status).toBe(410);
    expect(again.body.code).toBe("link_used");
  });

  it("a renewal link is born active and, once paid, never becomes payable again", async () => {
    const t = await newTenant();
    const { subscription_id: id } = await subscribe(t.monthlyOfferId);
    const created = await post(`/v1/subscriptions/${id}/renewal-link`, t.writeKey, { price_cents: 3000 });
    expect(created.body.status).toBe("active");
    const token = tokenOf(created.body.url);
    expect((await linkOf(token)).status).toBe("ACTIVE");
    expect((await payJson(token, { method: "card", ...CARD(CARDS.ok) })).body.status).toBe("paid");
    const link = await linkOf(token);
    expect(link.status).toBe("PAID");

    for (const to of ["ACTIVE", "OPEN", "USED"]) {
      for (const answer of await rewrites(link.id, to)) expect(answer, `PAID -> ${to}`).toMatch(/links_status_transition/);
    }
    expect((await payJson(token, { method: "card", ...CARD(CARDS.ok) })).status).toBe(410);
  });
});
