import { describe, expect, it } from "vitest";
import { brCode, centsToDecimal, crc16, parseBrCode } from "../../../core/gateways/pix-br-code.ts";

describe("Pix BR Code", () => {
  it("computes CRC16/CCITT-FALSE (check value of 123456789 is 29B1)", () => {
    expect(crc16("123456789")).toBe("29B1");
  });

  it.each([
    [1, "0.01"],
    [99, "0.99"],
    [100, "1.00"],
    [4990, "49.90"],
    [123456789, "1234567.89"],
  ])("writes %i cents as %s", (cents, text) => {
    expect(centsToDecimal(cents)).toBe(text);
  });

  it("builds a payload whose fields and CRC check out", () => {
    const payload = brCode({ pixKey: "pix@example.com", amountCents: 4990, merchantName: "Loja São João", merchantCity: "São Paulo", txid: "inv_01ARZ3NDEK" });
    const fields = parseBrCode(payload)!;
    expect(fields.get("00")).toBe("01");
    expect(fields.get("26")).toBe("0014br.gov.bcb.pix0115pix@example.com");
    expect(fields.get("53")).toBe("986");
    expect(fields.get("54")).toBe("49.90");
    expect(fields.get("58")).toBe("BR");
    expect(fields.get("59")).toBe("Loja Sao Joao");
    expect(fields.get("60")).toBe("Sao Paulo");
    expect(fields.get("62")).toBe("0513inv01ARZ3NDEK");
    expect(payload).toMatch(/6304[0-9A-F]{4}$/);
  });

  it("rejects a payload with a wrong CRC or broken TLVs", () => {
    const payload = brCode({ pixKey: "k", amountCents: 100, merchantName: "A", merchantCity: "B", txid: "x1" });
    expect(parseBrCode(payload.slice(0, -1) + (payload.endsWith("0") ? "1" : "0"))).toBeNull();
    expect(parseBrCode("0002")).toBeNull();
    expect(() => brCode({ pixKey: "k", amountCents: 0, merchantName: "A", merchantCity: "B", txid: "x" })).toThrow();
  });
});
