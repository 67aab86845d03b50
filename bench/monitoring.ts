// Benchmark `monitoring`: on each database, the real service in this process (indexer, checker and deliverer on)
// following a real anvil chain with one confirmation, registered addresses, and an integrator that is a real HTTP
// server on 127.0.0.1. (1) Latency from the confirming block mined to the webhook received, for transfers that
// infringe Colombia's USD 150 rule, one at a time (BENCH_MONITOR_TRANSFERS, default 30). (2) Delivery throughput:
// BENCH_MONITOR_MESSAGES (default 2,000) notifications queued at once, delivered by the service's deliverer.
// (3) The noisy neighbour: the latency of (1) again while another project has 50 users behind an integrator that
// accepts connections and never answers, each receiving an infringing transfer, and two more of them one every
// transfer of the measured project.
// Targets: latency p95 ≤ 5 s, with and without the noisy neighbour; ≥ 200 webhooks/s.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { enqueue } from "../src/integrator/index.ts";
import { createProject } from "../src/keys/index.ts";
import { loadConfig } from "../src/platform/config.ts";
import { updateProject } from "../src/projects/index.ts";
import { startService } from "../src/service.ts";
import { Anvil } from "../test/indexer/support/anvil.ts";
import { type Benchmark, fmt, wantedDatabases } from "./support.ts";

const TRANSFERS = Number(process.env.BENCH_MONITOR_TRANSFERS || 30);
const MESSAGES = Number(process.env.BENCH_MONITOR_MESSAGES || 2_000);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** Every user is a client in Bogotá with what Colombia's files need (a profile problem would add an error message). */
const CLIENT = {
  givenName: "Ana",
  paternalSurname: "López",
  address: { country: "CO" },
  colombia: { tipoIdentificacion: "13", numeroIdentificacion: "1020304050" },
};

interface Latency {
  p50: number;
  p95: number;
  max: number;
}

interface Figures {
  database: string;
  latency: Latency;
  /** the same, while another project's integrator never answers */
  noisy: Latency;
  throughput: number;
}

/** Users of the noisy project. */
const NOISY_USERS = 50;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

const summary = (latencies: number[]): Latency => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) as number };
};

