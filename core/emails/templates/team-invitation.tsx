// To someone invited to a tenant's team: the single-use link that creates their panel account.
import type { EmailFrame, TeamInvitationParams } from "./email-content.ts";
import { Button, Facts, factsText, P, type Fact, type TemplateBody } from "./email-layout.tsx";
import { dateTime, roleName } from "./wording.ts";

export function teamInvitationEmail(p: TeamInvitationParams, _frame: EmailFrame): TemplateBody {
  const who = p.inviter ? `${p.inviter} convidou você` : "Você foi convidado";
  const intro = `${who} para a equipe de ${p.tenantName} no painel de cobranças, com o papel de ${roleName(p.role)}.`;
  const action = "Para aceitar, abra o link abaixo e escolha sua senha. O link vale uma única vez.";
  const ignore = "Se você não esperava este convite, ignore este e-mail: nenhuma conta é criada sem o link.";
  const facts: Fact[] = [
    ["Equipe", p.tenantName],
    ["Papel", roleName(p.role)],
    ...(p.inviter ? [["Convidado por", p.inviter] as const] : []),
    ["Válido até", dateTime(p.expiresAt)],
  ];
  return {
    audience: "vendor",
    heading: "Convite para a equipe",
    preheader: intro,
    html: (
      <>
        <P>{intro}</P>
        <Facts rows={facts} />
        <P>{action}</P>
        <Button href={p.url}>Aceitar o convite</Button>
        <P muted>{ignore}</P>
      </>
    ),
    text: [intro, factsText(facts), action, `Aceitar o convite: ${p.url}`, ignore],
  };
}
