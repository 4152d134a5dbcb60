// In-process cache of API-key lookups. Exact, not eventual: every write that changes what a key may
// do (revoke, read-only, suspend, clock move) clears it here and, through PostgreSQL NOTIFY, on every
// other instance. The TTL only bounds memory and protects against a lost notification.
import type { Db } from "../../prisma/client.ts";

export interface KeyRecord {
  keyId: string;
  tenantId: string;
  scope: "READ" | "WRITE";
  revoked: boolean;
  tenant: {
    mode: "LIVE" | "SANDBOX";
    readOnly: boolean;
    suspended: boolean;
    clockAt: Date | null;
    readRateLimit: number | null;
    writeRateLimit: number | null;
  };
}

const CHANNEL = "billing_auth_changed";
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

export class KeyCache {
  private entries = new Map<string, { record: KeyRecord | null; expires: number }>();

  constructor(private readonly db: Db) {}

  async start(): Promise<void> {
    await this.db.listen(CHANNEL, (tenantId) => this.dropLocal(tenantId));
  }

  get(hash: string, nowMs: number): KeyRecord | null | undefined {
    const hit = this.entries.get(hash);
    if (!hit) return undefined;
    if (hit.expires < nowMs) {
      this.entries.delete(hash);
      return undefined;
    }
    return hit.record;
  }

  set(hash: string, record: KeyRecord | null, nowMs: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, { record, expires: nowMs + TTL_MS });
  }

  /** Call after committing a change to a tenant or its keys. */
  async invalidateTenant(tenantId: string): Promise<void> {
    this.dropLocal(tenantId);
    await this.db.notify(CHANNEL, tenantId);
  }

  private dropLocal(tenantId: string): void {
    for (const [hash, entry] of this.entries) {
      // Unknown keys are cached as null; a new key for any tenant must become visible, so drop those too.
      if (!entry.record || entry.record.tenantId === tenantId) this.entries.delete(hash);
    }
  }
}
