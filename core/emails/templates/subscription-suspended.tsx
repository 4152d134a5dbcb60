// Dunning ran out: the subscription is suspended until the open amount is paid on /pay.
import type { EmailFrame, SubscriptionSuspendedParams } from "./email-content.ts";
import { Button, Facts, factsText, P, type Fact, type TemplateBody } from "./email-layout.tsx";
import { day, money } from "./wording.ts";

export function subscriptionSuspendedEmail(p: SubscriptionSuspendedParams, _frame: EmailFrame): TemplateBody {
  const amount = money(p.amountCents, p.currency);
  const intro = `Sua assinatura do plano ${p.planName} foi suspensa em ${day(p.suspendedAt)} porque o pagamento de ${amount} não foi confirmado.`;
  const action = "Para reativar o acesso, pague o valor em aberto pelo link abaixo.";
  const facts: Fact[] = [
    ["Valor em aberto", amount],
    ["Suspensa em", day(p.suspendedAt)],
  ];
  return {
    audience: "customer",
    heading: "Sua assinatura foi suspensa",
    preheader: `Pague ${amount} para reativar o plano ${p.planName}.`,
    html: (
      <>
        <P>{intro}</P>
        <Facts rows={facts} />
        <P>{action}</P>
        <Button href={p.payUrl}>Pagar e reativar</Button>
      </>
    ),
    text: [intro, factsText(facts), action, `Pagar e reativar: ${p.payUrl}`],
  };
}
