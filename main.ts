// `npm start`: the entry of every process kind, each in server/. Without GRAPHQL_URL it is the core
// process (server/core-process.ts, `-- --role api|jobs|all`); with it, the /v1 facade alone in front of
// that core (server/facade-process.ts): no database, no jobs.

// Read once by libraries as they load (graphql-js then skips its development-only checks on every
// type test: ~3 % of a 500-row page): a service runs in production mode unless told otherwise.
process.env.NODE_ENV ??= "production";

// Loaded after the line above, and only the kind asked for: the facade alone never loads the database client or the jobs.
if (process.env.GRAPHQL_URL) {
  await (await import("./server/facade-process.ts")).startFacade(process.env.GRAPHQL_URL);
} else {
  await (await import("./server/core-process.ts")).startCore();
}
