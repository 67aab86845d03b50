// A fleet on one PostgreSQL (docs/operations.md, "Running a fleet on PostgreSQL"): 2 API processes
// (`vigia serve --no-workers`) and 2 workers (`vigia worker`), the real commands, following a real anvil chain.
// A second process on 127.0.0.1 sends a bounded load to both API processes (scans, risk jobs, incremental
// investigations, quick checks) while this test sends transfers to a monitored address on the chain. Mid-run the
// worker that follows the chain and one API process are killed with SIGKILL. Then: every risk job (the monitored
// address's first scan among them) and every investigation completes, each job once; every monitored transfer is
// checked and its webhook delivered to the integrator (a real server on 127.0.0.1); no request to the surviving API
// failed; the surviving worker took the chain over and says so in its metrics. PostgreSQL only (the embedded
// database is one process).
//
// Why it is slow: five processes (four of the service, each loading and migrating as a deployment does, and the
// load sender) start and run a load long enough for the kills to land mid-work; then the surviving worker must
// notice the dead one's chain lock and leases expire before it takes over, which is the point of the test. About
// 80 s on PostgreSQL on two cores.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Anvil } from "../indexer/support/anvil.ts";
import { newcomerEnv, runVigia, spawnVigia, type VigiaProcess } from "../process/vigia-process.ts";
import { type ChildLine, killChildProcesses, startChildProcess } from "../support/child-process.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { LOCAL_CHAINS, TEST_SECRET, writeChainsFile } from "../support/service.ts";

const LOAD = path.join(import.meta.dirname, "support", "fleet-load.ts");
const target = testDatabase();
let anvil: Anvil;
let integrator: http.Server;
/** webhook-id -> times delivered */
const delivered = new Map<string, number>();
const children: VigiaProcess[] = [];
let client: pg.Client;

/** Waits for `probe` to answer; on time out, the error says what `state` last saw. */
async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  state?: () => Promise<unknown>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${state ? `: ${JSON.stringify(await state())}` : ""}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const url = new URL(target.databaseUrl as string);
  url.searchParams.set("options", `-c search_path=${target.schema}`);
  return newcomerEnv({
    DATABASE_URL: url.toString(),
    VIGIA_JOBS_SCHEMA: target.schema as string,
    VIGIA_SECRET: TEST_SECRET,
    VIGIA_LOG_LEVEL: "warn",
    VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
    VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT: "10000",
    VIGIA_MAX_ACTIVE_ANALYSES_PER_PROJECT: "10000",
    VIGIA_METRICS_ALLOW: "127.0.0.1",
    VIGIA_CHAINS: chainsFile,
    ...extra,
  });
}
let chainsFile: string;

async function startApi(): Promise<{ proc: VigiaProcess; url: string }> {
  const proc = spawnVigia(["serve", "--no-workers"], env({ PORT: "0" }));
  children.push(proc);
  const [, url] = (await proc.waitForStdout(/listening on (http:\/\/\S+)\/v1/, 60_000)) as RegExpMatchArray;
  return { proc, url: url as string };
}

async function startWorker(): Promise<{ proc: VigiaProcess; url: string }> {
  const proc = spawnVigia(["worker"], env({ VIGIA_METRICS_PORT: "0" }));
  children.push(proc);
  const [, url] = (await proc.waitForStdout(
    /probes and metrics at (http:\/\/\S+)/,
    60_000,
  )) as RegExpMatchArray;
  return { proc, url: url as string };
}

async function metric(url: string, name: string, labels: string): Promise<number | undefined> {
  try {
    const text = await (await fetch(`${url}/metrics`)).text();
    const line = text.split("\n").find((l) => l.startsWith(`${name}{`) && l.includes(labels));
    return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : undefined;
  } catch {
    return undefined;
  }
}

const query = async <R>(text: string, params: unknown[] = []) =>
  (await client.query(text, params)).rows as R[];

