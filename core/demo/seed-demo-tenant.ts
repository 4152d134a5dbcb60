// First run (service-contract §8): a SANDBOX demo tenant with a product, a monthly and a yearly offer,
// a coupon, a referral program (20% off the referrer's next renewal once the referred customer has paid
// 2 cycles) and a webhook endpoint on the built-in demo receiver. Built from the same use cases the
// operator mutations call.
import { createCoupon } from "../catalog/create-coupon.ts";
import { createOffer } from "../catalog/create-offer.ts";
import { createPlan } from "../catalog/create-plan.ts";
import { createProduct } from "../catalog/create-product.ts";
import { createReferralProgram } from "../referrals/create-referral-program.ts";
import type { Runtime } from "../runtime.ts";
import { isAppError } from "../shared/errors.ts";
import { createApiKey } from "../tenants/create-api-key.ts";
import { createTenant } from "../tenants/create-tenant.ts";
import { updateTenantProfile } from "../tenants/update-tenant-profile.ts";
import { createTenantOwner } from "../team/create-tenant-owner.ts";
import { createWebhookEndpoint } from "../webhooks/create-webhook-endpoint.ts";
import { DEMO_RECEIVER_PATH, DEMO_TENANT_NAME, forgetDemoReceiverKeys } from "./receive-demo-webhook.ts";

export { DEMO_TENANT_NAME };

export interface DemoTenant {
  tenantId: string;
  writeKey: string;
  readKey: string;
  monthlyOfferId: string;
  yearlyOfferId: string;
  couponCode: string;
  /** The panel's first owner, with its generated password (shown once). */
  panelOwner: { email: string; password: string } | null;
}

export const DEMO_OWNER_EMAIL = "dono@demo.example";

export const DEMO_PROFILE = {
  legalName: "Demo SaaS Tecnologia Ltda.",
  cnpj: "11.222.333/0001-81",
  supportEmail: "suporte@demo.example",
  supportPhone: "(11) 3003-4000",
  address: "Av. Paulista, 1000, conj. 101, Bela Vista, São Paulo - SP, 01310-100",
  termsUrl: "https://demo.example/termos",
  privacyUrl: "https://demo.example/privacidade",
};

/** The demo tenant's panel owner, made once (also for a demo tenant seeded before the panel existed). */
export async function ensureDemoOwner(runtime: Runtime): Promise<{ tenantId: string; email: string; password: string } | null> {
  const tenant = await runtime.db.prisma.tenant.findFirst({ where: { name: DEMO_TENANT_NAME }, select: { id: true } });
  if (!tenant) return null;
  const owner = await createTenantOwner(runtime.db.prisma, { tenantId: tenant.id, email: DEMO_OWNER_EMAIL });
  return owner && { tenantId: tenant.id, ...owner };
}

/** Seeds the demo tenant unless one exists; returns null when it was already there. */
export async function seedDemoTenant(runtime: Runtime): Promise<DemoTenant | null> {
  const prisma = runtime.db.prisma;
  if (await prisma.tenant.findFirst({ where: { name: DEMO_TENANT_NAME }, select: { id: true } })) return null;
  const tenant = await createTenant(prisma, runtime.wallClock, { name: DEMO_TENANT_NAME, mode: "SANDBOX" });
  // A complete seller profile, so the printed checkout shows what a shopper is owed (a valid test CNPJ).
  await updateTenantProfile(runtime, { tenantId: tenant.id, profile: DEMO_PROFILE });
  const product = await createProduct(prisma, { tenantId: tenant.id, name: "Demo App" });
  const plan = await createPlan(prisma, {
    tenantId: tenant.id,
    productId: product.id,
    name: "Pro",
    entitlements: { projects: 10, seats: 5, api_access: true },
  });
  const offer = (interval: "MONTH" | "YEAR", priceCents: number) =>
    createOffer(prisma, {
      tenantId: tenant.id,
      planId: plan.id,
      name: `Pro ${interval === "MONTH" ? "mensal" : "anual"}`,
      interval,
      priceCents,
      currency: "brl",
      gateway: "sandbox",
      collectionMethods: ["CARD_AUTO", "PIX_MANUAL"],
      trialDays: 0,
    });
  const monthly = await offer("MONTH", 4990);
  const yearly = await offer("YEAR", 49900);
  const coupon = await createCoupon(prisma, { tenantId: tenant.id, code: "BEMVINDO10", percentOff: 10, cycles: 3 });
  await createReferralProgram(prisma, { tenantId: tenant.id, reward: { kind: "percent_next", value: 20, cycles: 1 }, qualifyAfterPaidCycles: 2 });
  // A PUBLIC_URL on a private address (a LAN demo) is no webhook target for any tenant (SSRF guard):
  // the demo then runs without its receiver instead of refusing to start.
  const demoUrl = `${runtime.config.publicUrl}${DEMO_RECEIVER_PATH}`;
  await createWebhookEndpoint(prisma, { tenantId: tenant.id, url: demoUrl, events: [] }).catch((err: unknown) => {
    if (!isAppError(err) || err.key !== "invalid_argument") throw err;
    runtime.logger.warn({ url: demoUrl, reason: err.body.error }, "demo webhook endpoint not created");
  });
  const write = await createApiKey(prisma, { tenantId: tenant.id, scope: "WRITE" });
  const read = await createApiKey(prisma, { tenantId: tenant.id, scope: "READ" });
  forgetDemoReceiverKeys(prisma); // the demo receiver answers from now on, not after its cache expires
  const panelOwner = await createTenantOwner(prisma, { tenantId: tenant.id, email: DEMO_OWNER_EMAIL });
  return {
    tenantId: tenant.id,
    writeKey: write.key,
    readKey: read.key,
    monthlyOfferId: monthly.id,
    yearlyOfferId: yearly.id,
    couponCode: coupon.code,
    panelOwner,
  };
}
