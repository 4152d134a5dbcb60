// In-process cache of API-key lookups. Exact, not eventual: every write that changes what a key may
// do (revoke, read-only, suspend, clock move) clears it here and, through PostgreSQL NOTIFY, on every
// other instance, and returns only once every listening instance has acknowledged the drop (or after
// ACK_TIMEOUT_MS, for an instance that hangs). A lookup that raced with a drop is not cached. The TTL
// only bounds memory and protects against a lost notification (a broken LISTEN connection).
import type { Db } from "../../prisma/client.ts";
import { randomBase62 } from "../shared/secrets.ts";

export interface KeyRecord {
  keyId: string;
  tenantId: string;
  scope: "READ" | "WRITE";
  revoked: boolean;
  /** Set on a rolled key: refused from this wall-clock instant. */
  expiresAt: Date | null;
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
/** How long a write waits for the other instances' acknowledgements before returning anyway. */
const ACK_TIMEOUT_MS = 2_000;

/** Sessions listening on the channel: one per running instance (each LISTEN client runs nothing else). */
const LISTENERS_SQL = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN ${CHANNEL}'`;

export class KeyCache {
  private entries = new Map<string, { record: KeyRecord | null; expires: number }>();
  private acks = new Map<string, () => void>();
  private listening = false;
  /** Bumped by every drop: a lookup that started before a drop must not refill the cache with what it read. */
  private generation = 0;

  constructor(private readonly db: Db) {}

  async start(): Promise<void> {
    // Payloads: "<tenant id>" (older senders), "<tenant id> <nonce>" (drop, then acknowledge), "ack <nonce>".
    await this.db.listen(CHANNEL, (payload) => {
      const [first = "", nonce] = payload.split(" ");
      if (first === "ack") return void (nonce && this.acks.get(nonce)?.());
      this.dropLocal(first);
      if (nonce) void this.db.notify(CHANNEL, `ack ${nonce}`).catch(() => undefined);
    });
    this.listening = true;
  }

  /** The generation to hand back to set() after a lookup. */
  get currentGeneration(): number {
    return this.generation;
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

  /** Caches a lookup unless a drop happened since `generation` was read (the record may predate it). */
  set(hash: string, record: KeyRecord | null, nowMs: number, generation = this.generation): void {
    if (generation !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, { record, expires: nowMs + TTL_MS });
  }

  /** Call after committing a change to a tenant or its keys. */
  async invalidateTenant(tenantId: string): Promise<void> {
    this.dropLocal(tenantId);
    // The embedded database has one instance: this one.
    if (!this.listening || this.db.kind !== "postgres") return void (await this.db.notify(CHANNEL, tenantId));
    const expected = await this.db.sql
      .query(LISTENERS_SQL)
      .then((rows) => Number((rows[0] as { n?: number } | undefined)?.n ?? 1))
      .catch(() => 1);
    const nonce = randomBase62(16);
    let seen = 0;
    let timer: NodeJS.Timeout | undefined;
    const acknowledged = new Promise<void>((resolve) => {
      this.acks.set(nonce, () => ++seen >= expected && resolve());
      timer = setTimeout(resolve, ACK_TIMEOUT_MS);
      timer.unref();
    });
    try {
      await this.db.notify(CHANNEL, `${tenantId} ${nonce}`);
      await acknowledged;
    } finally {
      clearTimeout(timer);
      this.acks.delete(nonce);
    }
  }

  private dropLocal(tenantId: string): void {
    this.generation++;
    for (const [hash, entry] of this.entries) {
      // Unknown keys are cached as null; a new key for any tenant must become visible, so drop those too.
      if (!entry.record || entry.record.tenantId === tenantId) this.entries.delete(hash);
    }
  }
}
