// Names and phrases shared by the subjects, the HTML and the plain-text parts, so both parts of an
// e-mail state the same facts in the same words.
import { formatDateTime, formatDay, formatMoney } from "../../shared/format-money.ts";
import type { PaymentMethodFacts } from "./email-content.ts";

const BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  master: "Mastercard",
  amex: "American Express",
  american_express: "American Express",
  elo: "Elo",
  hipercard: "Hipercard",
  hiper: "Hiper",
  diners: "Diners Club",
  discover: "Discover",
  jcb: "JCB",
};

/** "visa" -> "Visa": gateways report brands in their own spelling. */
export function cardBrand(brand: string): string {
  const key = brand.trim().toLowerCase().replace(/[\s-]+/g, "_");
  return BRANDS[key] ?? (brand.trim() ? brand.trim()[0]!.toUpperCase() + brand.trim().slice(1) : "Cartão");
}

/** "cartão Visa final 4242" or "Pix". */
export function methodLabel(method: PaymentMethodFacts): string {
  return method.kind === "pix" ? "Pix" : `cartão ${cardBrand(method.brand)} final ${method.last4}`;
}

/** The same, starting a table cell or a sentence. */
export function methodCell(method: PaymentMethodFacts): string {
  const label = methodLabel(method);
  return label[0]!.toUpperCase() + label.slice(1);
}

const PROVIDERS: Record<string, string> = { stripe: "Stripe", pagarme: "Pagar.me", mercadopago: "Mercado Pago", sandbox: "Sandbox" };

export function providerName(provider: string): string {
  return PROVIDERS[provider.toLowerCase()] ?? provider;
}

/** "Curso de Violão (plano Mensal)": the product, and the plan when there is one. */
export function productLine(productName: string, planName: string | null): string {
  return planName && planName !== productName ? `${productName} (plano ${planName})` : productName;
}

export const money = formatMoney;
export const day = formatDay;
export const dateTime = formatDateTime;

const ROLES: Record<string, string> = {
  OWNER: "proprietário",
  ADMIN: "administrador",
  DEVELOPER: "desenvolvedor",
  SUPPORT: "suporte",
  VIEWER: "leitor",
};

/** A team role in pt-BR ("ADMIN" -> "administrador"). */
export function roleName(role: string): string {
  return ROLES[role] ?? role.toLowerCase();
}
