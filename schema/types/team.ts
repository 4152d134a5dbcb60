// The panel's view of the team: the signed-in member, their sessions, two-factor set-up, invitations.
import { builder } from "../builder.ts";

export const TenantUserRoleEnum = builder.enumType("TenantUserRole", {
  description: "A panel member's role. Keys, webhooks and gateways: owner, admin, developer; team: owner, admin; viewer reads only.",
  values: {
    OWNER: { description: "Everything, including the team's security settings." },
    ADMIN: { description: "Everything but the owner's settings." },
    DEVELOPER: { description: "API keys, webhooks, gateways." },
    SUPPORT: { description: "Customers and their subscriptions." },
    VIEWER: { description: "Reads only." },
  } as const,
});

export const SignInStatusEnum = builder.enumType("SignInStatus", {
  description: "What a right password leads to.",
  values: {
    SIGNED_IN: { description: "The token is a signed-in session." },
    CODE_REQUIRED: { description: "The token is a pending session owed a two-factor code (confirmSignInCode)." },
  } as const,
});

export interface PanelMe {
  id: string;
  email: string;
  role: "OWNER" | "ADMIN" | "DEVELOPER" | "SUPPORT" | "VIEWER";
  twoFactorOn: boolean;
  owesTwoFactor: boolean;
  tenantId: string;
  tenantName: string;
  tenantMode: "LIVE" | "SANDBOX";
  twoFactorRequired: boolean;
}

export const PanelMeRef = builder.objectRef<PanelMe>("PanelMember").implement({
  description: "The signed-in panel member.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "usr_ id." }),
    email: t.exposeString("email", { description: "Sign-in e-mail." }),
    role: t.expose("role", { type: TenantUserRoleEnum, description: "Role in the team." }),
    twoFactorOn: t.exposeBoolean("twoFactorOn", { description: "Whether sign-in asks for a code." }),
    owesTwoFactor: t.exposeBoolean("owesTwoFactor", { description: "The team requires two-factor and this member has not turned it on yet." }),
    tenantId: t.exposeID("tenantId", { description: "tn_ id of the member's tenant." }),
    tenantName: t.exposeString("tenantName", { description: "The tenant's display name." }),
    tenantMode: t.exposeString("tenantMode", { description: "LIVE or SANDBOX." }),
    twoFactorRequired: t.exposeBoolean("twoFactorRequired", { description: "The owner's switch: two-factor required of the whole team." }),
  }),
});

export const PanelSessionRef = builder
  .objectRef<{ id: string; createdAt: Date; lastSeenAt: Date; userAgent: string; address: string; current: boolean }>("PanelSessionInfo")
  .implement({
    description: "One of the member's active panel sessions.",
    fields: (t) => ({
      id: t.exposeID("id", { description: "pss_ id." }),
      createdAt: t.expose("createdAt", { type: "DateTime", description: "Sign-in instant." }),
      lastSeenAt: t.expose("lastSeenAt", { type: "DateTime", description: "Last request (to the minute)." }),
      userAgent: t.exposeString("userAgent", { description: "The browser's User-Agent." }),
      address: t.exposeString("address", { description: "The browser's address at sign-in." }),
      current: t.exposeBoolean("current", { description: "The session making this request." }),
    }),
  });

export const TwoFactorSetupRef = builder.objectRef<{ secret: string; uri: string }>("TwoFactorSetup").implement({
  description: "A TOTP secret waiting for its first code.",
  fields: (t) => ({
    secret: t.exposeString("secret", { description: "Base32 secret, for typing into the app." }),
    uri: t.exposeString("uri", { description: "otpauth:// URI, for the QR code." }),
  }),
});

export const TenantInvitationRef = builder.objectRef<{ url: string; email: string; role: PanelMe["role"]; expiresAt: Date }>("TenantInvitation").implement({
  description: "An invitation link to a tenant's team: single use, expires.",
  fields: (t) => ({
    url: t.exposeString("url", { description: "The link to send: /panel/invite/<token>. Shown once." }),
    email: t.exposeString("email", { description: "Who is invited (lower-cased)." }),
    role: t.expose("role", { type: TenantUserRoleEnum, description: "The role the member gets." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "When the link stops working." }),
  }),
});

export const InvitationPreviewRef = builder.objectRef<{ email: string; tenantName: string }>("InvitationPreview").implement({
  description: "What an open invitation is for, shown before the password is chosen.",
  fields: (t) => ({
    email: t.exposeString("email", { description: "The invited e-mail." }),
    tenantName: t.exposeString("tenantName", { description: "The team's name." }),
  }),
});

export const TeamMemberRef = builder
  .objectRef<{ id: string; email: string; role: PanelMe["role"]; twoFactorOn: boolean; lastSignInAt: Date | null; createdAt: Date }>("TeamMember")
  .implement({
    description: "A member of the tenant's team.",
    fields: (t) => ({
      id: t.exposeID("id", { description: "usr_ id." }),
      email: t.exposeString("email", { description: "Sign-in e-mail." }),
      role: t.expose("role", { type: TenantUserRoleEnum, description: "Role in the team." }),
      twoFactorOn: t.exposeBoolean("twoFactorOn", { description: "Whether sign-in asks for a code." }),
      lastSignInAt: t.expose("lastSignInAt", { type: "DateTime", nullable: true, description: "Last sign-in, if any." }),
      createdAt: t.expose("createdAt", { type: "DateTime", description: "When the member joined." }),
    }),
  });

export const SignInResultRef = builder.objectRef<{ status: "SIGNED_IN" | "CODE_REQUIRED"; token: string }>("SignInResult").implement({
  description: "A panel session token (ps_…), for the panel's cookie only.",
  fields: (t) => ({
    status: t.expose("status", { type: SignInStatusEnum, description: "Signed in, or a code is owed." }),
    token: t.exposeString("token", { description: "The session token." }),
  }),
});
