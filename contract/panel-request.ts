// What the panel tells the core about the browser behind a call, in the GraphQL request's
// `extensions.panel`: the browser's address and user agent (for sign-in limits and the sessions
// list). Believed only from a trusted caller (in process, or with FACADE_SECRET; schema/entry-gate.ts);
// from anyone else it is ignored. Its presence also marks a call made by the panel: only then is a
// panel session token (ps_…) a credential, and only then may a call without one reach the sign-in
// operations.

export interface PanelClient {
  address: string;
  userAgent: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

export function panelClientOf(extensions: unknown): PanelClient | null {
  const p = isRecord(extensions) ? extensions.panel : undefined;
  if (!isRecord(p) || typeof p.address !== "string" || typeof p.userAgent !== "string") return null;
  return { address: p.address.slice(0, 100), userAgent: p.userAgent.slice(0, 300) };
}
