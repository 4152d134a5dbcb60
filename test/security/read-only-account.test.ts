// The read-only account mode (billing-api.md, Authentication 7) on every
// mutation that changes state. Every Mutation field of the schema is classified below; a new
// mutation fails the first test until it is added to one of the lists.
import { getNamedType, isInputObjectType, isEnumType, isListType, isNonNullType, isScalarType, type GraphQLInputType } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../schema/schema.ts";
import { gql, op } from "../helpers/http.ts";
import { newTenant, type TestTenant } from "../helpers/tenant.ts";

/** Operator mutations: a tenant key hears operator_only whatever the account mode. */
const OPERATOR_ONLY = [
  "createTenant", "createApiKey", "revokeApiKey", "rollApiKey", "setTenantRateLimits", "setTenantReadOnly", "setTenantSuspended", "setRenewalsPaused",
  "createWebhookEndpoint", "rotateWebhookSecret", "createProduct", "createPlan", "updatePlanEntitlements", "createGatewayAccount",
  "updateGatewayAccountCredentials", "setDefaultGatewayAccount", "createOffer", "createOneTimeOffer", "createCoupon", "createReferralProgram", "createRenewalCampaign", "setRenewalCampaignActive",
  "inviteTenantUser", "updateTenantContacts", "updateTenantEmailSettings", "updateTenantProfile", "setTenantMode",
];
/** The panel's own mutations (sign-in, a member's account): an API key hears insufficient_scope whatever the account mode. */
const PANEL_ONLY = ["acceptInvitation", "inviteTeamMember", "requestPasswordReset", "resetPassword", "signIn", "confirmSignInCode", "signOut", "startTwoFactor", "enableTwoFactor", "setTwoFactorRequired", "disableTwoFactor", "changeMemberRole", "removeTeamMember",
  "connectGateway", "updateGatewayCredentials", "setDefaultGateway", "updateOwnTenantProfile", "updateOwnTenantEmailSettings", "updateOwnTenantContacts",
  "addWebhookEndpoint", "updateWebhookEndpoint", "setWebhookEndpointEnabled", "deleteWebhookEndpoint", "revealWebhookSecret", "rollWebhookSecret",
  "resendWebhookDelivery", "resendFailedWebhookDeliveries", "sendTestWebhookEvent"];
/** Tenant mutations that change state: a read-only account's write key hears account_locked. */
const LOCKED_WHEN_READ_ONLY = [
  "advanceClock", "simulatePixPayment", "simulateChargeback", "redeliverEvent", "chargeNow", "createPaymentMethodLink", "createRenewalLink",
  "changePlan", "cancelPlanChange", "undoCancelSubscription", "rescheduleSubscription", "removeCoupon", "getCampaignLink",
];
/** The contract's exceptions: refund, cancel (immediate and at period end) and customer edit. */
const ALLOWED_WHEN_READ_ONLY = ["refundPayment", "cancelSubscription", "updateCustomer", "updateCustomerEmail"];

const mutationFields = schema.getMutationType()!.getFields();

/** A value of the input type that passes GraphQL validation (the refusals under test come before any lookup). */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [sample(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0]!.name; // the name: a variable carries the name, not the internal value
  if (isInputObjectType(type)) {
    return Object.fromEntries(Object.values(type.getFields()).filter((f) => isNonNullType(f.type)).map((f) => [f.name, sample(f.type)]));
  }
  if (isScalarType(type)) {
    return ({ Int: 1, Float: 1, Boolean: true, DateTime: "2031-01-01T00:00:00.000Z", JSON: {} } as Record<string, unknown>)[type.name] ?? "x_0";
  }
  throw new Error(`no sample for ${String(type)}`);
}

/** `mutation($v0: T!, …) { field(arg: $v0, …) { __typename } }` with every required argument filled. */
function mutationCall(name: string): { query: string; variables: Record<string, unknown> } {
  const field = mutationFields[name]!;
  const required = field.args.filter((a) => isNonNullType(a.type));
  const decl = required.map((a, i) => `$v${i}: ${String(a.type)}`).join(", ");
  const args = required.map((a, i) => `${a.name}: $v${i}`).join(", ");
  const named = getNamedType(field.type);
  const selection = isScalarType(named) || isEnumType(named) ? "" : "{ __typename }";
  return {
    query: `mutation${decl ? `(${decl})` : ""} { ${name}${args ? `(${args})` : ""} ${selection} }`,
    variables: Object.fromEntries(required.map((a, i) => [`v${i}`, sample(a.type)])),
  };
}

async function codeOf(name: string, key: string): Promise<string | undefined> {
  const { query, variables } = mutationCall(name);
  const r = await gql(query, variables, key);
  return r.errors?.[0]?.extensions?.code;
}

describe("read-only account mode on every mutation", () => {
  let locked: TestTenant;
  let open: TestTenant;

  beforeAll(async () => {
    [locked, open] = [await newTenant(), await newTenant()];
    for (const t of [locked, open]) {
      await op(`mutation($t: ID!) { setTenantRateLimits(tenantId: $t, readPerSecond: 100000, writePerSecond: 100000) { id } }`, { t: t.tenantId });
    }
    await op(`mutation($t: ID!) { setTenantReadOnly(tenantId: $t, readOnly: true) { readOnly } }`, { t: locked.tenantId });
  });

  it("classifies every Mutation field of the schema", () => {
    const classified = [...OPERATOR_ONLY, ...LOCKED_WHEN_READ_ONLY, ...ALLOWED_WHEN_READ_ONLY, ...PANEL_ONLY].sort();
    expect(classified).toEqual(Object.keys(mutationFields).sort());
  });

  it.each(LOCKED_WHEN_READ_ONLY)("%s: a read-only account's write key gets 403 account_locked, its read key insufficient_scope", async (name) => {
    expect(await codeOf(name, locked.writeKey)).toBe("account_locked");
    expect(await codeOf(name, locked.readKey)).toBe("insufficient_scope");
    // The lock is the account's, not the mutation's: an ordinary account's write key gets past it.
    expect(await codeOf(name, open.writeKey)).not.toBe("account_locked");
  });

  it.each(ALLOWED_WHEN_READ_ONLY)("%s stays allowed to a read-only account (contract exception)", async (name) => {
    expect(await codeOf(name, locked.writeKey)).not.toBe("account_locked");
    expect(await codeOf(name, locked.readKey)).toBe("insufficient_scope");
  });

  it.each(OPERATOR_ONLY)("%s: a read-only account's write key still hears operator_only", async (name) => {
    expect(await codeOf(name, locked.writeKey)).toBe("operator_only");
  });

  it.each(PANEL_ONLY)("%s: an API key hears insufficient_scope (the panel's own)", async (name) => {
    expect(await codeOf(name, locked.writeKey)).toBe("insufficient_scope");
    expect(await codeOf(name, open.writeKey)).toBe("insufficient_scope");
  });
});
