// `npm run fuzz`: the full contract fuzz on its own in-process service (PGlite in memory, or
// DATABASE_URL). FUZZ_RUNS (default 20000) and FUZZ_SEED (default: random, printed) set the run.
// Exits non-zero on any finding.
import { testService } from "../helpers/service.ts";
import { formatReport, runFuzz } from "./runner.ts";
import { seedWorld } from "./world.ts";

const runs = Number(process.env.FUZZ_RUNS ?? 20_000);
const seed = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isSafeInteger(runs) || runs < 1 || !Number.isSafeInteger(seed)) {
  console.error("FUZZ_RUNS must be a positive integer and FUZZ_SEED an integer");
  process.exit(2);
}

console.log(`contract fuzz: seed ${seed} (replay with FUZZ_SEED=${seed}), ${runs} requests, ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite in memory"}`);
const service = await testService();
const seeding = Date.now();
const world = await seedWorld();
console.log(`seeded two tenants in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);

let lastPrint = 0;
const report = await runFuzz({
  world,
  baseUrl: service.baseUrl,
  seed,
  runs,
  batch: 500,
  replenishEvery: 4,
  onBatch: (done, r) => {
    if (Date.now() - lastPrint < 10_000 && done < runs) return;
    lastPrint = Date.now();
    console.log(`  ${done}/${runs} generated, ${r.requests} sent, ${r.findings.length} findings, ${(r.requests / (r.durationMs / 1000)).toFixed(0)} req/s`);
  },
});
console.log("\n" + formatReport(report));
service.server.close();
process.exit(report.findings.length ? 1 : 0);
