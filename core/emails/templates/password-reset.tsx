// To a panel account's own address: the single-use link that sets a new password.
import type { EmailFrame, PasswordResetParams } from "./email-content.ts";
import { Button, Facts, factsText, P, type Fact, type TemplateBody } from "./email-layout.tsx";
import { dateTime } from "./wording.ts";

export function passwordResetEmail(p: PasswordResetParams, _frame: EmailFrame): TemplateBody {
  const intro = `Recebemos um pedido para redefinir a senha da sua conta na equipe de ${p.tenantName} no painel de cobranças.`;
  const action = "Para escolher uma nova senha, abra o link abaixo. Ele vale uma única vez, e todas as sessões abertas da conta serão encerradas.";
  const ignore = "Se não foi você, ignore este e-mail: sua senha continua a mesma.";
  const facts: Fact[] = [
    ["Equipe", p.tenantName],
    ["Válido até", dateTime(p.expiresAt)],
  ];
  return {
    audience: "vendor",
    heading: "Redefinição de senha",
    preheader: intro,
    html: (
      <>
        <P>{intro}</P>
        <Facts rows={facts} />
        <P>{action}</P>
        <Button href={p.url}>Escolher nova senha</Button>
        <P muted>{ignore}</P>
      </>
    ),
    text: [intro, factsText(facts), action, `Escolher nova senha: ${p.url}`, ignore],
  };
}
