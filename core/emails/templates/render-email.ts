// One e-mail's two parts from its content (snapshotted when queued) and its frame (who from, to whom).
// Async because the Pix QR code is drawn at send time.
import type { EmailContent, EmailFrame, RenderedEmail } from "./email-content.ts";
import { renderLayout, type TemplateBody } from "./email-layout.tsx";
import { gatewayCredentialsRefusedEmail } from "./gateway-credentials-refused.tsx";
import { passwordResetEmail } from "./password-reset.tsx";
import { paymentDeclinedEmail } from "./payment-declined.tsx";
import { pixChargeIssuedEmail } from "./pix-charge-issued.tsx";
import { receiptEmail } from "./receipt.tsx";
import { refundIssuedEmail } from "./refund-issued.tsx";
import { subscriptionCanceledEmail } from "./subscription-canceled.tsx";
import { subscriptionSuspendedEmail } from "./subscription-suspended.tsx";
import { emailSubject } from "./subjects.ts";
import { teamInvitationEmail } from "./team-invitation.tsx";
import { trialEndingEmail } from "./trial-ending.tsx";
import { webhookEndpointFailingEmail } from "./webhook-endpoint-failing.tsx";

async function templateBody(content: EmailContent, frame: EmailFrame): Promise<TemplateBody> {
  switch (content.template) {
    case "receipt":
      return receiptEmail(content.params, frame);
    case "pix_charge_issued":
      return pixChargeIssuedEmail(content.params, frame);
    case "payment_declined":
      return paymentDeclinedEmail(content.params, frame);
    case "trial_ending":
      return trialEndingEmail(content.params, frame);
    case "subscription_suspended":
      return subscriptionSuspendedEmail(content.params, frame);
    case "subscription_canceled":
      return subscriptionCanceledEmail(content.params, frame);
    case "refund_issued":
      return refundIssuedEmail(content.params, frame);
    case "webhook_endpoint_failing":
      return webhookEndpointFailingEmail(content.params, frame);
    case "gateway_credentials_refused":
      return gatewayCredentialsRefusedEmail(content.params, frame);
    case "team_invitation":
      return teamInvitationEmail(content.params, frame);
    case "password_reset":
      return passwordResetEmail(content.params, frame);
  }
}

export async function renderEmail(content: EmailContent, frame: EmailFrame): Promise<RenderedEmail> {
  const subject = emailSubject(content, frame);
  const body = await templateBody(content, frame);
  const { html, text } = renderLayout(subject, frame, body);
  return { subject, html, text, inline: body.inline ?? [] };
}
