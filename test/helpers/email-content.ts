// Representative content for every e-mail template, shared by the template tests.
import type { EmailContent, EmailFrame, EmailTemplate } from "../../core/emails/templates/email-content.ts";

export const CUSTOMER_FRAME: EmailFrame = { senderName: "Acme Cursos", recipientName: "Maria Silva", sandbox: false };
export const VENDOR_FRAME: EmailFrame = { senderName: "Acme Cursos", recipientName: null, sandbox: false };

// A real-looking static BR Code (EMV payload): long, no spaces, what a bank app expects.
export const BR_CODE =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865406129.905802BR5913ACME CURSOS LT6009SAO PAULO62140510pay12345676304A1B2";

export const CONTENT: Record<EmailTemplate, EmailContent> = {
  receipt: {
    template: "receipt",
    params: {
      subject: "invoice",
      reference: "inv_01HZRECEIPT",
      productName: "Curso de Violão",
      planName: "Mensal",
      amountCents: 4491,
      currency: "BRL",
      method: { kind: "card", brand: "visa", last4: "4242" },
      paidAt: "2026-03-01T15:00:00.000Z",
      periodStart: "2026-03-01T15:00:00.000Z",
      periodEnd: "2026-04-01T15:00:00.000Z",
      nextChargeAt: "2026-04-01T15:00:00.000Z",
      nextChargeCents: 4990,
    },
  },
  pix_charge_issued: {
    template: "pix_charge_issued",
    params: {
      reference: "pay_01HZPIX",
      productName: "Curso de Violão",
      planName: "Anual",
      amountCents: 12990,
      currency: "BRL",
      expiresAt: "2026-03-04T15:30:00.000Z",
      brCode: BR_CODE,
      payUrl: "https://billing.example.com/pay/pay_01HZPIX?t=abc123",
    },
  },
  payment_declined: {
    template: "payment_declined",
    params: {
      reference: "inv_01HZDECLINED",
      planName: "Mensal",
      amountCents: 4990,
      currency: "BRL",
      method: { kind: "card", brand: "mastercard", last4: "5454" },
      nextRetryAt: "2026-03-04T15:00:00.000Z",
      suspendsAt: "2026-03-15T15:00:00.000Z",
      payUrl: "https://billing.example.com/pay/inv_01HZDECLINED?t=xyz",
    },
  },
  trial_ending: {
    template: "trial_ending",
    params: { planName: "Mensal", trialEndsAt: "2026-03-10T15:00:00.000Z", amountCents: 4990, currency: "BRL", method: { kind: "card", brand: "elo", last4: "1234" } },
  },
  subscription_suspended: {
    template: "subscription_suspended",
    params: { planName: "Mensal", amountCents: 4990, currency: "BRL", suspendedAt: "2026-03-15T15:00:00.000Z", payUrl: "https://billing.example.com/pay/inv_01HZSUSP?t=s1" },
  },
  subscription_canceled: {
    template: "subscription_canceled",
    params: { planName: "Mensal", canceledAt: "2026-03-05T15:00:00.000Z", accessEndsAt: "2026-04-01T15:00:00.000Z", reason: "Ficou caro para mim agora." },
  },
  refund_issued: {
    template: "refund_issued",
    params: {
      reference: "pay_01HZREFUND",
      productName: "Curso de Violão",
      amountCents: 2500,
      currency: "BRL",
      method: { kind: "pix" },
      refundedAt: "2026-03-06T15:00:00.000Z",
    },
  },
  webhook_endpoint_failing: {
    template: "webhook_endpoint_failing",
    params: {
      endpointUrl: "https://hooks.acme.example/billing/webhooks/receive-all-events-from-the-billing-service-please",
      reason: "exhausted",
      at: "2026-03-06T18:20:00.000Z",
      eventType: "invoice.paid",
    },
  },
  gateway_credentials_refused: {
    template: "gateway_credentials_refused",
    params: { provider: "pagarme", account: "Conta principal (gwa_01HZ)", at: "2026-03-06T18:20:00.000Z" },
  },
  team_invitation: {
    template: "team_invitation",
    params: {
      linkId: "tl_01HZINVITE",
      url: "https://cobrancas.example.com/panel/invite/3kQ9xV2mP7aL0cR5tY8wZ1bN4dF6gH9jK2lM5nO8pQ1",
      expiresAt: "2026-03-13T18:20:00.000Z",
      tenantName: "Acme Cursos",
      inviter: "joana@acme.example.com",
      role: "ADMIN",
    },
  },
  password_reset: {
    template: "password_reset",
    params: {
      linkId: "tl_01HZRESET",
      url: "https://cobrancas.example.com/panel/reset/7hT2wQ9eR4yU1iO6pA3sD8fG5hJ0kL2zX7cV4bN1mQ9",
      expiresAt: "2026-03-06T19:20:00.000Z",
      tenantName: "Acme Cursos",
    },
  },
};

export function frameFor(content: EmailContent): EmailFrame {
  return ["webhook_endpoint_failing", "gateway_credentials_refused", "team_invitation", "password_reset"].includes(content.template) ? VENDOR_FRAME : CUSTOMER_FRAME;
}
