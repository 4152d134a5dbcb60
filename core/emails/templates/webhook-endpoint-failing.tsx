// To the vendor's team: an endpoint ran out of retries for a delivery, or was turned off.
import type { EmailFrame, WebhookEndpointFailingParams } from "./email-content.ts";
import { Code, Facts, factsText, P, type Fact, type TemplateBody } from "./email-layout.tsx";
import { dateTime } from "./wording.ts";

export function webhookEndpointFailingEmail(p: WebhookEndpointFailingParams, _frame: EmailFrame): TemplateBody {
  const at = dateTime(p.at);
  const intro =
    p.reason === "disabled"
      ? `O endpoint de webhook abaixo foi desativado em ${at} e deixou de receber eventos.`
      : p.eventType
        ? `A entrega do evento ${p.eventType} para o endpoint de webhook abaixo esgotou as tentativas em ${at}.`
        : `Uma entrega para o endpoint de webhook abaixo esgotou as tentativas em ${at}.`;
  const action =
    p.reason === "disabled"
      ? "Confira se o endpoint está no ar e responde com status 2xx, e reative-o para voltar a receber eventos."
      : "Confira se o endpoint está no ar e responde com status 2xx em poucos segundos; os eventos que não chegaram podem ser reenviados depois.";
  const facts: Fact[] = [
    ["Situação", p.reason === "disabled" ? "Endpoint desativado" : "Tentativas esgotadas"],
    ["Quando", at],
  ];
  if (p.eventType) facts.push(["Evento", p.eventType]);
  return {
    audience: "vendor",
    heading: p.reason === "disabled" ? "Endpoint de webhook desativado" : "Entregas de webhook falhando",
    preheader: intro,
    html: (
      <>
        <P>{intro}</P>
        <Code label="Endpoint">{p.endpointUrl}</Code>
        <Facts rows={facts} />
        <P>{action}</P>
      </>
    ),
    text: [intro, `Endpoint: ${p.endpointUrl}`, factsText(facts), action],
  };
}
