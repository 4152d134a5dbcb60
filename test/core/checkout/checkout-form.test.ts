// The hosted checkout's form parser: tables of good and bad inputs, each refusal naming its field.
import { describe, expect, it } from "vitest";
import { parseCheckoutForm } from "../../../core/checkout/checkout-form.ts";
import { normalizeMobile } from "../../../core/customers/phone.ts";
import { normalizeTaxDocument } from "../../../core/customers/tax-document.ts";

const NOW = new Date("2026-03-15T12:00:00Z");
const BOTH: ("card" | "pix")[] = ["card", "pix"];

const CARD = {
  card_holder: "MARIA SILVA",
  card_number: "4242 4242 4242 4242",
  card_exp_month: "12",
  card_exp_year: "2030",
  card_cvc: "123",
};
const BASE = { name: "Maria Silva", email: "maria@example.com", phone: "11987654321", doc: "529.982.247-25", method: "card", ...CARD };

const parse = (over: Record<string, unknown>, methods = BOTH) => parseCheckoutForm({ ...BASE, ...over }, { now: NOW, methods });
const refusal = (over: Record<string, unknown>, methods = BOTH) => {
  const r = parse(over, methods);
  return r.ok ? null : { field: r.field, error: r.error };
};

describe("normalizeTaxDocument", () => {
  it.each([
    ["529.982.247-25", "52998224725"],
    ["52998224725", "52998224725"],
    ["111.444.777-35", "11144477735"],
    ["11.222.333/0001-81", "11222333000181"],
    ["45723174000110", "45723174000110"],
    [" 529 982 247 25 ", "52998224725"],
  ])("accepts %s", (input, digits) => expect(normalizeTaxDocument(input)).toBe(digits));

  it.each(["52998224724", "529.982.247-26", "11111111111", "00000000000", "11222333000180", "11.222.333/0001-82", "00000000000000", "1234567890", "12ABC34501DE35", "cpf 52998224725", ""])(
    "refuses %s",
    (input) => expect(normalizeTaxDocument(input)).toBeNull(),
  );
});

describe("normalizeMobile", () => {
  it.each([
    ["11987654321", "+5511987654321"],
    ["(11) 98765-4321", "+5511987654321"],
    ["+55 11 98765-4321", "+5511987654321"],
    ["5511987654321", "+5511987654321"],
    ["+55 (21) 99876-5432", "+5521998765432"],
    ["+1 415 555 2671", "+14155552671"],
    ["+44 7911 123456", "+447911123456"],
  ])("accepts %s as %s", (input, e164) => expect(normalizeMobile(input)).toBe(e164));

  it.each(["1133334444", "(11) 3333-4444", "+55 11 3333-4444", "+44 20 7946 0018", "119876543", "abc11987654321", "", "98765-4321"])("refuses %s", (input) =>
    expect(normalizeMobile(input)).toBeNull(),
  );
});

