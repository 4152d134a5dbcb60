// TRUST_PROXY: which reverse proxies may name the client's address in X-Forwarded-For. Unset: none,
// the socket's address is the client's (a client-set header is never believed). A hop count ("1") or
// proxy addresses and subnets ("loopback", "10.0.0.0/8,10.1.2.3"); "true" (believe anyone) is refused.
export function trustProxyFromEnv(value = process.env.TRUST_PROXY): false | number | string[] {
  const v = (value ?? "").trim();
  if (!v || v === "false") return false;
  if (/^\d+$/.test(v)) return Number(v);
  if (v === "true") throw new Error("TRUST_PROXY=true would believe any client's X-Forwarded-For: name the proxies (addresses, subnets or a hop count)");
  return v.split(",").map((s) => s.trim()).filter(Boolean);
}
