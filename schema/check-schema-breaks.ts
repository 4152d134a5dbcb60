// `npm run schema:breaks [-- --base <rev>]`: compares schema/schema.graphql in the working tree with the
// one at a base revision (default HEAD~1, or env SCHEMA_BASE) using GraphQL Inspector, prints every change
// with its criticality, and fails on a BREAKING change unless a commit in <base>..HEAD declares it with a
// message line `Schema-Break: <reason>` (a planned removal, announced to the internal tools).
// A base that cannot be read (no parent commit, a shallow clone that cannot be deepened, no schema file
// yet) is said and passes: there is nothing to compare against.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// Both through require(): GraphQL Inspector and buildSchema must share one graphql copy (realm), and
// vitest aliases `graphql` to the CommonJS build (vitest.config.ts), so take the CommonJS builds here too.
const require = createRequire(import.meta.url);
const { buildSchema } = require("graphql") as typeof import("graphql");
const { diff, CriticalityLevel } = require("@graphql-inspector/core") as typeof import("@graphql-inspector/core");

export const SCHEMA_PATH = "schema/schema.graphql";
const DECLARATION = /^Schema-Break:[ \t]*(\S.*)$/im;

export type SchemaChange = { level: "BREAKING" | "DANGEROUS" | "NON_BREAKING"; message: string; path?: string; reason?: string };

/** Every change from oldSdl to newSdl, as GraphQL Inspector classifies it (breaking first). */
export async function compareSchemas(oldSdl: string, newSdl: string): Promise<SchemaChange[]> {
  const changes = await diff(buildSchema(oldSdl), buildSchema(newSdl));
  const order = { [CriticalityLevel.Breaking]: 0, [CriticalityLevel.Dangerous]: 1, [CriticalityLevel.NonBreaking]: 2 };
  return changes
    .map((c) => ({ level: c.criticality.level as SchemaChange["level"], message: c.message, path: c.path, reason: c.criticality.reason }))
    .sort((a, b) => order[a.level] - order[b.level]);
}

/** The reason given by the first `Schema-Break: <reason>` line among the commit messages, if any. */
export function declaredBreak(messages: string[]): string | undefined {
  for (const m of messages) {
    const hit = DECLARATION.exec(m);
    if (hit) return hit[1]!.trim();
  }
  return undefined;
}

type Options = { cwd?: string; base?: string; log?: (line: string) => void };

/** Runs the check in the git work tree at cwd; returns the process exit code (0 pass, 1 undeclared break). */
export async function checkSchemaBreaks({ cwd = process.cwd(), base = "HEAD~1", log = console.log }: Options = {}): Promise<number> {
  const git = (...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const tryGit = (...args: string[]) => { try { return git(...args); } catch { return undefined; } };
  const root = git("rev-parse", "--show-toplevel").trim();

  const resolve = () => tryGit("rev-parse", "--verify", "--quiet", `${base}^{commit}`)?.trim() || undefined;
  let baseCommit = resolve();
  const shallow = tryGit("rev-parse", "--is-shallow-repository")?.trim() === "true";
  if (!baseCommit && shallow) {
    // CI may check out a shallow clone: one more commit of history is enough for HEAD~1. Bounded, no prompt.
    log(`schema:breaks: shallow clone, fetching one more commit to read ${base}`);
    try {
      execFileSync("git", ["fetch", "--quiet", "--deepen=1"], { cwd, stdio: "ignore", timeout: 60_000, env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } });
    } catch { /* no reachable remote: said below */ }
    baseCommit = resolve();
  }
  if (!baseCommit) {
    if (shallow) {
      log(`schema:breaks: base ${base} is not in this shallow clone and could not be fetched; nothing to compare, passing`);
      return 0;
    }
    if (!tryGit("rev-parse", "--verify", "--quiet", "HEAD~1^{commit}")) {
      log(`schema:breaks: HEAD is the first commit, there is no ${base}; nothing to compare, passing`);
      return 0;
    }
    log(`schema:breaks: unknown base revision ${base}`);
    return 2;
  }
  const oldSdl = tryGit("show", `${baseCommit}:${SCHEMA_PATH}`);
  if (oldSdl === undefined) {
    log(`schema:breaks: ${SCHEMA_PATH} does not exist at ${base} (${baseCommit.slice(0, 12)}); nothing to compare, passing`);
    return 0;
  }
  const newFile = path.join(root, SCHEMA_PATH);
  if (!fs.existsSync(newFile)) {
    log(`schema:breaks: ${SCHEMA_PATH} is missing from the working tree`);
    return 1;
  }

  const changes = await compareSchemas(oldSdl, fs.readFileSync(newFile, "utf8"));
  const count = (level: SchemaChange["level"]) => changes.filter((c) => c.level === level).length;
  const breaking = count("BREAKING");
  log(`schema:breaks: ${SCHEMA_PATH} at ${base} (${baseCommit.slice(0, 12)}) -> working tree: ${changes.length} change(s), ` +
    `${breaking} breaking, ${count("DANGEROUS")} dangerous, ${count("NON_BREAKING")} non-breaking`);
  for (const c of changes) log(`  ${c.level.padEnd(12)} ${c.message}`);
  // Inspector's explanations repeat per change: say each one once.
  const reasons = [...new Set(changes.filter((c) => c.level !== "NON_BREAKING" && c.reason).map((c) => c.reason!))];
  for (const r of reasons) log(`  why: ${r}`);
  if (breaking === 0) return 0;

  // The commits being checked: base..HEAD (just HEAD with the default base).
  const messages = (tryGit("log", "--format=%B%x00", `${baseCommit}..HEAD`) ?? "").split("\0");
  const reason = declaredBreak(messages);
  if (reason) {
    log(`schema:breaks: ${breaking} breaking change(s) declared by "Schema-Break: ${reason}"; passing`);
    return 0;
  }
  log(`schema:breaks: ${breaking} breaking change(s) not declared. If intended, add a line "Schema-Break: <reason>" to the commit message (git commit --amend), otherwise keep the old fields (deprecate them first).`);
  return 1;
}

function baseFromArgs(argv: string[]): string | undefined {
  const i = argv.indexOf("--base");
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith("--base="))?.slice("--base=".length);
}

if (process.argv[1]?.endsWith("check-schema-breaks.ts")) {
  const base = baseFromArgs(process.argv.slice(2)) ?? process.env.SCHEMA_BASE ?? "HEAD~1";
  checkSchemaBreaks({ base }).then((code) => { process.exitCode = code; }, (err) => { console.error(err); process.exitCode = 2; });
}
