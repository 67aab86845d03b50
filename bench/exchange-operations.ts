// Benchmark `exchange-operations`: on each database, the real service in this process (API on 127.0.0.1 and the
// workers, so the operation monitor judges while the API ingests) and an integrator that is a real HTTP server on
// 127.0.0.1 answering every client's profile. BENCH_OPS operations (default 1,000,000) of BENCH_OP_CLIENTS clients
// (default 50,000) are POSTed in batches of 1,000, over about a month, interleaved as an exchange's day would
// interleave them: most clients deposit from their own account or one employer, buy and sell, sometimes withdraw
// to a wallet; one client in a hundred is a mule account fed by six SPEI payers within hours and then withdrawing
// USDT, which the fan-in rule must catch. Measured: operations accepted per second (the POSTs), the monitor's
// operations judged per second until the backlog is empty, and, for each mule's withdrawal, the time from its
// batch being accepted to its fan-in alert (p50, p95, max) during that backfill, when the queue is as long as the
// ingest outruns the monitor. Then a live phase, the service caught up: LIVE_ROUNDS batches of LIVE_BATCH operations
// every LIVE_EVERY_MS (about 67 operations a second, some six million a day: far above an exchange of 50,000 clients),
// each with LIVE_MULES mules among ordinary operations of the same clients; the time from each mule's withdrawal
// being accepted to its fan-in alert is the latency an officer sees.
// Targets: ≥ 2,000 operations/s accepted; live alert p95 ≤ 60 s; every mule caught.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { clabeCheckDigit } from "../src/exchange-operations/index.ts";
import { createKey, createProject } from "../src/keys/index.ts";
import { loadConfig } from "../src/platform/config.ts";
import { updateProject } from "../src/projects/index.ts";
import { startService } from "../src/service.ts";
import { type Benchmark, fmt, wantedDatabases } from "./support.ts";

const OPS = Number(process.env.BENCH_OPS || 1_000_000);
const CLIENTS = Number(process.env.BENCH_OP_CLIENTS || 50_000);
const BATCH = 1_000;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const START = Date.parse("2026-10-01T06:00:00Z");
const SPAN_MS = 30 * 86_400_000;
const LIVE_ROUNDS = 20;
const LIVE_BATCH = 200;
const LIVE_MULES = 4;
const LIVE_EVERY_MS = 3_000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

/** A deterministic generator, so that both databases get the same population. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const clabe = (serial: number) => {
  const first17 = `0121800${String(serial % 1e10).padStart(10, "0")}`;
  return first17 + clabeCheckDigit(first17);
};
const employerOf = (c: number) => `Empleador ${c % 997} SA de CV`;
const wallet = (n: number) => `0x${(0xb0000000 + n).toString(16).padStart(40, "0")}`;

interface Planned {
  op: Record<string, unknown>;
  /** a mule's withdrawal: its alert is awaited */
  mule?: string;
}

