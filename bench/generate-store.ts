// Writes the risk store of bench/risk-store.ts into a database, in a process of its own so that its size is the
// environment's (BENCH_RISK_TRANSFERS, BENCH_RISK_USERS) whatever the caller's: bench/quick-check.ts and
// bench/quick-load.ts run it as a child.
//
//   node bin/run-ts.js bench/generate-store.ts (--data-dir DIR | --database-url URL --schema NAME) [--migrate]
//
// --migrate applies this checkout's migrations first; without it the schema must be there already (quick-load
// lets an earlier commit's service make it). Prints one JSON line: what was generated.
import { migrate } from "../src/platform/db/migrate.ts";
import { openDatabase } from "../src/platform/db/open.ts";
import type { DB } from "../src/schema.ts";
import { generateRiskStore } from "./risk-store.ts";

const args = process.argv.slice(2);
const value = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const dataDir = value("--data-dir");
const databaseUrl = value("--database-url");
const schema = value("--schema");
if (!dataDir === !databaseUrl || (databaseUrl && !schema)) {
  process.stderr.write(
    "usage: node bin/run-ts.js bench/generate-store.ts (--data-dir DIR | --database-url URL --schema NAME) [--migrate]\n",
  );
  process.exit(2);
}
const store = await openDatabase<DB>(
  databaseUrl ? { databaseUrl, dataDir: "memory://", schema } : { dataDir: dataDir as string },
);
try {
  if (args.includes("--migrate")) await migrate(store);
  const generated = await generateRiskStore(store as never, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(`${JSON.stringify(generated)}\n`);
} finally {
  await store.close();
}
