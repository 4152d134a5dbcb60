// To the vendor's team: the payment provider refused the account's credentials, so charges through it fail.
import type { EmailFrame, GatewayCredentialsRefusedParams } from "./email-content.ts";
import { Facts, factsText, P, type Fact, type TemplateBody } from "./email-layout.tsx";
import { dateTime, providerName } from "./wording.ts";

export function gatewayCredentialsRefusedEmail(p: GatewayCredentialsRefusedParams, _frame: EmailFrame): TemplateBody {
  const provider = providerName(p.provider);
  const at = dateTime(p.at);
  const intro = `O ${provider} recusou as credenciais da conta ${p.account} em ${at}.`;
  const impact = "Enquanto as credenciais não forem atualizadas, as cobranças por essa conta vão falhar.";
  const action = `Gere novas credenciais no painel do ${provider} e atualize a conta de gateway.`;
  const facts: Fact[] = [
    ["Gateway", provider],
    ["Conta", p.account],
    ["Quando", at],
  ];
  return {
    audience: "vendor",
    heading: "Credenciais do gateway recusadas",
    preheader: intro,
    html: (
      <>
        <P>{intro}</P>
        <P>{impact}</P>
        <Facts rows={facts} />
        <P>{action}</P>
      </>
    ),
    text: [intro, impact, factsText(facts), action],
  };
}