describe("parseCheckoutForm", () => {
  it("turns a valid card form into CheckoutFields", () => {
    expect(parse({ external_id: "  u-42 ", coupon: " BEMVINDO ", ref: "" })).toEqual({
      ok: true,
      value: {
        externalId: "u-42",
        name: "Maria Silva",
        email: "maria@example.com",
        phone: "+5511987654321",
        doc: "52998224725",
        method: "card",
        card: { holder: "MARIA SILVA", number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" },
        coupon: "BEMVINDO",
        ref: null,
        quantity: 1,
      },
    });
  });

  it("ignores card fields for Pix, whatever they hold", () => {
    const r = parse({ method: "pix", card_number: "1234", card_cvc: ["x"], card_exp_month: "99" });
    expect(r).toMatchObject({ ok: true, value: { method: "pix", card: null, externalId: null, coupon: null, ref: null } });
  });

  it("accepts JSON numbers and other valid spellings", () => {
    expect(parse({ card_exp_month: 3, card_exp_year: 26, card_number: "4242-4242-4242-4242", email: " Maria@Example.COM " })).toMatchObject({
      ok: true,
      value: { email: "maria@example.com", card: { number: "4242424242424242", expMonth: 3, expYear: 2026 } },
    });
    // American Express takes a 4-digit code.
    expect(parse({ card_number: "378282246310005", card_cvc: "1234" })).toMatchObject({ ok: true, value: { card: { cvc: "1234" } } });
    expect(parse({ doc: "11.222.333/0001-81" })).toMatchObject({ ok: true, value: { doc: "11222333000181" } });
    expect(parse({ phone: "+1 415 555 2671" })).toMatchObject({ ok: true, value: { phone: "+14155552671" } });
  });

  it.each<[string, Record<string, unknown>, string, string, ("card" | "pix")[]?]>([
    ["external_id too long", { external_id: "x".repeat(201) }, "external_id", "external_id inválido (até 200 caracteres)"],
    ["missing name", { name: "  " }, "name", "informe seu nome"],
    ["name as an array", { name: ["a", "b"] }, "name", "nome inválido"],
    ["missing e-mail", { email: undefined }, "email", "informe seu e-mail"],
    ["bad e-mail", { email: "maria@" }, "email", "e-mail inválido"],
    ["missing phone", { phone: "" }, "phone", "informe um celular válido"],
    ["landline", { phone: "(11) 3333-4444" }, "phone", "informe um celular válido"],
    ["short phone", { phone: "98765-4321" }, "phone", "informe um celular válido"],
    ["missing doc", { doc: null }, "doc", "informe seu CPF ou CNPJ"],
    ["CPF with a wrong check digit", { doc: "529.982.247-24" }, "doc", "CPF ou CNPJ inválido"],
    ["CPF of repeated digits", { doc: "111.111.111-11" }, "doc", "CPF ou CNPJ inválido"],
    ["CNPJ with a wrong check digit", { doc: "11.222.333/0001-80" }, "doc", "CPF ou CNPJ inválido"],
    ["12 digits", { doc: "529982247251" }, "doc", "CPF ou CNPJ inválido"],
    ["missing method", { method: "" }, "method", "escolha a forma de pagamento"],
    ["unknown method", { method: "boleto" }, "method", "forma de pagamento indisponível nesta oferta"],
    ["method the offer lacks", { method: "pix" }, "method", "forma de pagamento indisponível nesta oferta", ["card"]],
    ["missing holder", { card_holder: "" }, "card_holder", "informe o nome impresso no cartão"],
    ["missing card number", { card_number: "" }, "card_number", "informe o número do cartão"],
    ["Luhn failure", { card_number: "4242424242424241" }, "card_number", "número de cartão inválido"],
    ["letters in the number", { card_number: "4242x4242x4242x4242" }, "card_number", "número de cartão inválido"],
    ["too short", { card_number: "4242" }, "card_number", "número de cartão inválido"],
    ["month 13", { card_exp_month: "13" }, "card_exp_month", "mês de validade inválido"],
    ["month 0", { card_exp_month: "0" }, "card_exp_month", "mês de validade inválido"],
    ["3-digit year", { card_exp_year: "203" }, "card_exp_year", "ano de validade inválido"],
    ["far year", { card_exp_year: "2099" }, "card_exp_year", "ano de validade inválido"],
    ["expired last month", { card_exp_month: "2", card_exp_year: "2026" }, "card_exp_year", "cartão vencido"],
    ["expired last year", { card_exp_month: "12", card_exp_year: "25" }, "card_exp_year", "cartão vencido"],
    ["2-digit CVC", { card_cvc: "12" }, "card_cvc", "código de segurança inválido"],
    ["4-digit CVC on Visa", { card_cvc: "1234" }, "card_cvc", "código de segurança inválido"],
    ["3-digit CVC on Amex", { card_number: "378282246310005", card_cvc: "123" }, "card_cvc", "código de segurança inválido"],
    ["missing CVC", { card_cvc: "" }, "card_cvc", "informe o código de segurança"],
    ["coupon as an object", { coupon: { a: 1 } }, "coupon", "cupom inválido"],
    ["ref too long", { ref: "r".repeat(101) }, "ref", "código de indicação inválido"],
  ])("refuses %s", (_case, over, field, error, methods) => {
    expect(refusal(over, methods)).toEqual({ field, error });
  });

  it("accepts a card expiring this very month", () => {
    expect(parse({ card_exp_month: "3", card_exp_year: "2026" }).ok).toBe(true);
  });

  it("reports the first bad field in form order", () => {
    expect(refusal({ name: "", email: "x", doc: "1", card_number: "1" })?.field).toBe("name");
    expect(refusal({ doc: "1", card_number: "1", coupon: [] })?.field).toBe("doc");
    expect(refusal({ card_number: "1", card_cvc: "1", coupon: [] })?.field).toBe("card_number");
    expect(refusal({ coupon: [], ref: [] })?.field).toBe("coupon");
  });

  it("never puts the card number or CVC in a message", () => {
    const secrets = ["4242424242424241", "4242 4242 4242 4241", "98765"];
    for (const over of [{ card_number: secrets[0] }, { card_number: secrets[1] }, { card_cvc: secrets[2] }, { card_number: ["4242424242424242"] }]) {
      const r = refusal(over);
      expect(r).not.toBeNull();
      for (const s of [...secrets, "4242"]) expect(r!.error).not.toContain(s);
    }
  });
});
