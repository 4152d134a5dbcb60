// Prisma CLI configuration: JS schema engine plus a driver adapter, so nothing native is fetched
// at install time. The app itself applies migrations at start-up (prisma/migrate.ts); this config
// serves `prisma generate` and `prisma migrate diff`.
import path from "node:path";
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  experimental: { adapter: true },
  engine: "js",
  // Lazy: opening PGlite here eagerly kept the CLI (and npm install) alive on its timers.
  async adapter() {
    const { cliAdapterFactory } = await import("./prisma/cli-adapter.ts");
    return cliAdapterFactory();
  },
});
