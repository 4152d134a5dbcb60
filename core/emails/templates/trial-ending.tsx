// The trial ends in 3 days: when, and what the first charge will be, so nobody is surprised by it.
import type { EmailFrame, TrialEndingParams } from "./email-content.ts";
import { Facts, factsText, P, type Fact, type TemplateBody } from "./email-layout.tsx";
import { day, methodCell, methodLabel, money } from "./wording.ts";

export function trialEndingEmail(p: TrialEndingParams, _frame: EmailFrame): TemplateBody {
  const amount = money(p.amountCents, p.currency);
  const ends = day(p.trialEndsAt);
  const intro = `Seu período de teste do plano ${p.planName} termina em ${ends}.`;
  const charge = p.method
    ? `Nessa data faremos a primeira cobrança, de ${amount}, ${p.method.kind === "pix" ? "por Pix" : `no ${methodLabel(p.method)}`}.`
    : `Nessa data a assinatura passa a custar ${amount}.`;
  const cancel = "Se não quiser continuar, cancele antes dessa data e nada será cobrado.";
  const facts: Fact[] = [
    ["Fim do teste", ends],
    ["Primeira cobrança", amount],
  ];
  if (p.method) facts.push(["Forma de pagamento", methodCell(p.method)]);
  return {
    audience: "customer",
    heading: "Seu período de teste termina em 3 dias",
    preheader: `Primeira cobrança de ${amount} em ${ends}.`,
    html: (
      <>
        <P>{intro}</P>
        <P>{charge}</P>
        <Facts rows={facts} />
        <P>{cancel}</P>
      </>
    ),
    text: [intro, charge, factsText(facts), cancel],
  };
}
