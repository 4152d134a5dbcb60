// A charge was refused (each dunning step): how much, what happens next and when, and the /pay link.
import type { EmailFrame, PaymentDeclinedParams } from "./email-content.ts";
import { Button, Facts, factsText, P, type Fact, type TemplateBody } from "./email-layout.tsx";
import { day, methodLabel, money } from "./wording.ts";

export function paymentDeclinedEmail(p: PaymentDeclinedParams, _frame: EmailFrame): TemplateBody {
  const amount = money(p.amountCents, p.currency);
  const intro = p.method
    ? `Não conseguimos cobrar ${amount} no ${methodLabel(p.method)} pela sua assinatura do plano ${p.planName}.`
    : `Não conseguimos cobrar ${amount} pela sua assinatura do plano ${p.planName}.`;
  const next: string[] = [];
  if (p.nextRetryAt) next.push(`Vamos tentar de novo em ${day(p.nextRetryAt)}.`);
  if (p.suspendsAt) next.push(`Se o pagamento não for feito até ${day(p.suspendsAt)}, a assinatura será suspensa.`);
  const action = "Para não perder o acesso, pague agora ou troque o cartão pelo link abaixo.";
  const facts: Fact[] = [["Valor em aberto", amount]];
  if (p.nextRetryAt) facts.push(["Nova tentativa", day(p.nextRetryAt)]);
  if (p.suspendsAt) facts.push(["Suspensão", day(p.suspendsAt)]);
  facts.push(["Referência", p.reference]);
  return {
    audience: "customer",
    heading: "Não conseguimos processar seu pagamento",
    preheader: `${amount} em aberto no plano ${p.planName}.`,
    html: (
      <>
        <P>{intro}</P>
        {next.length > 0 && <P>{next.join(" ")}</P>}
        <Facts rows={facts} />
        <P>{action}</P>
        <Button href={p.payUrl}>Pagar ou trocar o cartão</Button>
      </>
    ),
    text: [intro, ...(next.length ? [next.join(" ")] : []), factsText(facts), action, `Pagar ou trocar o cartão: ${p.payUrl}`],
  };
}
