import { describe, expect, it } from "vitest";
import { parseCustomerEmail, parseCustomerName, parseCustomerPhone, storedMobile } from "../../../core/customers/customer-fields.ts";
import { AppError } from "../../../core/shared/errors.ts";

const keyOf = (fn: () => unknown) => {
  try {
    fn();
    return "accepted";
  } catch (e) {
    return e instanceof AppError ? e.key : String(e);
  }
};

describe("customer fields", () => {
  it.each([
    ["11987654321", "+5511987654321"],
    ["(11) 98765-4321", "+5511987654321"],
    ["+55 21 99876-5432", "+5521998765432"],
    ["+44 7911 123456", "+447911123456"],
  ])("takes the mobile %s as %s", (input, e164) => expect(parseCustomerPhone(input)).toBe(e164));

  it.each(["(11) 3333-4444", "98765-4321", "+55 11 98765-432100", "", 11987654321, null])("refuses the phone %s", (input) =>
    expect(keyOf(() => parseCustomerPhone(input))).toBe("invalid_phone"),
  );

  it("trims and lower-cases e-mails, refuses malformed ones", () => {
    expect(parseCustomerEmail("  Ana@Example.COM ")).toBe("ana@example.com");
    for (const bad of ["a@b", "a b@c.com", "", `${"x".repeat(250)}@example.com`, undefined]) expect(keyOf(() => parseCustomerEmail(bad))).toBe("invalid_email");
  });

  it("trims names and keeps them to 2..200 characters without control characters", () => {
    expect(parseCustomerName("  Ana Souza ")).toBe("Ana Souza");
    expect(parseCustomerName("Zé")).toBe("Zé");
    for (const bad of ["", " A ", "x".repeat(201), "a\u0000b"]) expect(keyOf(() => parseCustomerName(bad))).toBe("invalid_name");
  });

  it("reads a stored phone as a mobile only when it is one", () => {
    expect(storedMobile("+5511987654321")).toBe("+5511987654321");
    expect(storedMobile("11987654321")).toBe("+5511987654321");
    expect(storedMobile("(11) 3333-4444")).toBeNull();
    expect(storedMobile(null)).toBeNull();
  });
});
