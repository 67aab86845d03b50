// Benchmark `exchange-operations`: on each database, the real service in this process (API on 127.0.0.1 and the
// workers, so the operation monitor judges while the API ingests) and an integrator that is a real HTTP server on
// 127.0.0.1 answering every client's profile. BENCH_OPS operations (default 1,000,000) of BENCH_OP_CLIENTS clients
// (default 50,000) are POSTed in batches of 1,000, over about a month, interleaved as an exchange's day would
// interleave them: most clients deposit from their own account or one employer, buy and sell, sometimes withdraw
// to a wallet; one client in a hundred is a mule account fed by six SPEI payers within hours and then withdrawing
// USDT, which the fan-in rule must catch. Measured: operations accepted per second (the POSTs), the monitor's
// operations judged per second until the backlog is empty, and, for each mule's withdrawal, the time from its
// batch being accepted to its fan-in alert (p50, p95, max).
// Targets: ≥ 2,000 operations/s accepted; alert p95 ≤ 60 s while the ingest runs.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
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
                  : { name: `Empleador ${c % 997} SA de CV`, account: clabe(8_000_000 + (c % 997)) },
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

interface Figures {
  database: string;
  operations: number;
  ingestSeconds: number;
  judgeSeconds: number;
  mules: number;
  caught: number;
  latency: { p50: number; p95: number; max: number };
}

async function runOn(database: "pglite" | "postgres", planned: Planned[]): Promise<Figures> {
  const integrator = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        givenName: "Ana",
        paternalSurname: "Pérez",
        maternalSurname: "García",
        address: { country: "MX" },
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
    const accepted = new Map<string, number>();
    const started = performance.now();
    for (let i = 0; i < planned.length; i += BATCH) {
      const batch = planned.slice(i, i + BATCH);
      const res = await fetch(`${url}/v1/projects/${projectId}/operations`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": `ApiKey ${key}` },
        body: JSON.stringify({ operations: batch.map((p) => p.op) }),
      });
      if (res.status !== 200) throw new Error(`batch ${i / BATCH}: ${res.status} ${await res.text()}`);
      const at = Date.now();
      for (const p of batch) if (p.mule) accepted.set(p.mule, at);
      if ((i / BATCH) % 100 === 0)
        console.log(`  ${database}: ${(i + batch.length).toLocaleString("en-US")} operations sent`);
    }
    const ingestSeconds = (performance.now() - started) / 1000;
    // The monitor's backlog, until empty.
    for (;;) {
      const { rows } = await sql<{
        n: string;
      }>`SELECT count(*)::text AS n FROM exchange_operations WHERE checked_at IS NULL`.execute(db);
      if (Number(rows[0]?.n ?? 0) === 0) break;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const judgeSeconds = (performance.now() - started) / 1000;
    const alerts = await db
      .selectFrom("alerts")
      .select(["user_id", "created_at"])
      .where("project_id", "=", projectId)
      .where("cause", "=", "fan_in")
      .execute();
    const latencies = alerts.flatMap((a) => {
      const sent = accepted.get(a.user_id as string);
      return sent === undefined ? [] : [Math.max(0, new Date(a.created_at).getTime() - sent)];
    });
    const sorted = latencies.sort((a, b) => a - b);
    return {
      database,
      operations: planned.length,
      ingestSeconds,
      judgeSeconds,
      mules: accepted.size,
      caught: new Set(alerts.map((a) => a.user_id)).size,
      latency: sorted.length
        ? { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) as number }
        : { p50: Number.NaN, p95: Number.NaN, max: Number.NaN },
    };
  } finally {
    await service.close();
    integrator.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const exchangeOperationsBenchmark: Benchmark = {
  name: "exchange-operations",
  title: `${OPS.toLocaleString("en-US")} exchange operations of ${CLIENTS.toLocaleString("en-US")} clients, in batches of 1,000, judged while they arrive`,
  async run() {
    const planned = population();
    const figures: Figures[] = [];
    for (const database of wantedDatabases()) {
      console.log(`exchange-operations on ${database}: ${planned.length.toLocaleString("en-US")} operations`);
      const f = await runOn(database, planned);
      console.log(`  ${JSON.stringify(f)}`);
      figures.push(f);
    }
    const rows = figures.map(
      (f) =>
        `| ${f.database} | ${fmt.rps(f.operations / f.ingestSeconds)} | ${fmt.rps(f.operations / f.judgeSeconds)} | ${f.caught} of ${f.mules} | ${(f.latency.p50 / 1000).toFixed(1)} s | ${(f.latency.p95 / 1000).toFixed(1)} s | ${(f.latency.max / 1000).toFixed(1)} s |`,
    );
    const passed = figures.every(
      (f) => f.operations / f.ingestSeconds >= 2_000 && f.latency.p95 <= 60_000 && f.caught === f.mules,
    );
    return {
      passed,
      markdown: [
        `${OPS.toLocaleString("en-US")} operations of ${CLIENTS.toLocaleString("en-US")} clients (one in a hundred a mule fed by six SPEI payers, then withdrawing USDT), POSTed in batches of 1,000 to the API on 127.0.0.1 while the workers judge them (rules and Mexico's law); targets ≥ 2,000 operations/s accepted, fan-in alert p95 ≤ 60 s after its batch was accepted, every mule caught.`,
        "",
        "| database | accepted (ops/s) | judged, to an empty backlog (ops/s) | mules caught | alert p50 | alert p95 | alert max |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        ...rows,
      ].join("\n"),
    };
  },
};
