// An outbox row's two parts, rendered from the params it snapshotted when queued: by the sender at
// send time, and by the list of what was sent for a row not sent yet. Rows queued before templates
// were data (no params) keep the body they were stored with.
import { openTeamLink, SEALED_LINK_PLACEHOLDER, type LinkVault } from "./team-email-link.ts";
import { isCustomerTemplate, isTeamTemplate, VENDOR_TEMPLATES, type EmailContent, type EmailFrame, type RenderedEmail } from "./templates/email-content.ts";
import { renderEmail } from "./templates/render-email.ts";

export interface OutboxRow {
  kind: string;
  params: unknown;
  fromName: string | null;
}

export interface OutboxFrame {
  /** The customer's name as it stands now (the greeting uses the first name). */
  customerName: string | null;
  sandbox: boolean;
  /** PUBLIC_URL: links queued as paths (/pay/...) are made absolute with it. */
  publicUrl: string;
  /**
   * Team e-mails: opens the sealed link for the recipient (the sender only). Absent: the link is
   * rendered as a placeholder (what is stored and listed).
   */
  linkVault?: LinkVault;
}

const isTemplate = (kind: string) => isCustomerTemplate(kind) || isTeamTemplate(kind) || (VENDOR_TEMPLATES as readonly string[]).includes(kind);

export async function renderOutboxEmail(row: OutboxRow, frame: OutboxFrame): Promise<RenderedEmail | null> {
  if (!row.params || typeof row.params !== "object" || !isTemplate(row.kind)) return null;
  const params = { ...(row.params as Record<string, unknown>) };
  // A /pay link minted inside the event's transaction knows its path only; the host is the service's.
  if (typeof params.payUrl === "string" && params.payUrl.startsWith("/")) params.payUrl = `${frame.publicUrl.replace(/\/+$/, "")}${params.payUrl}`;
  if (isTeamTemplate(row.kind)) {
    const sealed = params.url;
    params.url =
      frame.linkVault && typeof sealed === "string" && typeof params.linkId === "string" ? openTeamLink(frame.linkVault, params.linkId, sealed) : SEALED_LINK_PLACEHOLDER;
  }
  const emailFrame: EmailFrame = {
    senderName: row.fromName ?? "",
    recipientName: frame.customerName?.trim().split(/\s+/)[0] || null,
    sandbox: frame.sandbox,
  };
  return renderEmail({ template: row.kind, params } as unknown as EmailContent, emailFrame);
}
