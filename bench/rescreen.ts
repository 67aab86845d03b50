// Re-screening after a label import (src/rescreen, docs/decisions/0032-rescreening.md): on the risk benchmark's
// store (bench/risk-store.ts, BENCH_RISK_TRANSFERS transfers, default 5,000,000), BENCH_RESCREEN_MONITORED ordinary
// users (default 100,000) are monitored by one project; a CSV of labels is imported with `vigia import tags`' code,
// labelling `sanctioned` one counterparty (an ordinary user) of each of 1 % of the monitored addresses. Then the
// re-screening runs as a worker does (rescreenOnce, in a loop, in this process) until nothing is queued. Figures:
// the monitored addresses the walk reached and re-scored, the rises (alerts raised), the time from the import's
// commit to the last alert and to the end, and this process's peak RSS. On each database of BENCH_DATABASES.
//
// No target is set by a decision yet: the figures are what a fleet of one worker does, to size VIGIA workers by.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { AnalysisContext } from "../src/analysis/context.ts";
import { importLabels } from "../src/ingest/labels/import-labels.ts";
import { migrate } from "../src/platform/db/migrate.ts";
import { openDatabase } from "../src/platform/db/open.ts";
import { rescreenOnce } from "../src/rescreen/index.ts";
import type { DB } from "../src/schema.ts";
import { benchAddress, CHAIN_ID, FIRST_USER, generateRiskStore, TRANSFERS, USERS } from "./risk-store.ts";
import { type Benchmark, wantedDatabases } from "./support.ts";

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const MONITORED = Math.min(Number(process.env.BENCH_RESCREEN_MONITORED || 100_000), USERS);
const SHARE = 0.01;

