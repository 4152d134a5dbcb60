// Subject lines, pt-BR. Computed when the message is queued (cheap, no HTML), so the list of what
// was sent shows them before the sender renders the body.
import { formatMoney } from "../../shared/format-money.ts";
import type { EmailContent, EmailFrame } from "./email-content.ts";

export function emailSubject(content: EmailContent, frame: Pick<EmailFrame, "senderName" | "sandbox">): string {
  const subject = baseSubject(content, frame.senderName);
  return frame.sandbox ? `[TESTE] ${subject}` : subject;
}

function baseSubject(content: EmailContent, seller: string): string {
  switch (content.template) {
    case "receipt":
      return `Recibo: pagamento de ${formatMoney(content.params.amountCents, content.params.currency)} confirmado (${seller})`;
    case "pix_charge_issued":
      return `Seu Pix de ${formatMoney(content.params.amountCents, content.params.currency)} para ${seller}`;
    case "payment_declined":
      return `Não conseguimos cobrar ${formatMoney(content.params.amountCents, content.params.currency)}: atualize seu pagamento (${seller})`;
    case "trial_ending":
      return `Seu período de teste do plano ${content.params.planName} termina em 3 dias`;
    case "subscription_suspended":
      return `Sua assinatura do plano ${content.params.planName} foi suspensa`;
    case "subscription_canceled":
      return `Sua assinatura do plano ${content.params.planName} foi cancelada`;
    case "refund_issued":
      return `Reembolso de ${formatMoney(content.params.amountCents, content.params.currency)} emitido (${seller})`;
    case "webhook_endpoint_failing":
      return content.params.reason === "disabled"
        ? `Endpoint de webhook desativado: ${content.params.endpointUrl}`
        : `Entregas de webhook esgotadas: ${content.params.endpointUrl}`;
    case "gateway_credentials_refused":
      return `O gateway ${content.params.provider} recusou as credenciais da conta ${content.params.account}`;
  }
}
