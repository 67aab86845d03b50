import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "eval/**/*.test.ts"],
    pool: "forks",
    // The embedded database's files start from one migrated copy, made once per run.
    globalSetup: ["test/support/migrated-dump.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores here: two files at a time keeps PGlite start-up and the servers from starving each other.
    maxWorkers: 2,
    reporters: ["default"],
  },
});
