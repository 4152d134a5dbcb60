// The injected clock. LIVE tenants read the wall clock; SANDBOX tenants read their own stored clock
// (moved only by advanceClock). core/ never calls new Date() for business time: it asks a Clock.

export interface Clock {
  now(): Date;
}

export const wallClock: Clock = { now: () => new Date() };

export function fixedClock(at: Date): Clock {
  return { now: () => new Date(at.getTime()) };
}

export interface TenantClockSource {
  mode: "LIVE" | "SANDBOX";
  clockAt: Date | null;
}

/** The clock of one tenant: its sandbox instant when set, otherwise the wall clock. */
export function tenantClock(tenant: TenantClockSource, wall: Clock = wallClock): Clock {
  if (tenant.mode === "SANDBOX" && tenant.clockAt) return fixedClock(tenant.clockAt);
  return wall;
}
