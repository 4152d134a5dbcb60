// Named leases in job_leases, shared by every instance on one database: a tick runs only where
// its lease was won, and an expired lease (a crashed holder) can be taken over.
import type { Db } from "../prisma/client.ts";

export async function tryLease(db: Db, name: string, owner: string, ttlMs: number, now: Date): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + ttlMs);
  const won = await db.prisma.$executeRaw`
    INSERT INTO job_leases (name, owner, expires_at) VALUES (${name}, ${owner}, ${expiresAt})
    ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
    WHERE job_leases.expires_at < ${now} OR job_leases.owner = ${owner}`;
  return won === 1;
}

export async function releaseLease(db: Db, name: string, owner: string): Promise<void> {
  await db.prisma.$executeRaw`DELETE FROM job_leases WHERE name = ${name} AND owner = ${owner}`;
}