/** The operations in the order they are sent (by time), each client's mule pattern kept together in time. */
function population(): Planned[] {
  const random = rng(48);
  const perClient = Math.max(1, Math.round(OPS / CLIENTS));
  const out: { at: number; p: Planned }[] = [];
  let n = 0;
  const add = (at: number, p: Planned) => out.push({ at, p });
  for (let c = 0; c < CLIENTS && n < OPS; c++) {
    const userId = `c${c}`;
    const mule = c % 100 === 7;
    const base = START + Math.floor(random() * (SPAN_MS - 3 * 86_400_000));
    if (mule) {
      for (let k = 0; k < 6 && n < OPS; k++, n++)
        add(base + k * 1_800_000, {
          op: {
            operationId: `${userId}-m${k}`,
            userId,
            kind: "fiat_deposit",
            at: new Date(base + k * 1_800_000).toISOString(),
            currency: "MXN",
            amount: String(4_000 + Math.floor(random() * 5_000)),
            rail: "spei",
            counterparty: { name: `Pagador ${c}-${k}`, account: clabe(c * 10 + k) },
            reference: `R${c}M${k}`,
          },
        });
      if (n < OPS) {
        const at = base + 4 * 3_600_000;
        add(at, {
          op: {
            operationId: `${userId}-out`,
            userId,
            kind: "crypto_withdrawal",
            at: new Date(at).toISOString(),
            asset: "USDT",
            amount: "1200",
            chainId: 31337,
            address: wallet(c),
          },
          mule: userId,
        });
        n++;
      }
    }
    for (let k = mule ? 7 : 0; k < perClient && n < OPS; k++, n++) {
      const at = base + Math.floor(random() * 3 * 86_400_000);
      const kind = random();
      const id = `${userId}-${k}`;
      const op =
        kind < 0.3
          ? {
              kind: "fiat_deposit",
              currency: "MXN",
              amount: String(500 + Math.floor(random() * 20_000)),
              rail: "spei",
              // The client's own account, or its employer's payroll: one payer either way.
              counterparty:
                random() < 0.5
                  ? { name: "Ana Pérez García", account: clabe(9_000_000 + c) }
                  : { name: employerOf(c), account: clabe(8_000_000 + (c % 997)) },
              reference: `R${c}N${k}`,
            }
          : kind < 0.6
            ? {
                kind: "buy",
                asset: "USDT",
                amount: String(10 + Math.floor(random() * 500)),
                currency: "MXN",
                fiatAmount: String(200 + Math.floor(random() * 10_000)),
                price: "20",
              }
            : kind < 0.8
              ? {
                  kind: "sell",
                  asset: "BTC",
                  amount: "0.001",
                  currency: "MXN",
                  fiatAmount: String(1_000 + Math.floor(random() * 2_000)),
                  price: "1200000",
                }
              : kind < 0.9
                ? { kind: "swap", asset: "USDT", amount: "50", assetReceived: "ETH", amountReceived: "0.02" }
                : kind < 0.97
                  ? {
                      kind: "crypto_withdrawal",
                      asset: "USDT",
                      amount: "20",
                      chainId: 31337,
                      address: wallet(1_000_000 + (c % 5_000)),
                    }
                  : { kind: "fee", currency: "MXN", amount: "15", of: `${userId}-0` };
      add(at, { op: { operationId: id, userId, at: new Date(at).toISOString(), ...op } });
    }
  }
  return out.sort((a, b) => a.at - b.at).map((x) => x.p);
}

/** The live phase's batches: mules fed by six SPEI payers, then withdrawing, among the clients' ordinary buys. */
function livePopulation(): Planned[][] {
  const random = rng(4848);
  const rounds: Planned[][] = [];
  for (let r = 0; r < LIVE_ROUNDS; r++) {
    const at = START + SPAN_MS + r * 3_600_000;
    const batch: Planned[] = [];
    for (let m = 0; m < LIVE_MULES; m++) {
      const userId = `live-${r}-${m}`;
      for (let k = 0; k < 6; k++)
        batch.push({
          op: {
            operationId: `${userId}-m${k}`,
            userId,
            kind: "fiat_deposit",
            at: new Date(at + k * 60_000).toISOString(),
            currency: "MXN",
            amount: String(4_000 + Math.floor(random() * 5_000)),
            rail: "spei",
            counterparty: {
              name: `Pagador vivo ${r}-${m}-${k}`,
              account: clabe(7_000_000 + r * 100 + m * 10 + k),
            },
            reference: `L${r}M${m}K${k}`,
          },
        });
      batch.push({
        op: {
          operationId: `${userId}-out`,
          userId,
          kind: "crypto_withdrawal",
          at: new Date(at + 20 * 60_000).toISOString(),
          asset: "USDT",
          amount: "1200",
          chainId: 31337,
          address: wallet(2_000_000 + r * 10 + m),
        },
        mule: userId,
      });
    }
    for (let k = batch.length; k < LIVE_BATCH; k++) {
      const c = Math.floor(random() * CLIENTS);
      batch.push({
        op: {
          operationId: `c${c}-live-${r}-${k}`,
          userId: `c${c}`,
          kind: "buy",
          at: new Date(at + k * 1_000).toISOString(),
          asset: "USDT",
          amount: String(10 + Math.floor(random() * 500)),
          currency: "MXN",
          fiatAmount: String(200 + Math.floor(random() * 10_000)),
          price: "20",
        },
      });
    }
    rounds.push(batch);
  }
  return rounds;
}

interface Latency {
  p50: number;
  p95: number;
  max: number;
}

interface Figures {
  database: string;
  operations: number;
  ingestSeconds: number;
  judgeSeconds: number;
  mules: number;
  caught: number;
  /** during the backfill, the queue as long as the ingest outruns the monitor */
  latency: Latency;
  live: { mules: number; caught: number; latency: Latency };
}

