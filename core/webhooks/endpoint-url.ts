// Webhook endpoint URL rules: http(s) only, no credentials, and no target inside our network (SSRF
// guard), for every tenant. SANDBOX tenants may also use loopback (127.0.0.0/8, ::1, localhost) for
// local receivers; nothing else inside, or a sandbox key could reach the metadata service or map the
// private network. IPv6 forms that carry an IPv4 address (mapped, translated, NAT64, 6to4, Teredo) are
// judged by that address too. The URL parser has already turned decimal, hex and octal IPv4 spellings
// ("2130706433", "0x7f.1", "0177.0.0.1") into dotted quads. A name is checked again after DNS, at
// creation and on every connection (post-webhook.ts).
import dns from "node:dns";
import net from "node:net";
import { AppError } from "../shared/errors.ts";

export type TenantMode = "LIVE" | "SANDBOX";

/** IPv4 ranges that are not the public internet (RFC 6890 special-purpose registry and friends). */
const PRIVATE_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

/**
 * IPv6 outside the global unicast block 2000::/3 is never public (IANA: the rest is reserved, unique
 * local, link-local or multicast), except the forms below that carry an IPv4 address and are judged by it.
 * Inside 2000::/3 these stay refused outright.
 */
const PRIVATE_V6: [string, number][] = [
  ["2001::", 23], // IETF protocol assignments: Teredo (also judged by its embedded addresses), ORCHID, benchmarking
  ["2001:db8::", 32], // documentation
];

const blocked = new net.BlockList();
for (const [a, p] of PRIVATE_V4) blocked.addSubnet(a, p, "ipv4");
for (const [a, p] of PRIVATE_V6) blocked.addSubnet(a, p, "ipv6");
const globalUnicast = new net.BlockList();
globalUnicast.addSubnet("2000::", 3, "ipv6");

/** The 16 bytes of an IPv6 address (embedded dotted quad allowed); null when not IPv6. */
function v6Bytes(address: string): number[] | null {
  if (!net.isIPv6(address)) return null;
  let text = address.toLowerCase().replace(/%.*$/, "");
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -quad[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? (text.split("::") as [string, string]) : [text, null];
  const h = head ? head.split(":") : [];
  const t = tail === null ? [] : tail ? tail.split(":") : [];
  const groups = tail === null ? h : [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
}

type Embedded = { v4: string[]; judgedByV4: boolean };

/**
 * The IPv4 addresses an IPv6 one carries, and whether that IPv4 alone decides (the packet goes to it):
 * mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96 (RFC 2765), NAT64 64:ff9b::/96 (RFC 6052); and the
 * tunnels whose IPv6 range is judged as well: 6to4 2002::/16 (bits 16-47), Teredo 2001::/32 (server in
 * bits 32-63, client XOR 0xffffffff in the last 32), IPv4-compatible ::/96 (deprecated).
 */
function embeddedV4(bytes: number[]): Embedded | null {
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const quad = (from: number, xor = 0) => bytes.slice(from, from + 4).map((b) => b ^ xor).join(".");
  const is = (from: number, ...values: number[]) => values.every((v, i) => bytes[from + i] === v);
  if (zero(0, 10) && is(10, 0xff, 0xff)) return { v4: [quad(12)], judgedByV4: true };
  if (zero(0, 8) && is(8, 0xff, 0xff, 0, 0)) return { v4: [quad(12)], judgedByV4: true };
  if (is(0, 0x00, 0x64, 0xff, 0x9b) && zero(4, 12)) return { v4: [quad(12)], judgedByV4: true };
  if (is(0, 0x20, 0x02)) return { v4: [quad(2)], judgedByV4: false };
  if (is(0, 0x20, 0x01, 0, 0)) return { v4: [quad(4), quad(12, 0xff)], judgedByV4: false };
  if (zero(0, 12)) return { v4: [quad(12)], judgedByV4: false };
  return null;
}

/** An IP address literal (v4 or v6) outside the public internet. */
export function isPrivateAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, "");
  if (net.isIPv4(a)) return blocked.check(a, "ipv4");
  const bytes = v6Bytes(a);
  if (!bytes) return false;
  const embedded = embeddedV4(bytes);
  if (embedded?.v4.some((v4) => blocked.check(v4, "ipv4"))) return true;
  if (embedded?.judgedByV4) return false;
  const v6 = a.replace(/%.*$/, "");
  return !globalUnicast.check(v6, "ipv6") || blocked.check(v6, "ipv6");
}

/** Loopback proper: 127.0.0.0/8, ::1 and the IPv4-mapped ::ffff:127.x.y.z (not NAT64 or 6to4 forms, routed elsewhere). */
export function isLoopbackAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (net.isIPv4(a)) return a.split(".")[0] === "127";
  const bytes = v6Bytes(a);
  if (!bytes) return false;
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return true;
  return bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255 && bytes[12] === 127;
}

/** An address a tenant's deliveries may connect to: public, or loopback for SANDBOX tenants. */
export function isAllowedAddress(address: string, mode: TenantMode): boolean {
  return !isPrivateAddress(address) || (mode === "SANDBOX" && isLoopbackAddress(address));
}

const loopbackName = (h: string) => h === "localhost" || h.endsWith(".localhost");

/** A URL host that is loopback by itself: localhost names, 127.0.0.0/8, ::1 and ::ffff:127.x.y.z. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  return net.isIP(h) ? isLoopbackAddress(h) : loopbackName(h);
}

/** A URL host (name or literal) that is private by itself, before any DNS. */
export function isPrivateHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (loopbackName(h) || h.endsWith(".internal") || h.endsWith(".local") || h.endsWith(".home.arpa")) return true;
  if (net.isIP(h)) return isPrivateAddress(h);
  return false;
}

/** A URL host the tenant may name, before any DNS (names are judged again on their addresses). */
export function isAllowedHost(host: string, mode: TenantMode): boolean {
  const h = host.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (!isPrivateHost(h)) return true;
  if (mode !== "SANDBOX") return false;
  return net.isIP(h) ? isLoopbackAddress(h) : loopbackName(h);
}

export const refusedMessage = (mode: TenantMode) =>
  mode === "LIVE" ? "url must not target a private or loopback address" : "url must not target a private address (SANDBOX tenants may use loopback only)";

export function validateEndpointUrl(raw: string, mode: TenantMode): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("invalid_argument", { error: "url is not a valid URL" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new AppError("invalid_argument", { error: "url must be http or https" });
  if (url.username || url.password) throw new AppError("invalid_argument", { error: "url must not carry credentials" });
  if (!isAllowedHost(url.hostname, mode)) throw new AppError("invalid_argument", { error: refusedMessage(mode) });
  return url.toString();
}

/**
 * A name that resolves (now) to any address the tenant may not reach is refused at creation. A name
 * that does not resolve yet is accepted: every delivery checks the addresses again before connecting.
 */
export async function assertResolvesAllowed(url: string, mode: TenantMode): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) return; // literals were judged by validateEndpointUrl
  const addresses = await dns.promises.lookup(host, { all: true, verbatim: true }).catch(() => []);
  if (addresses.some((a) => !isAllowedAddress(a.address, mode))) throw new AppError("invalid_argument", { error: refusedMessage(mode) });
}
