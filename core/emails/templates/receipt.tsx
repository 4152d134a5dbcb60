// Receipt: an invoice or order was paid. What was charged, with what, for which period, and what comes next.
import type { EmailFrame, ReceiptParams } from "./email-content.ts";
import { Facts, factsText, P, type Fact, type TemplateBody } from "./email-layout.tsx";
import { day, dateTime, methodCell, methodLabel, money, productLine } from "./wording.ts";

export function receiptEmail(p: ReceiptParams, frame: EmailFrame): TemplateBody {
  const amount = money(p.amountCents, p.currency);
  const intro =
    p.subject === "invoice"
      ? `Recebemos o pagamento de ${amount} da sua assinatura de ${productLine(p.productName, p.planName)}. Obrigado!`
      : `Recebemos o pagamento de ${amount} da sua compra de ${productLine(p.productName, p.planName)}. Obrigado!`;
  const facts: Fact[] = [
    ["Valor cobrado", amount],
    ["Forma de pagamento", methodCell(p.method)],
    ["Pago em", dateTime(p.paidAt)],
  ];
  if (p.periodStart && p.periodEnd) facts.push(["Período", `${day(p.periodStart)} a ${day(p.periodEnd)}`]);
  if (p.nextChargeAt) {
    const next = p.nextChargeCents !== null ? `${money(p.nextChargeCents, p.currency)} em ${day(p.nextChargeAt)}` : day(p.nextChargeAt);
    facts.push(["Próxima cobrança", next]);
  }
  facts.push(["Referência", p.reference]);
  const keep = `Guarde este e-mail como comprovante. ${frame.senderName} não pede dados do cartão por e-mail.`;
  return {
    audience: "customer",
    heading: "Pagamento confirmado",
    preheader: `${amount} pagos com ${methodLabel(p.method)}.`,
    html: (
      <>
        <P>{intro}</P>
        <Facts rows={facts} />
        <P muted>{keep}</P>
      </>
    ),
    text: [intro, factsText(facts), keep],
  };
}