/** Each accepted mule's time to its fan-in alert, in ms. */
async function fanInLatencies(
  db: Awaited<ReturnType<typeof startService>>["database"]["db"],
  projectId: number,
  accepted: ReadonlyMap<string, number>,
): Promise<{ caught: number; latency: Latency }> {
  const alerts = await db
    .selectFrom("alerts")
    .select(["user_id", "created_at"])
    .where("project_id", "=", projectId)
    .where("cause", "=", "fan_in")
    .execute();
  const mine = alerts.filter((a) => accepted.has(a.user_id as string));
  const sorted = mine
    .map((a) => Math.max(0, new Date(a.created_at).getTime() - (accepted.get(a.user_id as string) as number)))
    .sort((a, b) => a - b);
  return {
    caught: new Set(mine.map((a) => a.user_id)).size,
    latency: sorted.length
      ? { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) as number }
      : { p50: Number.NaN, p95: Number.NaN, max: Number.NaN },
  };
}

async function runOn(
  database: "pglite" | "postgres",
  planned: Planned[],
  live: Planned[][],
): Promise<Figures> {
  const integrator = http.createServer((req, res) => {
    req.resume();
    // Each client declares its employer as a source of funds (its payroll is no third-party funding) and its own
    // account at another bank.
    const c = Number(/\/users\/c(\d+)/.exec(req.url ?? "")?.[1] ?? 0);
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        givenName: "Ana",
        paternalSurname: "Pérez",
        maternalSurname: "García",
        address: { country: "MX" },
        mexico: { clabeInterbancaria: clabe(9_000_000 + c) },
        knownPayers: [{ name: employerOf(c), account: clabe(8_000_000 + (c % 997)), relation: "employer" }],
      }),
    );
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-bench-ops-"));
  const chains = path.join(dir, "chains.json");
  fs.writeFileSync(chains, JSON.stringify([{ id: 31337, name: "local", currency_symbol: "ETH" }]));
  const schema = `bench_${crypto.randomBytes(6).toString("hex")}`;
  const config = loadConfig({
    VIGIA_SECRET: crypto.randomBytes(32).toString("base64"),
    VIGIA_LOG_LEVEL: "error",
    // The lists' scheduled refresh (an internet download) is no part of what is measured.
    VIGIA_LIST_REFRESH_HOURS: "0",
    VIGIA_CHAINS: chains,
    VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
    VIGIA_RATE_LIMIT_PER_MINUTE: "100000000",
    VIGIA_HEAVY_RATE_LIMIT_PER_MINUTE: "100000000",
    PORT: "0",
    HOST: "127.0.0.1",
    ...(database === "postgres"
      ? { DATABASE_URL: POSTGRES_URL }
      : { VIGIA_DATA_DIR: path.join(dir, "data") }),
  });
  const service = await startService(config, {
    http: true,
    workers: true,
    ...(database === "postgres" ? { schema } : {}),
  });
  try {
    const url = await service.listen();
    const actor = { kind: "cli" } as const;
    const { projectId } = await createProject(service.keys, { name: "Bench" }, actor);
    const { key } = await createKey(service.keys, projectId, { label: "bench", role: "developer" }, actor);
    await updateProject(
      service.projects,
      projectId,
      {
        integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
        jurisdictions: ["MX"],
      },
      actor,
    );
    const db = service.database.db;
    const days: string[] = [];
    for (let d = START - 86_400_000; d <= START + SPAN_MS + 86_400_000; d += 86_400_000)
      days.push(new Date(d).toISOString().slice(0, 10));
    await db
      .insertInto("fx_rates")
      .values(days.map((day) => ({ day, currency: "MXN", per_usd: "20" })))
      .execute();
    await db
      .insertInto("tokens")
      .values({
        chain_id: 31337,
        address: wallet(999_999_999),
        symbol: "USDT",
        name: "Tether",
        decimals: 6,
        pegged_usd: "1",
      })
      .execute();
    const send = async (batch: Planned[], accepted: Map<string, number>) => {
      const res = await fetch(`${url}/v1/projects/${projectId}/operations`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": `ApiKey ${key}` },
        body: JSON.stringify({ operations: batch.map((p) => p.op) }),
      });
      if (res.status !== 200) throw new Error(`a batch: ${res.status} ${await res.text()}`);
      const at = Date.now();
      for (const p of batch) if (p.mule) accepted.set(p.mule, at);
    };
    const backlog = async () => {
      const { rows } = await sql<{
        n: string;
      }>`SELECT count(*)::text AS n FROM exchange_operations WHERE checked_at IS NULL`.execute(db);
      return Number(rows[0]?.n ?? 0);
    };
    const accepted = new Map<string, number>();
    const started = performance.now();
    // Progress with the seconds since the start, so that a run stopped early still gives its rates.
    const since = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
    for (let i = 0; i < planned.length; i += BATCH) {
      await send(planned.slice(i, i + BATCH), accepted);
      if ((i / BATCH) % 100 === 0)
        console.log(
          `  ${database}: ${Math.min(planned.length, i + BATCH).toLocaleString("en-US")} operations sent (${since()})`,
        );
    }
    const ingestSeconds = (performance.now() - started) / 1000;
    console.log(
      `  ${database}: all ${planned.length.toLocaleString("en-US")} operations accepted (${since()})`,
    );
    // The monitor's backlog, until empty.
    for (let last = 0; ; ) {
      const left = await backlog();
      if (left === 0) break;
      if (performance.now() - last > 30_000) {
        console.log(`  ${database}: ${left.toLocaleString("en-US")} operations left to judge (${since()})`);
        last = performance.now();
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const judgeSeconds = (performance.now() - started) / 1000;
    const backfill = await fanInLatencies(db, projectId, accepted);
    // Live: the service caught up, a batch every few seconds.
    const liveAccepted = new Map<string, number>();
    for (const batch of live) {
      const due = performance.now() + LIVE_EVERY_MS;
      await send(batch, liveAccepted);
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    }
    for (let waited = 0; (await backlog()) > 0 && waited < 600; waited++)
      await new Promise((r) => setTimeout(r, 1_000));
    const caughtUp = await fanInLatencies(db, projectId, liveAccepted);
    return {
      database,
      operations: planned.length,
      ingestSeconds,
      judgeSeconds,
      mules: accepted.size,
      caught: backfill.caught,
      latency: backfill.latency,
      live: { mules: liveAccepted.size, ...caughtUp },
    };
  } finally {
    await service.close();
    integrator.close();
    fs.rmSync(dir, { recursive: true, force: true });
    // The run's schema holds a million operations: dropped, not left in the operator's database.
    if (database === "postgres") {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await admin.end();
    }
  }
}

