// Pix "copia e cola" payload: a BR Code in EMV merchant-presented TLV form, ending in a CRC16
// (CCITT-FALSE: poly 0x1021, init 0xFFFF) over everything up to and including "6304".

export interface BrCodeInput {
  /** Pix key of the receiver (the gateway account's). */
  pixKey: string;
  amountCents: number;
  merchantName: string;
  merchantCity: string;
  /** Transaction id, 1-25 letters or digits; the charge's own reference. */
  txid: string;
}

function tlv(id: string, value: string): string {
  if (value.length > 99) throw new RangeError(`BR Code field ${id} longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
}

/** Integer cents as the decimal text EMV expects ("1234.50"), without floating point. */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 1) throw new RangeError("amount must be a positive integer of cents");
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, "utf8")) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** ASCII only, as payer apps expect: accents dropped, other characters removed. */
function plain(text: string, max: number): string {
  return text.normalize("NFD").replace(/[^\x20-\x7e]/g, "").trim().slice(0, max) || "NA";
}

export function brCode(input: BrCodeInput): string {
  const txid = input.txid.replace(/[^A-Za-z0-9]/g, "").slice(0, 25) || "***";
  const body =
    tlv("00", "01") +
    tlv("01", "12") + // dynamic: one payment
    tlv("26", tlv("00", "br.gov.bcb.pix") + tlv("01", input.pixKey)) +
    tlv("52", "0000") +
    tlv("53", "986") +
    tlv("54", centsToDecimal(input.amountCents)) +
    tlv("58", "BR") +
    tlv("59", plain(input.merchantName, 25)) +
    tlv("60", plain(input.merchantCity, 15)) +
    tlv("62", tlv("05", txid)) +
    "6304";
  return body + crc16(body);
}

/** Parses top-level TLVs and checks the CRC; null when the payload is not a valid BR Code. */
export function parseBrCode(payload: string): Map<string, string> | null {
  if (payload.length < 8 || crc16(payload.slice(0, -4)) !== payload.slice(-4).toUpperCase()) return null;
  const fields = new Map<string, string>();
  let i = 0;
  while (i < payload.length) {
    const id = payload.slice(i, i + 2);
    const len = Number(payload.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(len) || i + 4 + len > payload.length) return null;
    fields.set(id, payload.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return fields;
}
