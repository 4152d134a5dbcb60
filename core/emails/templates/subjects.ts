// Subject lines, pt-BR. Computed when the message is queued (cheap, no HTML), so the list of what
// was sent shows them before the sender renders the body.
import type { EmailContent, EmailFrame } from "./email-content.ts";
import { money, providerName } from "./wording.ts";

export function emailSubject(content: EmailContent, frame: Pick<EmailFrame, "senderName" | "sandbox">): string {
  const subject = oneLine(baseSubject(content, oneLine(frame.senderName)));
  return frame.sandbox ? `[TESTE] ${subject}` : subject;
}

// A subject is a header: a name or plan with CR/LF or other control characters must not start a new one.
function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/\s{2,}/g, " ").trim();
}

function baseSubject(content: EmailContent, seller: string): string {
  switch (content.template) {
    case "receipt":
      return `Recibo de ${seller}: pagamento de ${money(content.params.amountCents, content.params.currency)} confirmado`;
    case "pix_charge_issued":
      return `Seu Pix de ${money(content.params.amountCents, content.params.currency)} para ${seller}: código e QR code`;
    case "payment_declined":
      return `Não conseguimos cobrar ${money(content.params.amountCents, content.params.currency)}: atualize seu pagamento (${seller})`;
    case "trial_ending":
      return `Seu período de teste do plano ${content.params.planName} termina em 3 dias (${seller})`;
    case "subscription_suspended":
      return `Sua assinatura do plano ${content.params.planName} foi suspensa (${seller})`;
    case "subscription_canceled":
      return `Sua assinatura do plano ${content.params.planName} foi cancelada (${seller})`;
    case "refund_issued":
      return `Reembolso de ${money(content.params.amountCents, content.params.currency)} emitido: ${content.params.productName} (${seller})`;
    case "webhook_endpoint_failing":
      return content.params.reason === "disabled"
        ? `Endpoint de webhook desativado: ${content.params.endpointUrl}`
        : `Entregas de webhook esgotadas: ${content.params.endpointUrl}`;
    case "gateway_credentials_refused":
      return `O ${providerName(content.params.provider)} recusou as credenciais da conta ${content.params.account}`;
    case "team_invitation":
      return `Convite para a equipe de ${content.params.tenantName} no painel de cobranças`;
    case "password_reset":
      return `Redefinição de senha do painel de cobranças (${content.params.tenantName})`;
  }
}