export const exchangeOperationsBenchmark: Benchmark = {
  name: "exchange-operations",
  title: `${OPS.toLocaleString("en-US")} exchange operations of ${CLIENTS.toLocaleString("en-US")} clients, in batches of 1,000, judged while they arrive`,
  async run() {
    const planned = population();
    const live = livePopulation();
    const figures: Figures[] = [];
    for (const database of wantedDatabases()) {
      console.log(`exchange-operations on ${database}: ${planned.length.toLocaleString("en-US")} operations`);
      const f = await runOn(database, planned, live);
      console.log(`  ${JSON.stringify(f)}`);
      figures.push(f);
    }
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const rows = figures.map(
      (f) =>
        `| ${f.database} | ${fmt.rps(f.operations / f.ingestSeconds)} | ${fmt.rps(f.operations / f.judgeSeconds)} | ${f.caught} of ${f.mules} | ${s(f.latency.p50)} / ${s(f.latency.p95)} | ${f.live.caught} of ${f.live.mules} | ${s(f.live.latency.p50)} | ${s(f.live.latency.p95)} | ${s(f.live.latency.max)} |`,
    );
    const passed = figures.every(
      (f) =>
        f.operations / f.ingestSeconds >= 2_000 &&
        f.live.latency.p95 <= 60_000 &&
        f.caught === f.mules &&
        f.live.caught === f.live.mules,
    );
    return {
      passed,
      markdown: [
        `${OPS.toLocaleString("en-US")} operations of ${CLIENTS.toLocaleString("en-US")} clients (one in a hundred a mule fed by six SPEI payers, then withdrawing USDT; the others' payroll from the employer their profile declares, their own accounts, buys, sells, swaps, withdrawals), POSTed in batches of 1,000 to the API on 127.0.0.1 while the workers judge them (rules and Mexico's law): the backfill. Then live, caught up: ${LIVE_ROUNDS} batches of ${LIVE_BATCH} every ${LIVE_EVERY_MS / 1000} s (${Math.round((LIVE_BATCH * 1000) / LIVE_EVERY_MS)} operations/s), ${LIVE_MULES} mules in each. Targets: ≥ 2,000 operations/s accepted; live fan-in alert p95 ≤ 60 s after its batch was accepted; every mule caught. The backfill's latency is the queue's length, shown for what it is.`,
        "",
        "| database | accepted (ops/s) | judged, to an empty backlog (ops/s) | backfill mules caught | backfill alert p50 / p95 | live mules caught | live alert p50 | live alert p95 | live alert max |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ...rows,
      ].join("\n"),
    };
  },
};
