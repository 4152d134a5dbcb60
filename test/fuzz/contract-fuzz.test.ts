// The contract fuzz in CI: a fixed seed and a smaller count than `npm run fuzz`, on the shared
// service. Every /v1 route of the OpenAPI document gets generated requests (valid and invalid ids,
// bodies, content types, query strings and keys, for two tenants); every answer must be < 500,
// validate against the document, carry no identifier of the other tenant, and a foreign reference
// must be answered byte for byte like an unknown one.
import { describe, expect, it } from "vitest";
import { testService } from "../helpers/service.ts";
import { leakedIdentifiers, runFuzz, summarizeFindings } from "./runner.ts";
import { seedWorld, type World } from "./world.ts";

const SEED = 20_260_611;
const RUNS = Number(process.env.FUZZ_CI_RUNS ?? 1_200);

describe("contract fuzz", () => {
  it(`${RUNS} generated requests over every /v1 route (seed ${SEED}) find nothing`, async () => {
    const { baseUrl } = await testService();
    const world = await seedWorld();
    const report = await runFuzz({ world, baseUrl, seed: SEED, runs: RUNS, batch: 250 });
    for (const [operationId, stats] of report.routes) expect(stats.requests, operationId).toBeGreaterThanOrEqual(Math.floor(RUNS / report.routes.size / 3));
    if (report.findings.length) {
      throw new Error(`${report.findings.length} findings (replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npm run fuzz)\n\n${summarizeFindings(report.findings, 10)}`);
    }
  }, 300_000);

  it("the leak oracle flags the other tenant's identifiers, and only those the request did not carry", () => {
    const world = {
      A: { idents: new Set(["sub_01JABCDEFGHJKMNPQRSTVWXYZ0", "fzA-1-1-abc", "shared@example.com"]) },
      B: { idents: new Set(["sub_01JABCDEFGHJKMNPQRSTVWXYZ1", "fzB-1-1-def", "fzb-1-1-def@example.com", "shared@example.com"]) },
    } as unknown as World;
    const body = { id: "sub_01JABCDEFGHJKMNPQRSTVWXYZ1", customer: { external_id: "fzB-1-1-def", email: "fzb-1-1-def@example.com" }, other: "shared@example.com" };
    const text = JSON.stringify(body);
    expect(leakedIdentifiers(world, "A", "GET /v1/subscriptions ", body, text).sort()).toEqual(["fzB-1-1-def", "fzb-1-1-def@example.com", "sub_01JABCDEFGHJKMNPQRSTVWXYZ1"]);
    expect(leakedIdentifiers(world, "A", "GET /v1/subscriptions/sub_01JABCDEFGHJKMNPQRSTVWXYZ1 fzB-1-1-def FZB-1-1-DEF@example.com", body, text)).toEqual([]);
    expect(leakedIdentifiers(world, "B", "", body, text)).toEqual([]);
    expect(leakedIdentifiers(world, null, "", { error: "not found" }, '{"error":"not found"}')).toEqual([]);
    expect(leakedIdentifiers(world, null, "", { x: "sub_01JABCDEFGHJKMNPQRSTVWXYZ0" }, '{"x":"sub_01JABCDEFGHJKMNPQRSTVWXYZ0"}')).toEqual(["sub_01JABCDEFGHJKMNPQRSTVWXYZ0"]);
  });
});
