// The team and panel sign-in. The panel calls these as `panel` (before sign-in) or as the signed-in
// member (`user`); the operator invites. Every rule is in core/team/.
import { z } from "zod";
import { acceptInvitation, findOpenInvitation } from "../../core/team/accept-invitation.ts";
import { confirmSignInCode } from "../../core/team/confirm-sign-in-code.ts";
import { changeMemberRole } from "../../core/team/change-member-role.ts";
import { disableTwoFactor } from "../../core/team/disable-two-factor.ts";
import { enableTwoFactor } from "../../core/team/enable-two-factor.ts";
import { inviteTenantUser } from "../../core/team/invite-tenant-user.ts";
import { inviteTeamMember } from "../../core/team/invite-team-member.ts";
import { listTeamMembers } from "../../core/team/list-team-members.ts";
import { listPanelSessions } from "../../core/team/list-panel-sessions.ts";
import { setTwoFactorRequired } from "../../core/team/set-two-factor-required.ts";
import { removeTeamMember } from "../../core/team/remove-team-member.ts";
import { requestPasswordReset } from "../../core/team/request-password-reset.ts";
import { resetPassword } from "../../core/team/reset-password.ts";
import { signIn } from "../../core/team/sign-in.ts";
import { signOut } from "../../core/team/sign-out.ts";
import { pendingTwoFactor, startTwoFactor } from "../../core/team/start-two-factor.ts";
import { AppError } from "../../core/shared/errors.ts";
import { builder } from "../builder.ts";
import type { Context, PanelUser } from "../context.ts";
import { tenantIdFor } from "../tenant-scope.ts";
import {
  InvitationPreviewRef,
  PanelMeRef,
  PanelSessionRef,
  SignInResultRef,
  TeamMemberRef,
  TenantInvitationRef,
  TenantUserRoleEnum,
  TwoFactorSetupRef,
} from "../types/team.ts";

/** The signed-in member behind a `user`-scoped field (scope-auth already refused anyone else). */
function member(ctx: Context): PanelUser & { tenantId: string } {
  if (ctx.actor.kind !== "tenant" || !ctx.actor.user) throw new AppError("unauthorized");
  return { ...ctx.actor.user, tenantId: ctx.actor.tenantId };
}

function panelClient(ctx: Context) {
  if (ctx.actor.kind !== "panel") throw new AppError("unauthorized");
  return ctx.actor.client;
}

const secret = z.string().max(256);

builder.queryFields((t) => ({
  me: t.field({
    type: PanelMeRef,
    description: "The signed-in panel member and their tenant.",
    authScopes: { user: true },
    resolve: async (_r, _a, ctx) => {
      const m = member(ctx);
      const tenant = await ctx.db.prisma.tenant.findUniqueOrThrow({ where: { id: m.tenantId }, select: { name: true, mode: true, twoFactorRequired: true } });
      return {
        id: m.id,
        email: m.email,
        role: m.role,
        twoFactorOn: m.twoFactorOn,
        owesTwoFactor: m.owesTwoFactor,
        tenantId: m.tenantId,
        tenantName: tenant.name,
        tenantMode: tenant.mode,
        twoFactorRequired: tenant.twoFactorRequired,
      };
    },
  }),
  panelSessions: t.field({
    type: [PanelSessionRef],
    description: "The member's active panel sessions, newest first.",
    authScopes: { user: true },
    resolve: (_r, _a, ctx) => {
      const m = member(ctx);
      return listPanelSessions(ctx.db.prisma, ctx.runtime.wallClock, { tenantId: m.tenantId, userId: m.id, currentSessionId: m.sessionId });
    },
  }),
  twoFactorSetup: t.field({
    type: TwoFactorSetupRef,
    nullable: true,
    description: "The member's unconfirmed TOTP secret, if startTwoFactor made one.",
    authScopes: { user: true },
    resolve: (_r, _a, ctx) => {
      const m = member(ctx);
      return pendingTwoFactor(ctx.runtime, { tenantId: m.tenantId, userId: m.id });
    },
  }),
  teamMembers: t.field({
    type: [TeamMemberRef],
    description: "The members of the caller's team (a panel member whose account is in force).",
    authScopes: { $all: { user: true, tenant: true } },
    resolve: (_r, _a, ctx) => listTeamMembers(ctx.db.prisma, { tenantId: member(ctx).tenantId }),
  }),
  invitation: t.field({
    type: InvitationPreviewRef,
    description: "An open invitation by its token (the panel's accept page). Expired, used or unknown: team_link_invalid.",
    authScopes: { panel: true },
    args: { token: t.arg.string({ required: true, description: "The link's token.", validate: secret }) },
    resolve: async (_r, args, ctx) => {
      const link = await findOpenInvitation(ctx.runtime, ctx.runtime.wallClock, args.token);
      const tenant = await ctx.db.prisma.tenant.findUniqueOrThrow({ where: { id: link.tenantId }, select: { name: true } });
      return { email: link.email, tenantName: tenant.name };
    },
  }),
}));

