// The contract suite's sandbox: the built-in gateway (core/gateways/sandbox-adapter.ts) and its ledger,
// the test cards typed on our own page, simulatePixPayment and simulateChargeback for what the payer's bank
// and the card network do. It sends no notices of its own; an outage is its adapter failing once for the
// tenant, as a remote call would.
import { GatewayUnavailable, type GatewayAdapter } from "../../../../core/gateways/adapter.ts";
import { CARDS } from "../../../helpers/billing.ts";
import { gql } from "../../../helpers/http.ts";
import { testService } from "../../../helpers/service.ts";
import { newTenant } from "../../../helpers/tenant.ts";
import { postCheckout, type Notice, type ProviderDriver } from "../driver.ts";

const NUMBER = { card: CARDS.ok, card_declining_later: CARDS.laterDeclines, declined_card: CARDS.declined } as const;
const ledger = async () => (await testService()).runtime.db.prisma.sandboxCharge;

/** A sandbox mutation as the operator runs it; the first delivery must apply, a later one may be refused (nothing more happens). */
function mutation(query: string, variables: Record<string, unknown>): Notice {
  let delivered = false;
  return {
    deliver: async () => {
      const r = await gql(query, variables);
      if (r.errors && (!delivered || r.errors[0]?.extensions?.code !== "conflict")) throw new Error(JSON.stringify(r.errors));
      delivered = true;
      return null;
    },
  };
}

export const sandbox: ProviderDriver = {
  name: "sandbox",
  provider: "sandbox",
  sendsNotices: false,
  start: async () => void (await testService()),
  stop: async () => undefined,
  async offer() {
    const t = await newTenant();
    return { t, accountId: "sandbox", offerId: t.monthlyOfferId };
  },
  checkout(o, pay) {
    if (pay === "pix") return postCheckout(o.offerId, { method: "pix" });
    return postCheckout(o.offerId, { method: "card", card_holder: "MARIA SILVA", card_number: NUMBER[pay], card_exp_month: "12", card_exp_year: "2035", card_cvc: "123" });
  },
  card: { brand: "visa", last4: "4242" },
  declineCode: "insufficient_funds",
  // The bank pays at the sandbox's ledger; simulatePixPayment then settles it as a notice would.
  async payPix(_o, copyPaste) {
    await (await testService()).runtime.gateways.sandbox.payPix(copyPaste, new Date());
    return mutation(`mutation($c: String!) { simulatePixPayment(copyPaste: $c) { id } }`, { c: copyPaste });
  },
  async dispute(_o, payment) {
    return mutation(`mutation($p: ID!) { simulateChargeback(paymentId: $p) { id } }`, { p: payment.id });
  },
  chargeNotice: () => null,
  async failNextCharge(o, kind) {
    const adapter: GatewayAdapter = (await testService()).runtime.gateways.adapter("sandbox");
    const original = adapter.chargeToken;
    adapter.chargeToken = async function (account, req, now) {
      if (account.tenantId !== o.t.tenantId) return original.call(this, account, req, now);
      adapter.chargeToken = original;
      if (kind === "500") throw new GatewayUnavailable("gateway_error", 500);
      await original.call(this, account, req, now); // the charge lands; its answer is lost
      throw kind === "hang" ? new GatewayUnavailable("timeout", 504) : new GatewayUnavailable("gateway_error", 500);
    };
  },
  withShortTimeout: (fn) => fn(),
  async side(key) {
    const rows = await (await ledger()).findMany({ where: { idempotencyKey: key } });
    const refunded = rows.reduce((n, r) => n + r.refundedCents, 0);
    return { made: rows.length, charged: rows.filter((r) => r.status === "approved" || r.status === "paid").length, refunded };
  },
  async refundsOf(chargeId) {
    const rows = await (await ledger()).findMany({ where: { kind: "refund", reference: chargeId, status: "refunded" }, orderBy: { id: "asc" } });
    return rows.map((r) => ({ amount: r.amountCents, key: r.idempotencyKey }));
  },
};
