// In-process cache of GET /v1/entitlements answers, per tenant and customer key. What invalidates it is
// written in the same transaction as the change: database triggers (migration entitlements_notify) NOTIFY
// "billing_entitlements_changed" with "<tenant> <customer>" or "<tenant> *" for every row change that
// can change an answer, whoever wrote the row; PostgreSQL sends it at commit, to every instance.
//
// Staleness bound: an instance serves the new answer as soon as it has read the notification (a few
// ms after commit). A GraphQL mutation does not return before this instance has read every
// notification committed before it (fence()), so a caller reads its own writes here. An answer is
// cached only while the LISTEN connection is up: losing it clears the cache and caching resumes once
// listening again. TTL_MS bounds what a connection that died silently could leave behind.
//
// Time: the answer reads no clock (statuses, period ends and plans are rows; the billing run and
// advanceClock change them through the same triggers), so nothing here expires by business time.
import type { Db } from "../../prisma/client.ts";
import { randomBase62 } from "../shared/secrets.ts";

export const ENTITLEMENTS_CHANNEL = "billing_entitlements_changed";
/** Kept at most this long, whatever happens to notifications. */
const TTL_MS = 10_000;
const MAX_ENTRIES = 50_000;
const FENCE_TIMEOUT_MS = 2_000;
const RELISTEN_MS = 1_000;

interface Entry<T> {
  value: T;
  tenantId: string;
  /** cus_ id, or null for "no such customer" (any new customer of the tenant may become it). */
  customerId: string | null;
  expires: number;
}

export class EntitlementsCache<T = unknown> {
  private entries = new Map<string, Entry<T>>();
  /** "<tenant> <customer>" and "<tenant> null" -> keys of entries, for a drop without a scan. */
  private byCustomer = new Map<string, Set<string>>();
  /** Bumped on every drop in a tenant: a read that started before a drop must not fill the cache. */
  private generations = new Map<string, number>();
  /** Bumped by every clear: reads of any tenant in flight across it must not fill the cache. */
  private epoch = 0;
  private listening = false;
  /** Which LISTEN connection is current: a dead one's late events are ignored. */
  private connection = 0;
  private fences = new Map<string, () => void>();
  private stopped = false;

  constructor(private readonly db: Db) {}

  async start(): Promise<void> {
    await this.listen();
  }

  stop(): void {
    this.stopped = true;
    this.connection++;
    this.listening = false;
    this.clear();
  }

  get isListening(): boolean {
    return this.listening;
  }

  private async listen(): Promise<void> {
    const id = ++this.connection;
    try {
      await this.db.listen(ENTITLEMENTS_CHANNEL, (payload) => this.onMessage(payload), () => this.lost(id));
    } catch {
      return this.lost(id);
    }
    if (id !== this.connection) return;
    // Anything cached before (a lost connection's era) may have missed a drop.
    this.clear();
    this.listening = true;
  }

  private lost(id: number): void {
    if (id !== this.connection) return;
    this.connection++;
    this.listening = false;
    this.clear();
    for (const release of this.fences.values()) release();
    if (!this.stopped) setTimeout(() => void this.listen(), RELISTEN_MS).unref();
  }

  private onMessage(payload: string): void {
    const [tenantId = "", customer = ""] = payload.split(" ");
    if (tenantId === "fence") return void this.fences.get(customer)?.();
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
    if (customer === "*") {
      for (const [key, entry] of this.entries) if (entry.tenantId === tenantId) this.delete(key, entry);
      return;
    }
    this.dropGroup(`${tenantId} ${customer}`);
    // A new customer, or one whose external id or e-mail changed, may answer a key cached as unknown.
    this.dropGroup(`${tenantId} null`);
  }

  /** The generation to hand back to set() after a read. */
  generation(tenantId: string): string {
    return `${this.epoch}.${this.generations.get(tenantId) ?? 0}`;
  }

  get(tenantId: string, key: string, nowMs: number): T | undefined {
    const k = `${tenantId} ${key}`;
    const hit = this.entries.get(k);
    if (!hit) return undefined;
    if (hit.expires <= nowMs) {
      this.delete(k, hit);
      return undefined;
    }
    return hit.value;
  }

  set(tenantId: string, key: string, customerId: string | null, value: T, nowMs: number, generation: string): void {
    if (!this.listening || generation !== this.generation(tenantId)) return;
    if (this.entries.size >= MAX_ENTRIES) this.clear();
    const k = `${tenantId} ${key}`;
    const old = this.entries.get(k);
    if (old) this.delete(k, old);
    this.entries.set(k, { value, tenantId, customerId, expires: nowMs + TTL_MS });
    const group = `${tenantId} ${customerId}`;
    let keys = this.byCustomer.get(group);
    if (!keys) this.byCustomer.set(group, (keys = new Set()));
    keys.add(k);
  }

  /**
   * Resolves once this instance has read every notification committed before the call: its own
   * NOTIFY comes back after them (one channel delivers in commit order). On PGlite notifications are
   * read with the commit itself, so there is nothing to wait for.
   */
  async fence(): Promise<void> {
    if (this.db.kind !== "postgres" || !this.listening) return;
    const nonce = randomBase62(16);
    let timer: NodeJS.Timeout | undefined;
    const seen = new Promise<void>((resolve) => {
      this.fences.set(nonce, resolve);
      timer = setTimeout(resolve, FENCE_TIMEOUT_MS);
      timer.unref();
    });
    try {
      await this.db.notify(ENTITLEMENTS_CHANNEL, `fence ${nonce}`);
      await seen;
    } finally {
      clearTimeout(timer);
      this.fences.delete(nonce);
    }
  }

  private dropGroup(group: string): void {
    const keys = this.byCustomer.get(group);
    if (!keys) return;
    this.byCustomer.delete(group);
    for (const k of keys) this.entries.delete(k);
  }

  private delete(k: string, entry: Entry<T>): void {
    this.entries.delete(k);
    const group = `${entry.tenantId} ${entry.customerId}`;
    const keys = this.byCustomer.get(group);
    keys?.delete(k);
    if (keys?.size === 0) this.byCustomer.delete(group);
  }

  private clear(): void {
    this.entries.clear();
    this.byCustomer.clear();
    this.epoch++;
  }
}
