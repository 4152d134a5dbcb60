// A refund was issued: how much, for what, to which method, and how long it takes to show up.
import type { EmailFrame, RefundIssuedParams } from "./email-content.ts";
import { Facts, factsText, P, type Fact, type TemplateBody } from "./email-layout.tsx";
import { dateTime, methodCell, money } from "./wording.ts";

export function refundIssuedEmail(p: RefundIssuedParams, _frame: EmailFrame): TemplateBody {
  const amount = money(p.amountCents, p.currency);
  const intro = `Emitimos um reembolso de ${amount} referente a ${p.productName}.`;
  // How the money comes back depends on the method, not on us.
  const when = !p.method
    ? "O valor volta pela mesma forma usada no pagamento."
    : p.method.kind === "pix"
      ? "O valor volta para a conta que fez o Pix."
      : "O estorno aparece na fatura do cartão; dependendo do emissor, pode levar até duas faturas.";
  const facts: Fact[] = [["Valor reembolsado", amount]];
  if (p.method) facts.push(["Devolvido para", methodCell(p.method)]);
  facts.push(["Emitido em", dateTime(p.refundedAt)], ["Referência", p.reference]);
  return {
    audience: "customer",
    heading: "Reembolso emitido",
    preheader: `${amount} reembolsados.`,
    html: (
      <>
        <P>{intro}</P>
        <Facts rows={facts} />
        <P>{when}</P>
      </>
    ),
    text: [intro, factsText(facts), when],
  };
}
