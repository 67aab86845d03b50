import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "eval/**/*.test.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores here: two files at a time keeps PGlite start-up and the servers from starving each other.
    maxWorkers: 2,
    reporters: ["default"],
  },
});
