// Pure rules of the lifecycle routes: the reschedule date parser and the cancellation e-mail text.
import { describe, expect, it } from "vitest";
import { renderCancellationEmail } from "../../core/emails/render-cancellation-email.ts";
import { parseIsoDateTime } from "../../core/subscriptions/reschedule-subscription.ts";

describe("parseIsoDateTime", () => {
  it.each([
    ["2027-02-28T10:00:00Z", "2027-02-28T10:00:00.000Z"],
    ["2028-02-29T23:59:59.123Z", "2028-02-29T23:59:59.123Z"],
    ["2027-12-31T21:00:00-03:00", "2028-01-01T00:00:00.000Z"],
    ["2027-03-10T10:00+01:00", "2027-03-10T09:00:00.000Z"],
    ["2027-03-10t10:00:00z", "2027-03-10T10:00:00.000Z"],
  ])("%s is %s", (input, iso) => expect(parseIsoDateTime(input)?.toISOString()).toBe(iso));

  it.each([null, "", "2027-02-29T10:00:00Z", "2027-02-30T10:00:00Z", "2027-04-31T00:00:00Z", "2027-13-01T00:00:00Z", "2027-01-01T24:00:00Z",
    "2027-01-01T10:60:00Z", "2027-01-01T10:00:00", "2027-01-01", "2027-01-01T10:00:00+25:00", "tomorrow", "1800000000"])("%s is invalid", (input) =>
    expect(parseIsoDateTime(input)).toBeNull());
});

describe("renderCancellationEmail", () => {
  it("speaks pt-BR, greets by first name and carries the reason only when given", () => {
    const base = { customerName: "  Maria  da Silva", tenantName: "Loja X", planName: "Pro", canceledAt: new Date("2027-01-05T23:30:00Z"), reason: null };
    const plain = renderCancellationEmail(base);
    expect(plain.subject).toBe("Sua assinatura do plano Pro foi cancelada");
    expect(plain.body).toContain("Olá, Maria.");
    expect(plain.body).toContain("foi cancelada em 05/01/2027");
    expect(plain.body).not.toContain("Motivo");
    expect(renderCancellationEmail({ ...base, reason: "  caro " }).body).toContain("Motivo informado: caro");
    expect(renderCancellationEmail({ ...base, customerName: "" }).body).toContain("Olá, cliente.");
  });
});
