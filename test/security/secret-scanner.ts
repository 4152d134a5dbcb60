// Finds secrets in text: the card numbers and CVCs a test used, any card-like number (a 13-19 digit
// run that passes Luhn and starts like a card), a CVC as a field value, and clear API keys, the
// operator token or gateway credentials. Used by secret-scan.test.ts on the database, events, webhook
// bodies and logs.
// Text is read as a person would: JSON escapes decoded and NFKC applied first, so a used number typed
// with full-width digits, tabs, no-break spaces, dots, slashes or underscores is still found.

export interface Secrets {
  cardNumbers: string[];
  /** CVCs the run used; chosen so that they do not occur as quoted values for any other reason. */
  cvcs: string[];
  /** Clear API keys, the operator token and gateway credentials (sk_..., whsec_...) the run set. */
  keys: string[];
}

export interface Finding {
  source: string;
  kind: "card_number" | "card_like_number" | "cvc_field" | "cvc_next_to_card" | "api_key";
  excerpt: string;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** JSON escapes decoded (\\t, \\u00a0, \\uff14...), then NFKC (full-width and other compatibility digits become ASCII). */
function readable(text: string): string {
  return text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\[tnrbf]/g, " ")
    .normalize("NFKC");
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const CVC_KEY = /["'\[]?(?:card_?)?(?:cvc2?|cvv2?|csc|security_?code|codigo_?(?:de_?)?seguranca)["'\]]?\s*[:=]\s*["']?(\d{3,4})(?!\d)/i;
const CARD_CONTEXT = /card|last_?4|exp_?(?:month|year)|brand|cart[aã]o/i;
const CARD_LIKE = /(?<![0-9A-Za-z+])(?:\d{13,19}|\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?:\1\d{1,3})?|\d{4}([ -])\d{6}\2\d{4,5})(?![0-9A-Za-z])/g;
const GENERIC_KEY = /bk_(?:live|test)_[0-9A-Za-z]{32}/;
/**
 * A gateway's clear secret key; hints such as sk_test_...4242 or APP_...1234 are not. Stripe sk_/rk_ live or
 * test, Pagar.me sk_/sk_test_, a Mercado Pago access token APP_USR-/TEST-<app>-<date>-<hex>-<user>.
 */
const GATEWAY_KEY = /\b[sr]k_(?:live_|test_)?[0-9A-Za-z]{16,}|\b(?:APP_USR|TEST)-[0-9a-f]{8,}-\d{6}-[0-9a-f]{32}-\d+/;

export class SecretScanner {
  private readonly cards: RegExp;
  private readonly keys: RegExp;
  private readonly cvcNearCard: RegExp;

  constructor(secrets: Secrets) {
    // A used number, with or without separators between its digits.
    this.cards = new RegExp(`(?<!\\d)(?:${secrets.cardNumbers.map((n) => n.replace(/\D/g, "").split("").join("[^0-9A-Za-z]{0,3}")).join("|")})(?!\\d)`);
    this.keys = new RegExp([...secrets.keys.map(escape), GENERIC_KEY.source, GATEWAY_KEY.source].join("|"));
    this.cvcNearCard = new RegExp(`(?:"|=)(?:${secrets.cvcs.map(escape).join("|")})(?:"|&|$)`);
  }

  scan(source: string, raw: string): Finding[] {
    const out: Finding[] = [];
    const text = readable(raw);
    const excerpt = (i: number) => text.slice(Math.max(0, i - 60), i + 80);
    const card = this.cards.exec(text);
    if (card) out.push({ source, kind: "card_number", excerpt: excerpt(card.index) });
    // Delimited runs only (hex digests and ids hold digit runs inside longer words), contiguous or
    // grouped as cards are printed (4-4-4-4[-1..3], 4-6-4/5), so "2967-1276696502" is not a card.
    for (const m of text.matchAll(CARD_LIKE)) {
      const digits = m[0].replace(/\D/g, "");
      if (/^[2-6]/.test(digits) && luhn(digits)) {
        out.push({ source, kind: "card_like_number", excerpt: excerpt(m.index) });
        break;
      }
    }
    const field = CVC_KEY.exec(text);
    if (field) out.push({ source, kind: "cvc_field", excerpt: excerpt(field.index) });
    if (CARD_CONTEXT.test(text)) {
      const cvc = this.cvcNearCard.exec(text);
      if (cvc) out.push({ source, kind: "cvc_next_to_card", excerpt: excerpt(cvc.index) });
    }
    const key = this.keys.exec(text);
    if (key) out.push({ source, kind: "api_key", excerpt: excerpt(key.index) });
    return out;
  }
}
