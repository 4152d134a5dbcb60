// The cancellation e-mail (pt-BR), as pure text: what the customer reads when a subscription ends.
// Rendering is apart from recording so the words can be tested without a database.

export interface CancellationEmailInput {
  customerName: string;
  tenantName: string;
  planName: string;
  canceledAt: Date;
  /** The reason given on POST .../cancel (at most 300 characters), or null. */
  reason: string | null;
}

export interface RenderedEmail {
  subject: string;
  body: string;
}

/** dd/mm/aaaa in UTC: the business clock is UTC throughout. */
function brDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

export function renderCancellationEmail(input: CancellationEmailInput): RenderedEmail {
  const firstName = input.customerName.trim().split(/\s+/)[0] || "cliente";
  const lines = [
    `Olá, ${firstName}.`,
    "",
    `Sua assinatura do plano ${input.planName} (${input.tenantName}) foi cancelada em ${brDate(input.canceledAt)}.`,
    "Nenhuma nova cobrança será feita.",
  ];
  if (input.reason && input.reason.trim()) lines.push("", `Motivo informado: ${input.reason.trim()}`);
  lines.push("", "Se quiser voltar, é só assinar novamente quando preferir.", "", `Equipe ${input.tenantName}`);
  return { subject: `Sua assinatura do plano ${input.planName} foi cancelada`, body: lines.join("\n") };
}
