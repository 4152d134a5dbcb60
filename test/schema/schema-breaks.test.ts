// `npm run schema:breaks` (CI, after typecheck): GraphQL Inspector classifies schema.graphql changes
// against the previous commit; an undeclared breaking change fails, `Schema-Break: <reason>` declares one.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkSchemaBreaks, compareSchemas, declaredBreak, SCHEMA_PATH } from "../../schema/check-schema-breaks.ts";

const BASE = `
type Query { subscription(id: ID!): Subscription }
type Subscription { id: ID! status: String! amountCents: Int! }
`;

describe("compareSchemas", () => {
  it("flags a removed field as breaking", async () => {
    const changes = await compareSchemas(BASE, BASE.replace(" amountCents: Int!", ""));
    expect(changes).toEqual([expect.objectContaining({ level: "BREAKING", message: expect.stringContaining("amountCents") })]);
  });

  it("flags a changed field type as breaking", async () => {
    const changes = await compareSchemas(BASE, `${BASE.replace("status: String!", "status: SubscriptionStatus!")}\nenum SubscriptionStatus { active }`);
    expect(changes.filter((c) => c.level === "BREAKING")).toEqual([
      expect.objectContaining({ message: "Field 'Subscription.status' changed type from 'String!' to 'SubscriptionStatus!'" }),
    ]);
  });

  it("lets an added field pass as non-breaking", async () => {
    const changes = await compareSchemas(BASE, BASE.replace("amountCents: Int!", "amountCents: Int! currency: String"));
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((c) => c.level === "NON_BREAKING")).toBe(true);
  });
});

describe("declaredBreak", () => {
  it("reads a `Schema-Break: <reason>` line anywhere in a commit message", () => {
    expect(declaredBreak(["Typed graph\n\nbody text\nSchema-Break: payload JSON fields removed\n"])).toBe("payload JSON fields removed");
    expect(declaredBreak(["a", "schema-break:  lower case works too"])).toBe("lower case works too");
  });
  it("ignores a mention that is not its own line or has no reason", () => {
    expect(declaredBreak(["no Schema-Break: here", "Schema-Break:", "Schema-Break:   \n"])).toBeUndefined();
  });
});

describe("checkSchemaBreaks on a git repository", () => {
  const dirs: string[] = [];
  afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

  const env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };
  const tempDir = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), "schema-breaks-")); dirs.push(d); return d; };
  const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const commitSchema = (cwd: string, sdl: string, message: string) => {
    fs.mkdirSync(path.join(cwd, "schema"), { recursive: true });
    fs.writeFileSync(path.join(cwd, SCHEMA_PATH), sdl);
    git(cwd, "add", SCHEMA_PATH);
    git(cwd, "commit", "-q", "-m", message);
  };
  const run = async (cwd: string, base?: string) => {
    const lines: string[] = [];
    const code = await checkSchemaBreaks({ cwd, base, log: (l) => lines.push(l) });
    return { code, out: lines.join("\n") };
  };
  const repo = () => {
    const dir = tempDir();
    git(dir, "init", "-q");
    fs.writeFileSync(path.join(dir, "README"), "x");
    git(dir, "add", "README");
    git(dir, "commit", "-q", "-m", "before the schema");
    return dir;
  };

  it("passes when the base has no schema file, fails an undeclared break, passes it once declared", async () => {
    const dir = repo();
    commitSchema(dir, BASE, "first schema");
    expect(await run(dir)).toMatchObject({ code: 0, out: expect.stringContaining("does not exist at HEAD~1") });

    commitSchema(dir, BASE.replace(" amountCents: Int!", ""), "drop amountCents");
    const failed = await run(dir);
    expect(failed.code).toBe(1);
    expect(failed.out).toContain("BREAKING     Field 'amountCents' was removed from object type 'Subscription'");
    expect(failed.out).toContain("not declared");

    git(dir, "commit", "-q", "--amend", "-m", "drop amountCents\n\nSchema-Break: amountCents moved to Payment");
    expect(await run(dir)).toMatchObject({ code: 0, out: expect.stringContaining('declared by "Schema-Break: amountCents moved to Payment"') });

    // An added field is not a break; --base reaches further back (the removal is then in the range and declared).
    commitSchema(dir, BASE.replace(" amountCents: Int!", " note: String"), "add note");
    expect((await run(dir)).code).toBe(0);
    expect((await run(dir, "HEAD~2")).code).toBe(0);
    expect((await run(dir, "does-not-exist")).code).toBe(2);
  });

  it("in a shallow clone fetches the parent commit, and passes saying why when it cannot", async () => {
    const origin = repo();
    commitSchema(origin, BASE, "first schema");
    commitSchema(origin, BASE.replace(" amountCents: Int!", ""), "drop amountCents");

    const shallow = path.join(tempDir(), "clone");
    git(os.tmpdir(), "clone", "-q", "--depth", "1", `file://${origin}`, shallow);
    const deepened = await run(shallow);
    expect(deepened.out).toContain("shallow clone");
    expect(deepened.code).toBe(1); // the parent was fetched and the break found

    const orphan = path.join(tempDir(), "clone");
    git(os.tmpdir(), "clone", "-q", "--depth", "1", `file://${origin}`, orphan);
    git(orphan, "remote", "remove", "origin");
    expect(await run(orphan)).toMatchObject({ code: 0, out: expect.stringContaining("could not be fetched; nothing to compare, passing") });
  });
});
