// The subscription was canceled: when, until when access lasts, and the reason the customer gave.
import type { EmailFrame, SubscriptionCanceledParams } from "./email-content.ts";
import { Facts, factsText, P, Quote, type Fact, type TemplateBody } from "./email-layout.tsx";
import { day } from "./wording.ts";

export function subscriptionCanceledEmail(p: SubscriptionCanceledParams, _frame: EmailFrame): TemplateBody {
  const canceled = day(p.canceledAt);
  const ends = day(p.accessEndsAt);
  const intro = `Sua assinatura do plano ${p.planName} foi cancelada em ${canceled}. Nenhuma nova cobrança será feita.`;
  const access =
    Date.parse(p.accessEndsAt) > Date.parse(p.canceledAt) ? `Você continua com acesso até ${ends}.` : `O acesso terminou em ${ends}.`;
  const reason = p.reason?.trim() || null;
  const facts: Fact[] = [
    ["Cancelada em", canceled],
    ["Acesso até", ends],
  ];
  const back = "Se quiser voltar, é só assinar novamente quando preferir.";
  return {
    audience: "customer",
    heading: "Sua assinatura foi cancelada",
    preheader: access,
    html: (
      <>
        <P>{intro}</P>
        <P>{access}</P>
        <Facts rows={facts} />
        {reason && <P>Motivo informado:</P>}
        {reason && <Quote>{reason}</Quote>}
        <P>{back}</P>
      </>
    ),
    text: [intro, access, factsText(facts), ...(reason ? [`Motivo informado: ${reason}`] : []), back],
  };
}
