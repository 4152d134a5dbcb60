// A tenant's first owner with a generated password, shown once (the demo tenant on the first run).
// A tenant that has any member already gets none: this never replaces someone's password.
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { newId } from "../shared/ids.ts";
import { randomBase62 } from "../shared/secrets.ts";
import { normalizeEmail } from "./team-rules.ts";
import { hashPassword } from "./team-secrets.ts";

export async function createTenantOwner(prisma: PrismaClient, input: { tenantId: string; email: string }): Promise<{ email: string; password: string } | null> {
  if (await prisma.tenantUser.findFirst({ where: { tenantId: input.tenantId }, select: { id: true } })) return null;
  const email = normalizeEmail(input.email);
  // 20 base62 characters: about 119 bits, far past the strength rule, and easy to paste.
  const password = randomBase62(20);
  await prisma.tenantUser.create({
    data: { id: newId("tenantUser"), tenantId: input.tenantId, email, role: "OWNER", passwordHash: await hashPassword(password) },
  });
  return { email, password };
}
