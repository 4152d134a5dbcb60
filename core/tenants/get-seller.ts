// Who sells, as a hosted page shows it (footer, LIVE gate): the tenant's profile, formatted for a
// shopper. Public data only: the vendor chose to publish it.
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { sha256Hex } from "../shared/secrets.ts";
import { canSellLive, formatCnpj } from "./tenant-profile.rules.ts";
import { sqlQuery } from "../../prisma/direct-sql.ts";
import { selectList } from "../shared/row-columns.ts";

export interface Seller {
  name: string;
  legalName: string | null;
  /** 00.000.000/0000-00 */
  cnpj: string | null;
  supportEmail: string | null;
  /** National format, "(11) 3456-7890". */
  supportPhone: string | null;
  /** tel: target (E.164). */
  supportPhoneE164: string | null;
  address: string | null;
  termsUrl: string | null;
  privacyUrl: string | null;
  live: boolean;
  /** False for a LIVE tenant without legal name and CNPJ: its pages take no payment. */
  canSell: boolean;
}

/** The tenant columns a Seller is made of, from the tenants row aliased `t`, each named `<as><field>`. */
export const sellerColumns = (as = "") =>
  selectList(
    [
      ["id", "t.id"],
      ["name", "t.name"],
      ["mode", "t.mode::text"],
      ["legalName", "t.legal_name"],
      ["cnpj", "t.cnpj"],
      ["supportEmail", "t.support_email"],
      ["supportPhone", "t.support_phone"],
      ["address", "t.address"],
      ["termsUrl", "t.terms_url"],
      ["privacyUrl", "t.privacy_url"],
    ],
    as,
  );
export type SellerRow = { id: string; name: string; mode: "LIVE" | "SANDBOX"; legalName: string | null; cnpj: string | null; supportEmail: string | null; supportPhone: string | null; address: string | null; termsUrl: string | null; privacyUrl: string | null };

// Read on every hosted page: one statement without Prisma's compiler (prisma/direct-sql.ts). The checkout
// reads these columns with its offer instead (get-checkout-offer.ts).
const SELLER = `SELECT ${sellerColumns()} FROM tenants t WHERE t.id = $1`;

export async function getSeller(prisma: PrismaClient, tenantId: string): Promise<Seller | null> {
  const [t] = await sqlQuery<SellerRow>(prisma, SELLER, [tenantId]);
  return t ? sellerOf(t) : null;
}

/** A tenant row (sellerColumns) as the pages show its seller. */
export function sellerOf(t: SellerRow): Seller {
  const live = t.mode === "LIVE";
  return {
    name: t.name,
    legalName: t.legalName,
    cnpj: t.cnpj ? formatCnpj(t.cnpj) : null,
    supportEmail: t.supportEmail,
    supportPhone: t.supportPhone ? (parsePhoneNumberFromString(t.supportPhone)?.formatNational() ?? t.supportPhone) : null,
    supportPhoneE164: t.supportPhone,
    address: t.address,
    termsUrl: t.termsUrl,
    privacyUrl: t.privacyUrl,
    live,
    canSell: !live || canSellLive(t),
  };
}

/** The seller behind a /pay token; null for an unknown token (the page answers its own 404). */
export async function getSellerOfPayLink(prisma: PrismaClient, token: string): Promise<Seller | null> {
  if (!/^pl_[0-9A-Za-z]{20,64}$/.test(token)) return null;
  const link = await prisma.link.findUnique({ where: { tokenHash: sha256Hex(token) }, select: { tenantId: true } });
  return link ? getSeller(prisma, link.tenantId) : null;
}
