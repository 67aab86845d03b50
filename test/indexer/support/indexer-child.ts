// A worker process that only indexes, for the tests that kill one (`node bin/run-ts.js` this file).
// Environment: CHILD_RPC_URL; CHILD_DATABASE_URL + CHILD_SCHEMA (PostgreSQL) or CHILD_DATA_DIR (PGlite);
// CHILD_COMMIT_DELAY_MS holds every batch open before its commit (so the test can kill it there);
// CHILD_MAX_BATCH. Prints one JSON line per batch: {"committing":[from,to]} and {"committed":[from,to]}.
import { startIndexers } from "../../../src/chains/indexer/index.ts";
import { migrate } from "../../../src/platform/db/migrate.ts";
import { openDatabase } from "../../../src/platform/db/open.ts";
import type { DB } from "../../../src/schema.ts";
import { devnetChain } from "./harness.ts";

const env = process.env;
const database = await openDatabase<DB>({
  databaseUrl: env.CHILD_DATABASE_URL || undefined,
  dataDir: env.CHILD_DATA_DIR || "memory://",
  schema: env.CHILD_SCHEMA || undefined,
});
await migrate(database);
const delay = Number(env.CHILD_COMMIT_DELAY_MS || 0);
const say = (value: unknown) =>
  process.stdout.write(`${JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? Number(v) : v))}\n`);

const indexers = startIndexers({
  database,
  chains: [devnetChain(env.CHILD_RPC_URL as string)],
  logLevel: "warn",
  tuning: { pollIntervalMs: 20, lockRetryMs: 100, maxBatchBlocks: Number(env.CHILD_MAX_BATCH || 10) },
  backoff: { initialMs: 20, maxMs: 250 },
  hooks: {
    async beforeCommit(range) {
      say({ committing: [range.from, range.to] });
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    },
    onEvent(event) {
      if (event.kind === "batch") say({ committed: [event.from, event.to] });
    },
  },
});
say({ started: process.pid });

process.on("SIGTERM", () => {
  void indexers
    .stop()
    .then(() => database.close())
    .then(() => process.exit(0));
});
