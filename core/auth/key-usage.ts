// "Last used" of API keys, kept off the request path: authentication only notes the key in memory;
// one batched UPDATE a second at most writes what was noted, and a key is noted at most once a minute.
// A crash loses at most the last second's notes: "last used" is a hint for the panel, not a record.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import type { Logger } from "pino";

/** A key's last use is written at most this often. */
export const LAST_USED_EVERY_MS = 60_000;
const FLUSH_DELAY_MS = 1_000;
/** Bounds memory when many keys are used at once; the oldest notes are forgotten, never the process. */
const MAX_REMEMBERED = 50_000;

export class KeyUsage {
  /** key id -> wall-clock ms of its last note (written or pending). */
  private noted = new Map<string, number>();
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly logger: Logger,
  ) {}

  /** Called on every authenticated request: a Map lookup, no I/O. */
  touch(keyId: string, nowMs: number): void {
    const last = this.noted.get(keyId);
    if (last !== undefined && nowMs - last < LAST_USED_EVERY_MS) return;
    if (this.noted.size >= MAX_REMEMBERED) this.noted.clear();
    this.noted.set(keyId, nowMs);
    this.pending.set(keyId, nowMs);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
      this.timer.unref();
    }
  }

  /** Writes the pending notes now (tests, shutdown); resolves once written. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    if (!batch.size) return this.flushing;
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  private async write(batch: Map<string, number>): Promise<void> {
    // One statement for the batch, stamped with the batch's latest use: minute precision is the promise.
    const at = new Date(Math.max(...batch.values()));
    try {
      await this.prisma.apiKey.updateMany({ where: { id: { in: [...batch.keys()] } }, data: { lastUsedAt: at } });
    } catch (err) {
      // Forget the notes so the next use writes again, rather than keep retrying here.
      for (const id of batch.keys()) this.noted.delete(id);
      this.logger.warn({ err }, "api key last-used update failed");
    }
  }
}