async function runOn(database: "pglite" | "postgres"): Promise<Figures> {
  const anvil = await Anvil.start();
  const arrivals = new Map<string, number>();
  let received = 0;
  const integrator = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (req.url?.includes("/users/")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(CLIENT));
        return;
      }
      received++;
      const tx = (JSON.parse(body) as { data?: { txHash?: string } }).data?.txHash;
      if (tx) arrivals.set(tx, performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  // The noisy neighbour's integrator: reads every request and never answers.
  const silent = http.createServer((req) => req.resume());
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-bench-monitor-"));
  const chains = path.join(dir, "chains.json");
  fs.writeFileSync(
    chains,
    JSON.stringify([
      { id: 31337, name: "anvil", currency_symbol: "ETH", rpc_url: anvil.url, confirmations: 1 },
    ]),
  );
  const schema = `bench_${crypto.randomBytes(6).toString("hex")}`;
  const config = loadConfig({
    VIGIA_SECRET: crypto.randomBytes(32).toString("base64"),
    VIGIA_LOG_LEVEL: "warn",
    // The lists' scheduled refresh (an internet download) is no part of what is measured.
    VIGIA_LIST_REFRESH_HOURS: "0",
    VIGIA_CHAINS: chains,
    VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
    ...(database === "postgres"
      ? { DATABASE_URL: POSTGRES_URL }
      : { VIGIA_DATA_DIR: path.join(dir, "data") }),
  });
  const service = await startService(config, {
    http: false,
    workers: true,
    ...(database === "postgres" ? { schema } : {}),
  });
  try {
    const db = service.database.db;
    const actor = { kind: "cli" } as const;
    const { projectId } = await createProject(service.keys, { name: "Bench" }, actor);
    await updateProject(
      service.projects,
      projectId,
      {
        integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
        jurisdictions: ["CO"],
      },
      actor,
    );
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await db
      .insertInto("prices")
      .values([-1, 0, 1].map((d) => ({ chain_id: 31337, token: "native", day: day(d), price_usd: "3000" })))
      .execute();
    const accounts = (await anvil.rpc<string[]>("eth_accounts")).map((a) => a.toLowerCase());
    // Registered once the indexer has a checkpoint (with one confirmation it needs two blocks): only what follows
    // counts.
    await anvil.rpc("evm_mine");
    await anvil.rpc("evm_mine");
    while (!(await db.selectFrom("indexer_checkpoints").select("block_number").executeTakeFirst()))
      await new Promise((r) => setTimeout(r, 100));
    for (const [i, account] of accounts.slice(1).entries()) {
      await db
        .insertInto("monitored_addresses")
        .values({ project_id: projectId, chain_id: 31337, address: account, foreign_user_id: `user-${i}` })
        .execute();
    }
    await db.updateTable("monitored_addresses").set({ watch_from_block: "0" }).execute();

    const send = async (to: string) =>
      (
        await anvil.rpc<string>("eth_sendTransaction", [
          { from: accounts[0], to, value: `0x${(10n ** 17n).toString(16)}` },
        ])
      ).toLowerCase();
    /** A transfer of USD 300 to a registered address, its confirming block, then its webhook: the ms between. */
    const latencyOfOne = async (i: number, before?: () => Promise<void>) => {
      await before?.();
      const tx = await send(accounts[1 + (i % (accounts.length - 1))] as string);
      await anvil.rpc("evm_mine");
      const confirmed = performance.now();
      const deadline = confirmed + 60_000;
      while (!arrivals.has(tx)) {
        if (performance.now() > deadline) throw new Error(`no webhook for ${tx} within 60 s`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return (arrivals.get(tx) as number) - confirmed;
    };

    // (1) Latency, one transfer at a time.
    const latencies: number[] = [];
    for (let i = 0; i < TRANSFERS; i++) latencies.push(await latencyOfOne(i));

    // (2) Throughput: many queued notifications, delivered by the service's own deliverer.
    const before = received;
    const at = new Date();
    const started = performance.now();
    for (let n = 0; n < MESSAGES; n++)
      await enqueue(db, { projectId, type: "notification", body: { type: "notification", data: { n } } }, at);
    const queued = performance.now();
    while (received - before < MESSAGES) await new Promise((r) => setTimeout(r, 10));
    const seconds = (performance.now() - queued) / 1000;

    // (3) The noisy neighbour: 50 users behind an integrator that never answers, each receiving a transfer over
    // USD 150, and two more every measured transfer; the measured project's latency meanwhile.
    const noisy = await createProject(service.keys, { name: "Noisy" }, actor);
    await updateProject(
      service.projects,
      noisy.projectId,
      {
        integration_url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        jurisdictions: ["CO"],
      },
      actor,
    );
    const noisyUsers = Array.from(
      { length: NOISY_USERS },
      () => `0x${crypto.randomBytes(20).toString("hex")}`,
    );
    await db
      .insertInto("monitored_addresses")
      .values(
        noisyUsers.map((address, i) => ({
          project_id: noisy.projectId,
          chain_id: 31337,
          address,
          foreign_user_id: `noisy-${i}`,
          watch_from_block: "0",
        })),
      )
      .execute();
    for (const address of noisyUsers) await send(address);
    let next = 0;
    const noisyLatencies: number[] = [];
    for (let i = 0; i < TRANSFERS; i++)
      noisyLatencies.push(
        await latencyOfOne(i, async () => {
          for (let k = 0; k < 2; k++) await send(noisyUsers[next++ % NOISY_USERS] as string);
        }),
      );
    const noisyFigures = summary(noisyLatencies);
    const quiet = summary(latencies);
    console.log(
      `  ${database}: latency p50 ${Math.round(quiet.p50)} ms, p95 ${Math.round(quiet.p95)} ms; ` +
        `beside a noisy neighbour p50 ${Math.round(noisyFigures.p50)} ms, p95 ${Math.round(noisyFigures.p95)} ms; ` +
        `${MESSAGES} queued in ${((queued - started) / 1000).toFixed(1)} s, delivered in ${seconds.toFixed(1)} s`,
    );
    return { database, latency: quiet, noisy: noisyFigures, throughput: MESSAGES / seconds };
  } finally {
    await service.close();
    await anvil.stop();
    for (const server of [integrator, silent]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    if (database === "postgres") {
      const pg = await import("pg");
      const admin = new pg.default.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const monitoringBenchmark: Benchmark = {
  name: "monitoring",
  title: "monitored transfer to webhook, and webhook delivery throughput",
  async run() {
    const rows: Figures[] = [];
    for (const database of wantedDatabases()) rows.push(await runOn(database));
    const meets = (f: Figures) => f.latency.p95 <= 5_000 && f.noisy.p95 <= 5_000 && f.throughput >= 200;
    const markdown = [
      "The real service in the benchmark process (indexer, checker and deliverer on) following anvil with one",
      "confirmation; the integrator is an HTTP server on 127.0.0.1 (signed calls, profile and webhook). Latency: a",
      `transfer of USD 300 to a registered address (Colombia's USD 150 rule), then its confirming block; timed from`,
      `that block mined to the webhook received, ${TRANSFERS} transfers one at a time. Throughput: ${fmt.rps(MESSAGES)}`,
      "notifications queued at once, timed from the last queued to the last received. Noisy neighbour: the latency",
      `again while another project has ${NOISY_USERS} users behind an integrator that accepts connections and never`,
      "answers, each with a transfer over USD 150, and two more such transfers before each measured one (its profile",
      "reads time out after 5 s, its webhooks after 10 s). Targets: p95 ≤ 5 s, with and without the neighbour; ≥ 200/s.",
      "",
      "| Database | latency p50 | p95 | max | beside a noisy neighbour: p50 | p95 | max | webhooks/s | Meets targets |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
      ...rows.map(
        (f) =>
          `| ${f.database === "pglite" ? "PGlite" : "PostgreSQL"} | ${Math.round(f.latency.p50)} ms | ${Math.round(f.latency.p95)} ms | ${Math.round(f.latency.max)} ms | ${Math.round(f.noisy.p50)} ms | ${Math.round(f.noisy.p95)} ms | ${Math.round(f.noisy.max)} ms | ${fmt.rps(f.throughput)} | ${meets(f) ? "yes" : "**no**"} |`,
      ),
      "",
      "The latency is mostly polling: the indexer looks for new blocks, and the checker and the deliverer for work,",
      "once a second each when idle.",
    ].join("\n");
    return { markdown, passed: rows.every(meets) };
  },
};