interface Run {
  database: string;
  monitored: number;
  labelled: number;
  traced: number;
  scored: number;
  rises: number;
  failed: number;
  truncated: number;
  importSeconds: number;
  toLastAlertSeconds: number;
  totalSeconds: number;
  peakRssMb: number;
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");

async function runOn(database: "pglite" | "postgres"): Promise<Run> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-bench-rescreen-"));
  const schema = `bench_${crypto.randomBytes(6).toString("hex")}`;
  const store = await openDatabase<DB>(
    database === "postgres"
      ? { databaseUrl: POSTGRES_URL, dataDir: "memory://", schema }
      : { dataDir: path.join(workDir, "data") },
  );
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 200);
  try {
    await migrate(store);
    await generateRiskStore(store as never, (line) => console.log(line));
    const db = store.db;
    const { id: projectId } = await db
      .insertInto("projects")
      .values({ name: "rescreen bench" })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Every (USERS / MONITORED)-th user is monitored: spread over the ranks, busy and quiet alike.
    const step = USERS / MONITORED;
    const monitored = Array.from({ length: MONITORED }, (_, i) =>
      benchAddress(FIRST_USER + Math.floor(i * step)),
    );
    for (let i = 0; i < monitored.length; i += 5_000) {
      await db
        .insertInto("monitored_addresses")
        .values(
          monitored.slice(i, i + 5_000).map((address, j) => ({
            project_id: projectId,
            chain_id: CHAIN_ID,
            address,
            foreign_user_id: `user-${i + j}`,
          })),
        )
        .execute();
    }
    // 1 % of them: one ordinary counterparty each (not monitored, not labelled), to be labelled sanctioned.
    const chosen = monitored.filter((_, i) => i % Math.round(1 / SHARE) === 0);
    const labelled: string[] = [];
    const taken = new Set(monitored);
    for (const address of chosen) {
      const peers = await db
        .selectFrom("transfers")
        .select("to_address as peer")
        .where("chain_id", "=", CHAIN_ID)
        .where("from_address", "=", address)
        .limit(20)
        .execute();
      const peer = peers.map((p) => p.peer).find((p) => !taken.has(p));
      if (!peer) continue;
      const known = await db.selectFrom("labels").select("id").where("address", "=", peer).executeTakeFirst();
      if (known) continue;
      taken.add(peer);
      labelled.push(peer);
    }
    const file = path.join(workDir, "labels.csv");
    fs.writeFileSync(
      file,
      `address,chain_id,label,category,source\n${labelled.map((a) => `${a},${CHAIN_ID},Bench sanctioned,sanctioned,bench-list`).join("\n")}\n`,
    );
    const ctx = {
      db,
      registry: {
        get: () => ({ id: CHAIN_ID, enabled: true, currency_symbol: "ETH", currency_decimals: 18 }),
      },
    } as unknown as AnalysisContext;
    let t = performance.now();
    await importLabels(db, file);
    const importSeconds = (performance.now() - t) / 1000;
    console.log(
      `  ${database}: ${int(MONITORED)} monitored, ${int(labelled.length)} labels imported in ${importSeconds.toFixed(1)} s`,
    );
    t = performance.now();
    const totals = { traced: 0, scored: 0, rises: 0, failed: 0, truncated: 0 };
    let lastAlert = 0;
    for (;;) {
      const run = await rescreenOnce({
        analysis: ctx,
        everyChain: () => [CHAIN_ID],
        batch: 50,
        alertLevel: "high",
      });
      totals.traced += run.queued;
      totals.scored += run.scored;
      totals.rises += run.rises;
      totals.failed += run.failed;
      totals.truncated += run.truncated;
      if (run.rises > 0) lastAlert = performance.now();
      const waiting = await db
        .selectFrom("rescreen_pending")
        .select(db.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow();
      if (run.scored > 0 && totals.scored % 500 < 50)
        console.log(`    ${int(totals.scored)} re-scored, ${int(totals.rises)} rises, ${waiting.n} waiting`);
      if (Number(waiting.n) === 0 || (run.scored === 0 && run.changes === 0)) break;
    }
    const totalSeconds = (performance.now() - t) / 1000;
    return {
      database,
      monitored: MONITORED,
      labelled: labelled.length,
      ...totals,
      importSeconds,
      toLastAlertSeconds: lastAlert ? (lastAlert - t) / 1000 : 0,
      totalSeconds,
      peakRssMb: peakRss / 2 ** 20,
    };
  } finally {
    clearInterval(sampler);
    await store.close();
    if (database === "postgres") {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.end());
    }
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

export const rescreenBenchmark: Benchmark = {
  name: "rescreen",
  section:
    TRANSFERS === 5_000_000 && MONITORED === 100_000 ? "rescreen" : `rescreen-${TRANSFERS}-${MONITORED}`,
  title: `re-screening after a label import touching 1 % of ${int(MONITORED)} monitored addresses (${int(TRANSFERS)} transfers)`,
  async run() {
    const runs: Run[] = [];
    for (const database of wantedDatabases()) runs.push(await runOn(database));
    const rows = runs.map(
      (r) =>
        `| ${r.database} | ${int(r.monitored)} | ${int(r.labelled)} | ${int(r.traced)} | ${int(r.scored)} | ${int(r.rises)} | ${int(r.failed)} | ${r.truncated} | ${r.importSeconds.toFixed(1)} | ${r.toLastAlertSeconds.toFixed(1)} | ${r.totalSeconds.toFixed(1)} | ${int(r.peakRssMb)} |`,
    );
    const markdown = [
      `Re-screening (src/rescreen) on the risk store of ${int(TRANSFERS)} transfers: ${int(MONITORED)} ordinary users monitored by one project, then a CSV import labelling \`sanctioned\` one ordinary counterparty of each of 1 % of them; one worker's loop (rescreenOnce, batches of 50) runs until nothing is queued. "Reached" counts the monitored addresses the walk queued (within 3 hops, not through services); "rises" the \`rescreen\` alerts raised (a rise to \`high\` or above, the default alert level). Times from the import's commit; RSS of the process (store, walk and scans in one process).`,
      "",
      "| Database | Monitored | Labels imported | Reached | Re-scored | Rises (alerts) | No verdict | Walks cut | Import (s) | To the last alert (s) | Until nothing queued (s) | Peak RSS (MB) |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...rows,
    ].join("\n");
    for (const r of runs) console.log(`  ${r.database}: ${JSON.stringify(r)}`);
    return { markdown, passed: runs.every((r) => r.failed === 0) };
  },
};
