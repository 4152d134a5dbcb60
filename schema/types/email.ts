// What was sent: a tenant's e-mails from the outbox, typed, as a keyset connection. The recipient is the
// customer's e-mail address, which the graph already shows the tenant on Customer; it never leaves the
// tenant (a tenant key reads its own e-mails only, the operator names the tenant).
import { CUSTOMER_TEMPLATES, TEAM_TEMPLATES, VENDOR_TEMPLATES } from "../../core/emails/templates/email-content.ts";
import { builder } from "../builder.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import { keysetConnection } from "./page.ts";

const TEMPLATES = [...CUSTOMER_TEMPLATES, ...VENDOR_TEMPLATES, ...TEAM_TEMPLATES];
const upper = (s: string) => s.toUpperCase();

export const EmailTemplateEnum = builder.enumType("EmailTemplate", {
  description: "Which e-mail: the customer ones (each can be turned off per tenant), the vendor's alarms, and the team's invitations and password resets.",
  values: Object.fromEntries(TEMPLATES.map((t) => [upper(t), { value: t, description: `The ${t.replace(/_/g, " ")} e-mail.` }])) as Record<
    string,
    { value: (typeof TEMPLATES)[number]; description: string }
  >,
});

const EmailStatusEnum = builder.enumType("EmailStatus", {
  description: "Where a message stands in the outbox.",
  values: {
    PENDING: { description: "Queued or waiting for a retry (see attempts and lastErrorCategory)." },
    SENT: { description: "Accepted by the SMTP server (or written as .eml without SMTP_URL)." },
    FAILED: { description: "Refused for good (a 5xx reply, a bad address) or out of tries." },
  } as const,
});

const EmailErrorCategoryEnum = builder.enumType("EmailErrorCategory", {
  description: "Why the last try did not go through.",
  values: {
    CONNECTION: { value: "connection", description: "The SMTP server could not be reached." },
    TIMEOUT: { value: "timeout", description: "The SMTP server did not answer in time." },
    TEMPORARY_REJECTION: { value: "temporary_rejection", description: "A 4xx reply: retried." },
    PERMANENT_REJECTION: { value: "permanent_rejection", description: "A 5xx reply or an address we refuse: not retried." },
  } as const,
});

const EmailRef = builder.prismaObject("EmailMessage", {
  name: "Email",
  description: "One e-mail of the outbox: what, to whom, and how its sending went.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "eml_ id." }),
    template: t.field({ type: EmailTemplateEnum, description: "Which e-mail.", resolve: (m) => m.kind as (typeof TEMPLATES)[number] }),
    recipient: t.exposeString("to", { description: "The customer's address, or the tenant's contact addresses (comma-separated) for an alarm." }),
    customerId: t.exposeString("customerId", { nullable: true, description: "cus_ id of the addressee, when a customer." }),
    subject: t.exposeString("subject", { description: "Subject line (pt-BR)." }),
    status: t.expose("status", { type: EmailStatusEnum, description: "PENDING, SENT or FAILED." }),
    attempts: t.exposeInt("attempts", { description: "Tries made so far." }),
    lastErrorCategory: t.field({
      type: EmailErrorCategoryEnum,
      nullable: true,
      description: "Why the last try failed; null once sent or before any try.",
      resolve: (m) => (m.lastErrorCategory as "connection" | "timeout" | "temporary_rejection" | "permanent_rejection" | null) ?? null,
    }),
    eventId: t.exposeString("eventId", { nullable: true, description: "evt_ id of the event that caused it, when one did." }),
    sentAt: t.expose("sentAt", { type: "DateTime", nullable: true, description: "When the server accepted it (wall clock)." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was queued, on the tenant's clock." }),
  }),
});

builder.queryFields((t) => ({
  emails: t.connection(
    {
      type: EmailRef,
      description: "The tenant's e-mails in id order (keyset): what was queued and sent, to whom, and how it went.",
      authScopes: { tenant: true, operator: true },
      args: {
        tenantId: t.arg.id({ required: false, description: "Operator only: the tenant to read." }),
        status: t.arg({ type: [EmailStatusEnum], required: false, description: "Only e-mails in one of these statuses." }),
        template: t.arg({ type: [EmailTemplateEnum], required: false, description: "Only these templates." }),
        customerId: t.arg.string({ required: false, description: "Only the e-mails of this cus_ id." }),
      },
      resolve: (_root, args, ctx) => {
        const tenantId = tenantIdFor(ctx, args.tenantId);
        return keysetConnection("email", args, (id, take) =>
          ctx.db.prisma.emailMessage.findMany({
            where: {
              tenantId,
              ...(args.status?.length ? { status: { in: args.status } } : {}),
              ...(args.template?.length ? { kind: { in: args.template } } : {}),
              ...(args.customerId ? { customerId: args.customerId } : {}),
              ...(id ? { id } : {}),
            },
            orderBy: { id: "asc" },
            take,
          }),
        );
      },
    },
    { name: "EmailsConnection", description: "A page of the tenant's e-mails." },
    { name: "EmailsEdge", description: "One e-mail of the page." },
  ),
}));