beforeAll(async () => {
  if (!onPostgres) return;
  anvil = await Anvil.start();
  chainsFile = writeChainsFile([
    ...LOCAL_CHAINS.filter((c) => c.id !== 31337),
    { id: 31337, name: "anvil", currency_symbol: "ETH", rpc_url: anvil.url, confirmations: 0 },
  ]);
  integrator = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url?.includes("/users/")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ givenName: "ANA" }));
        return;
      }
      const id = String(req.headers["webhook-id"]);
      delivered.set(id, (delivered.get(id) ?? 0) + 1);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA ${target.schema}`);
  await client.query(`SET search_path = ${target.schema}`);
}, 60_000);

afterAll(async () => {
  killChildProcesses();
  for (const child of children) child.child.kill("SIGKILL");
  await Promise.all(children.map((c) => c.exited));
  await client?.end().catch(() => {});
  await anvil?.stop();
  integrator?.closeAllConnections();
  await new Promise((resolve) => integrator?.close(resolve));
  await target.drop();
  if (chainsFile) fs.rmSync(path.dirname(chainsFile), { recursive: true, force: true });
});

describe.skipIf(!onPostgres)("a fleet of 2 API processes and 2 workers on one PostgreSQL", () => {
  it("survives losing a worker and an API process mid-run: every job once, every webhook, no failed request", async () => {
    const migrated = await runVigia(["migrate"], env(), 120_000);
    expect(migrated.code, migrated.stderr).toBe(0);
    const created = await runVigia(["projects", "create", "--name", "fleet"], env(), 60_000);
    expect(created.code, created.stderr).toBe(0);
    const { projectId, key } = JSON.parse(created.stdout.trim()) as { projectId: number; key: string };

    const [a, b] = await Promise.all([startApi(), startApi()]);
    const workers = await Promise.all([startWorker(), startWorker()]);
    const api = a as { proc: VigiaProcess; url: string };
    const headers = { "x-api-key": `ApiKey ${key}`, "content-type": "application/json" };
    const [funder, user, ...others] = (await anvil.rpc<string[]>("eth_accounts")).map((x) => x.toLowerCase());
    const today = new Date();
    for (const d of [-1, 0, 1]) {
      const day = new Date(today.getTime() + d * 86_400_000).toISOString().slice(0, 10);
      await query("INSERT INTO prices (chain_id, token, day, price_usd) VALUES (31337, 'native', $1, 3000)", [
        day,
      ]);
    }
    const patched = await fetch(`${api.url}/v1/projects/${projectId}`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({
        integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
        jurisdictions: ["CO"],
      }),
    });
    expect(patched.status).toBe(200);
    // The chain is followed before the address is registered: only what follows counts.
    await until("a worker following the chain", async () => {
      const rows = await query<{ n: number }>("SELECT count(*)::int AS n FROM indexer_checkpoints");
      return rows[0]?.n ? true : undefined;
    });
    const registered = await fetch(`${api.url}/v1/projects/${projectId}/addresses`, {
      method: "POST",
      headers,
      body: JSON.stringify({ address: user, chainId: 31337, foreign_user_id: "alice" }),
    });
    expect(registered.status).toBe(201);
    // Registering it queued its first scan, a risk job (docs/decisions/0028): it too completes, once.
    const firstScans = (
      await query<{ id: string }>(
        "SELECT id::text AS id FROM analyses WHERE project_id = $1 AND address = $2 AND kind = 'job'",
        [projectId, user],
      )
    ).map((r) => r.id);
    expect(firstScans).toHaveLength(1);

    // Some history for the analyses to read.
    const send = (from: string, to: string, wei: bigint) =>
      anvil.rpc<string>("eth_sendTransaction", [{ from, to, value: `0x${wei.toString(16)}` }]);
    for (let i = 0; i < 6; i++) await send(others[i] as string, others[(i + 1) % 6] as string, 10n ** 16n);

    const load = startChildProcess<ChildLine & { api?: string; kind?: string; status?: number; id?: string }>(
      LOAD,
      {
        FLEET_APIS: [api.url, (b as { url: string }).url].join(","),
        FLEET_KEY: key,
        FLEET_PROJECT: String(projectId),
        FLEET_ADDRESSES: JSON.stringify([user, ...others.slice(0, 4)]),
        FLEET_ROUNDS: "16",
        FLEET_PAUSE_MS: "400",
      },
    );

    // Monitored transfers over Colombia's USD 150 (0.1 ETH at USD 3,000), before and after the kills.
    const monitored: string[] = [];
    const sendMonitored = async () =>
      monitored.push(await send(funder as string, user as string, 10n ** 17n));
    for (let i = 0; i < 3; i++) {
      await sendMonitored();
      await new Promise((r) => setTimeout(r, 500));
    }

    // Mid-run: the worker that follows the chain, and the second API process.
    await load.next("round", 60_000);
    const following = await until("the following worker", async () => {
      for (const w of workers)
        if ((await metric(w.url, "vigia_indexer_following", 'chain="31337"')) === 1) return w;
      return undefined;
    });
    const survivor = workers.find((w) => w !== following) as { proc: VigiaProcess; url: string };
    await until("a few rounds of load", async () =>
      load.lines.filter((l) => l.event === "round").length >= 6 ? true : undefined,
    );
    following.proc.child.kill("SIGKILL");
    (b as { proc: VigiaProcess }).proc.child.kill("SIGKILL");
    await Promise.all([following.proc.exited, (b as { proc: VigiaProcess }).proc.exited]);
    for (let i = 0; i < 3; i++) {
      await sendMonitored();
      await new Promise((r) => setTimeout(r, 500));
    }
    await load.next("done", 180_000);

    // No request to the surviving API failed.
    const requests = load.lines.filter((l) => l.event === "request");
    const toSurvivor = requests.filter((r) => r.api === api.url);
    expect(toSurvivor.length).toBe(16 * 4);
    expect(toSurvivor.filter((r) => !(r.status && r.status < 300))).toEqual([]);

    // Every risk job and every investigation accepted by either API completes, each job once.
    // (Investigations of one wallet and depth share their analysis: ids repeat.)
    const idsOf = (kind: string, status: number) => [
      ...new Set(requests.filter((r) => r.kind === kind && r.status === status).map((r) => r.id as string)),
    ];
    const jobIds = [...idsOf("risk-job", 202), ...firstScans];
    const analysisIds = idsOf("investigation", 201);
    expect(jobIds.length).toBeGreaterThanOrEqual(17);
    expect(analysisIds.length).toBeGreaterThanOrEqual(4);
    await until(
      "every analysis completed",
      async () => {
        const rows = await query<{ status: string; n: number }>(
          "SELECT status, count(*)::int AS n FROM analyses WHERE id = ANY($1) GROUP BY status",
          [[...jobIds, ...analysisIds]],
        );
        const done = rows.find((r) => r.status === "completed")?.n ?? 0;
        return done === jobIds.length + analysisIds.length ? true : undefined;
      },
      240_000,
      async () => ({
        ids: { jobs: jobIds.length, investigations: analysisIds.length },
        sample: requests.filter((r) => r.kind === "investigation").slice(0, 2),
        missing: (
          await query<{ id: string }>(
            "SELECT x AS id FROM unnest($1::text[]) x WHERE NOT EXISTS (SELECT 1 FROM analyses a WHERE a.id::text = x)",
            [[...jobIds, ...analysisIds]],
          )
        ).slice(0, 3),
        rows: await query(
          `SELECT a.kind, a.status, j.state::text AS job, count(*)::int AS n FROM analyses a
           LEFT JOIN ${target.schema}.job j ON j.data->>'analysisId' = a.id::text
           WHERE a.id = ANY($1) GROUP BY 1, 2, 3`,
          [[...jobIds, ...analysisIds]],
        ),
      }),
    );
    const riskJobs = await query<{ analysis: string; state: string; n: number }>(
      `SELECT data->>'analysisId' AS analysis, state::text, count(*)::int AS n FROM ${target.schema}.job
       WHERE name = 'risk-analysis' GROUP BY 1, 2`,
    );
    expect(riskJobs.every((j) => j.state === "completed" && j.n === 1)).toBe(true);
    expect(riskJobs.map((j) => j.analysis).sort()).toEqual([...jobIds].sort());
    const layers = await query<{ analysis_id: string; n: number }>(
      "SELECT analysis_id, count(*)::int AS n FROM analysis_layers WHERE analysis_id = ANY($1) GROUP BY 1",
      [analysisIds],
    );
    expect(layers.length).toBe(analysisIds.length);
    expect(layers.every((l) => l.n === 3)).toBe(true);

    // Every monitored transfer checked and its webhook delivered (at least once; one message each).
    await until(
      "every monitored transfer notified",
      async () => {
        const rows = await query<{ tx_hash: string; status: string; message_id: string }>(
          `SELECT tx_hash, status, message_id FROM notifications WHERE project_id = $1 AND type = 'notification'`,
          [projectId],
        );
        const all = rows.length === monitored.length && rows.every((r) => r.status === "delivered");
        return all && rows.every((r) => delivered.has(r.message_id)) ? rows : undefined;
      },
      240_000,
    ).then((rows) =>
      expect(rows.map((r) => r.tx_hash).sort()).toEqual(monitored.map((h) => h.toLowerCase()).sort()),
    );

    // The survivor took the chain over, and counted what it delivered.
    expect(await metric(survivor.url, "vigia_indexer_following", 'chain="31337"')).toBe(1);
    expect(await metric(survivor.url, "vigia_indexer_head_lag_blocks", 'chain="31337"')).toBeLessThanOrEqual(
      1,
    );
    expect(await metric(survivor.url, "vigia_jobs", 'state="waiting"')).toBe(0);
  }, 600_000);
});
