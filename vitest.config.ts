import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

// Pothos loads graphql through require(); point Vite at the same (CommonJS) copy so there is one realm.
const graphqlCjs = createRequire(import.meta.url).resolve("graphql");

// One worker, modules shared across files: every test file uses the same service and database
// (each test makes its own tenant), so the embedded database is migrated once per run.
export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlCjs }] },
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 1,
    isolate: false,
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