builder.mutationFields((t) => ({
  inviteTenantUser: t.field({
    type: TenantInvitationRef,
    description: "Invite someone to a tenant's team: the invitation e-mail is queued to that address, and the single-use link (valid 7 days) is returned.",
    authScopes: { operator: true },
    args: {
      tenantId: t.arg.id({ required: true, description: "tn_ id." }),
      email: t.arg.string({ required: true, description: "The invited e-mail.", validate: z.string().trim().min(3).max(254) }),
      role: t.arg({ type: TenantUserRoleEnum, required: true, description: "Role in the team." }),
    },
    resolve: (_r, args, ctx) =>
      inviteTenantUser(ctx.runtime, ctx.runtime.wallClock, {
        tenantId: tenantIdFor(ctx, String(args.tenantId)),
        email: args.email,
        role: args.role,
        publicUrl: ctx.runtime.config.publicUrl,
      }),
  }),
  inviteTeamMember: t.field({
    type: TenantInvitationRef,
    description: "An owner or admin invites someone to their own team (only an owner may invite an owner). The invitation e-mail is queued to that address; returns the single-use link.",
    authScopes: { teamAdmin: true },
    args: {
      email: t.arg.string({ required: true, description: "The invited e-mail.", validate: z.string().trim().min(3).max(254) }),
      role: t.arg({ type: TenantUserRoleEnum, required: true, description: "Role in the team." }),
    },
    resolve: (_r, args, ctx) => {
      const m = member(ctx);
      return inviteTeamMember(ctx.runtime, ctx.runtime.wallClock, { tenantId: m.tenantId, inviterRole: m.role, inviterEmail: m.email ?? null, email: args.email, role: args.role, publicUrl: ctx.runtime.config.publicUrl });
    },
  }),
  acceptInvitation: t.field({
    type: InvitationPreviewRef,
    description: "Accept an invitation with a password (the panel's accept page).",
    authScopes: { panel: true },
    args: {
      token: t.arg.string({ required: true, description: "The link's token.", validate: secret }),
      password: t.arg.string({ required: true, description: "The new password.", validate: z.string().max(1024) }),
    },
    resolve: async (_r, args, ctx) => {
      const done = await acceptInvitation(ctx.runtime, ctx.runtime.wallClock, args);
      const tenant = await ctx.db.prisma.tenant.findUniqueOrThrow({ where: { id: done.tenantId }, select: { name: true } });
      return { email: done.email, tenantName: tenant.name };
    },
  }),
  requestPasswordReset: t.boolean({
    description:
      "Ask for a password-reset link for an e-mail (the panel's form). Always true: whether the e-mail has an account is not told. " +
      "The links go to the account's own address only (the e-mail outbox).",
    authScopes: { panel: true },
    args: { email: t.arg.string({ required: true, description: "Sign-in e-mail.", validate: z.string().max(254) }) },
    resolve: async (_r, args, ctx) => {
      await requestPasswordReset(ctx.runtime, ctx.runtime.wallClock, { email: args.email, publicUrl: ctx.runtime.config.publicUrl });
      return true;
    },
  }),
  resetPassword: t.field({
    type: InvitationPreviewRef,
    description: "Set a new password with a reset link; every session of the account ends.",
    authScopes: { panel: true },
    args: {
      token: t.arg.string({ required: true, description: "The link's token.", validate: secret }),
      password: t.arg.string({ required: true, description: "The new password.", validate: z.string().max(1024) }),
    },
    resolve: async (_r, args, ctx) => ({ email: (await resetPassword(ctx.runtime, ctx.runtime.wallClock, args)).email, tenantName: "" }),
  }),
  signIn: t.field({
    type: SignInResultRef,
    description: "Panel sign-in with e-mail and password.",
    authScopes: { panel: true },
    args: {
      email: t.arg.string({ required: true, description: "Sign-in e-mail.", validate: z.string().max(254) }),
      password: t.arg.string({ required: true, description: "Password.", validate: z.string().max(1024) }),
    },
    resolve: (_r, args, ctx) => signIn(ctx.runtime, ctx.runtime.wallClock, { ...args, ...panelClient(ctx) }),
  }),
  confirmSignInCode: t.field({
    type: SignInResultRef,
    description: "The two-factor step of a sign-in: a TOTP or recovery code; answers a new signed-in token.",
    authScopes: { panel: true },
    args: {
      pendingToken: t.arg.string({ required: true, description: "signIn's CODE_REQUIRED token.", validate: secret }),
      code: t.arg.string({ required: true, description: "6-digit code or a recovery code.", validate: z.string().max(64) }),
    },
    resolve: async (_r, args, ctx) => ({ status: "SIGNED_IN" as const, ...(await confirmSignInCode(ctx.runtime, ctx.runtime.wallClock, { ...args, ...panelClient(ctx) })) }),
  }),
  signOut: t.int({
    description: "End this panel session, or every session of the member (everywhere). Answers how many ended.",
    authScopes: { user: true },
    args: { everywhere: t.arg.boolean({ required: false, defaultValue: false, description: "Every session of the member." }) },
    resolve: (_r, args, ctx) => {
      const m = member(ctx);
      return signOut(ctx.db.prisma, ctx.runtime.wallClock, { tenantId: m.tenantId, userId: m.id, sessionId: m.sessionId, everywhere: !!args.everywhere });
    },
  }),
  startTwoFactor: t.field({
    type: TwoFactorSetupRef,
    description: "Make a new TOTP secret for the member (not in force until enableTwoFactor).",
    authScopes: { user: true },
    resolve: (_r, _a, ctx) => {
      const m = member(ctx);
      return startTwoFactor(ctx.runtime, { tenantId: m.tenantId, userId: m.id });
    },
  }),
  enableTwoFactor: t.stringList({
    description: "Confirm the TOTP secret with a code; answers the recovery codes, shown once.",
    authScopes: { user: true },
    args: { code: t.arg.string({ required: true, description: "6-digit code from the app.", validate: z.string().max(64) }) },
    resolve: async (_r, args, ctx) => {
      const m = member(ctx);
      return (await enableTwoFactor(ctx.runtime, ctx.runtime.wallClock, { tenantId: m.tenantId, userId: m.id, code: args.code })).recoveryCodes;
    },
  }),
  disableTwoFactor: t.boolean({
    description: "Turn the member's own two-factor off, proven by a current code or a recovery code; refused while the owner requires it. Answers true.",
    authScopes: { user: true },
    args: { code: t.arg.string({ required: true, description: "6-digit code from the app, or a recovery code.", validate: z.string().max(64) }) },
    resolve: (_r, args, ctx) => {
      const m = member(ctx);
      return disableTwoFactor(ctx.runtime, ctx.runtime.wallClock, { tenantId: m.tenantId, userId: m.id, code: args.code });
    },
  }),
  changeMemberRole: t.field({
    type: TeamMemberRef,
    description: "An owner or admin changes another member's role (only an owner gives or takes the owner role; nobody changes their own).",
    authScopes: { teamAdmin: true },
    args: {
      memberId: t.arg.id({ required: true, description: "usr_ id of the member." }),
      role: t.arg({ type: TenantUserRoleEnum, required: true, description: "The new role." }),
    },
    resolve: (_r, args, ctx) => {
      const m = member(ctx);
      return changeMemberRole(ctx.runtime, { tenantId: m.tenantId, actorId: m.id, actorRole: m.role, memberId: String(args.memberId), role: args.role });
    },
  }),
  removeTeamMember: t.id({
    description: "An owner or admin removes another member from the team; their sessions end at once. Answers the removed member's id.",
    authScopes: { teamAdmin: true },
    args: { memberId: t.arg.id({ required: true, description: "usr_ id of the member." }) },
    resolve: async (_r, args, ctx) => {
      const m = member(ctx);
      return (await removeTeamMember(ctx.runtime, { tenantId: m.tenantId, actorId: m.id, actorRole: m.role, memberId: String(args.memberId) })).id;
    },
  }),
  setTwoFactorRequired: t.boolean({
    description: "The owner's switch: require two-factor sign-in of the whole team. Answers the new value.",
    authScopes: { owner: true },
    args: { required: t.arg.boolean({ required: true, description: "Required or not." }) },
    resolve: async (_r, args, ctx) => {
      const m = member(ctx);
      return (await setTwoFactorRequired(ctx.db.prisma, { tenantId: m.tenantId, userId: m.id, required: args.required })).required;
    },
  }),
}));
