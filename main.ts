// `npm start`: the entry of every process kind, each in server/. Without GRAPHQL_URL it is the core
// process (server/core-process.ts) in the role `-- --role api|jobs|all` names (all by default); with
// it, the /v1 facade alone in front of that core (server/facade-process.ts): no database, no jobs.
// `-- --workers N` (or WORKERS): N core processes sharing the port and the work (server/workers.ts).

// Read once by libraries as they load (graphql-js then skips its development-only checks on every
// type test, a visible share of a large page's CPU): a service runs in production mode unless told otherwise.
process.env.NODE_ENV ??= "production";

// Loaded after the line above, and only the kind asked for: the facade alone never loads the database client or the jobs.
if (process.env.GRAPHQL_URL) {
  await (await import("./server/facade-process.ts")).startFacade(process.env.GRAPHQL_URL);
} else {
  const roleArg = process.argv.indexOf("--role");
  const role = roleArg > 0 ? process.argv[roleArg + 1] : "all";
  if (role !== "api" && role !== "jobs" && role !== "all") {
    console.error("usage: npm start -- --role api|jobs|all");
    process.exit(2);
  }
  const { workerCount, runPrimary } = await import("./server/workers.ts");
  const workers = workerCount();
  const cluster = (await import("node:cluster")).default;
  // N > 1: this process only forks and watches the workers (server/workers.ts); each worker is a core process.
  if (workers > 1 && cluster.isPrimary) await runPrimary(workers);
  else await (await import("./server/core-process.ts")).startCore(role);
}
