// Why a delivery attempt failed, as the tenant sees it: a category, never the socket's own message.
// A raw message ("connect ECONNREFUSED 10.0.0.5:22") names addresses and ports, and reading one per
// attempt turned the delivery log into a port scanner. The raw text goes to the server log only.
export const DELIVERY_ERRORS = [
  "http_status", // the receiver answered, but not 2xx (3xx included: redirects are not followed); see the status code
  "connection_refused", // nothing listens on that port
  "timeout", // no answer within the 10 s cut (or the connection attempt timed out)
  "tls_error", // the TLS handshake or the certificate check failed
  "dns_error", // the name did not resolve
  "address_not_allowed", // the URL or the name's addresses lie outside what the tenant may reach (SSRF guard); nothing was sent
  "connection_error", // any other network failure: reset, unreachable, closed before the answer
  "invalid_url", // the stored URL cannot be parsed (fatal, not retried)
] as const;

export type DeliveryError = (typeof DELIVERY_ERRORS)[number];

const KNOWN = new Set<string>(DELIVERY_ERRORS);

/** Error codes of Node's TLS layer and OpenSSL's certificate checks. */
const TLS_CODE = /^(?:ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|INVALID_CA|EPROTO$)/;
const DNS_CODE = /^(?:ENOTFOUND|EAI_|ENODATA|ESERVFAIL|ENONAME)/;

/** The guard's refusal carries this code (endpoint-url.ts, post-webhook.ts). */
export const ADDRESS_NOT_ALLOWED_CODE = "ERR_WEBHOOK_ADDRESS_NOT_ALLOWED";

/**
 * The category of a request error. `inHandshake`: the TCP connection was up but TLS was not, so a
 * reset there is the handshake failing.
 */
export function categorizeError(err: NodeJS.ErrnoException & { library?: string }, opts: { timedOut: boolean; inHandshake: boolean }): DeliveryError {
  const code = String(err.code ?? "");
  if (opts.timedOut || code === "ETIMEDOUT" || code === "ESOCKETTIMEDOUT") return "timeout";
  if (code === ADDRESS_NOT_ALLOWED_CODE) return "address_not_allowed";
  if (code === "ECONNREFUSED") return "connection_refused";
  if (DNS_CODE.test(code) || err.syscall === "getaddrinfo" || err.syscall === "queryA" || err.syscall === "queryAaaa") return "dns_error";
  if (TLS_CODE.test(code) || err.library === "SSL routines" || opts.inHandshake) return "tls_error";
  return "connection_error";
}

/**
 * The category to show for a stored error. Rows written before categories existed hold the raw
 * message; they are read through this too, so no old row exposes one.
 */
export function deliveryErrorFor(stored: string | null, statusCode: number | null): DeliveryError | null {
  if (stored === null) return null;
  if (KNOWN.has(stored)) return stored as DeliveryError;
  if (/^HTTP \d+$/.test(stored) || statusCode !== null) return "http_status";
  if (stored === "malformed endpoint URL") return "invalid_url";
  if (/^timeout after|ETIMEDOUT/.test(stored)) return "timeout";
  if (/^refused: /.test(stored)) return "address_not_allowed";
  if (/ECONNREFUSED/.test(stored)) return "connection_refused";
  if (/ENOTFOUND|EAI_AGAIN|getaddrinfo/.test(stored)) return "dns_error";
  if (/certificate|SSL|TLS|EPROTO|self[- ]signed|altnames/i.test(stored)) return "tls_error";
  return "connection_error";
}
