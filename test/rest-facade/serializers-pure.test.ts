// The facade's serializers and the core body builders they share with the webhook data are pure:
// following their imports never reaches Prisma, the database client or the runtime.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const IMPORT = /^\s*import\s+(?!type\b)[^"']*["']([^"']+)["']/gm;

/** Value imports only (type-only imports vanish at runtime), followed through relative paths. */
function reach(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, spec] of fs.readFileSync(file, "utf8").matchAll(IMPORT)) {
    if (spec!.startsWith(".")) reach(path.resolve(path.dirname(file), spec!), seen);
    else seen.add(spec!);
  }
  return seen;
}

describe("rest-facade/serializers", () => {
  it("import no module that needs the database", () => {
    const dir = path.join(root, "rest-facade/serializers");
    const reached = new Set<string>();
    for (const f of fs.readdirSync(dir)) for (const m of reach(path.join(dir, f))) reached.add(path.relative(root, m));
    const impure = [...reached].filter((m) => /prisma|generated|runtime|pg|db\b/i.test(m));
    expect(impure).toEqual([]);
    // The shared builders are there: one source for REST bodies and webhook data.
    expect([...reached]).toEqual(expect.arrayContaining(["core/payloads/subscription-body.ts", "core/payloads/payment-body.ts", "core/events/event-envelope.ts"]));
  });
});
