// Coverage in every verdict (docs/decisions/0024-ledger-and-coverage.md, docs/api.md "Coverage"): a quick check, a
// scan result, a job's result and the wallet status say what they rest on (source, reach, transfers read), and an
// address is never cleared on data the service does not hold current: a chain with no data at all, an import that
// ends before the window, an index that lags its node or has gone silent, an explorer that cannot be reached. Risk
// found on such data is still reported, with its coverage. /readyz and /metrics show only the chains this deployment
// follows, not a checkpoint nothing here moves.
// PGlite, or PostgreSQL with DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdTransfer } from "../support/ledger.ts";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";

const NO_DATA = 7201;
const IMPORTED = 7202;
const INDEXED = 7203;
const EXPLORER_DOWN = 7204;
const MAX_LAG = 20;

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const clean = addr(0xc1);
const peer = addr(0xc2);
const exposed = addr(0xe1);
const sanctioned = addr(0x5a);
const LAST_IMPORTED = new Date("2024-03-01T12:00:00Z");

let svc: TestService;

/** A port on 127.0.0.1 nothing listens on (a server opened and closed): connections are refused. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  const chain = (id: number, name: string, extra: object = {}) => ({
    id,
    name,
    currency_symbol: "ETH",
    ...extra,
  });
  svc = await startTestService({
    chains: [
      ...LOCAL_CHAINS,
      chain(NO_DATA, "No data"),
      chain(IMPORTED, "Imported"),
      chain(INDEXED, "Indexed"),
      chain(EXPLORER_DOWN, "Explorer down", {
        explorer_api_url: `http://127.0.0.1:${await closedPort()}/api/v2`,
        explorer_rate_limit_per_second: 1000,
      }),
    ],
    // Each step below writes the indexer's checkpoint and expects the next verdict to see it: no reuse of the chain's
    // holding (its reuse has its own test, coverage-reuse.test.ts).
    env: { VIGIA_COVERAGE_MAX_LAG_BLOCKS: String(MAX_LAG), VIGIA_COVERAGE_TTL_MS: "0" },
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  const db = svc.database.db;
  await db
    .insertInto("labels")
    .values({
      address: sanctioned,
      chain_id: 0,
      label: "OFAC SDN test",
      category: "sanctioned",
      source: "test",
    })
    .execute();
  for (const chainId of [IMPORTED, INDEXED]) {
    await holdTransfer(db, {
      chainId,
      from: clean,
      to: peer,
      at: new Date("2024-02-01T00:00:00Z"),
      block: 10n,
    });
    await holdTransfer(db, {
      chainId,
      from: sanctioned,
      to: exposed,
      at: LAST_IMPORTED,
      block: 20n,
      hash: `0x${"5a".repeat(32)}`,
    });
  }
});
afterAll(async () => {
  await svc?.stop();
});

const get = (url: string) => svc.app!.inject({ method: "GET", url, headers: auth(svc.project.keys.viewer) });
const post = (url: string, payload: object) =>
  svc.app!.inject({ method: "POST", url, headers: auth(svc.project.keys.developer), payload });
const quick = async (address: string, chainId: number) =>
  (await get(`/v1/risk/quick?address=${address}&chainId=${chainId}`)).json().data;
async function scan(address: string, chainId: number) {
  const res = await post(`/v1/projects/${svc.project.id}/addresses/scan-risk`, {
    addresses: [{ address, chainId: String(chainId) }],
    skipExisting: false,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}
async function job(payload: object) {
  const res = await post("/v1/risk", payload);
  expect(res.statusCode).toBe(202);
  const id = res.json().data.jobId as string;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const view = (await get(`/v1/risk/${id}`)).json().data;
    if (view.status === "completed" || view.status === "failed") return view;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`job ${id} did not finish`);
}

/** The indexer's checkpoint of INDEXED: the last block confirmed, the head it saw and when. */
async function indexerAt(o: { block: bigint; head: bigint | null; seenSecondsAgo: number }) {
  const db = svc.database.db;
  await db
    .insertInto("blocks")
    .values({
      chain_id: INDEXED,
      number: o.block.toString(),
      hash: `0x${o.block.toString(16)}`,
      timestamp: LAST_IMPORTED,
    })
    .onConflict((oc) => oc.columns(["chain_id", "number"]).doNothing())
    .execute();
  const seen = new Date(Date.now() - o.seenSecondsAgo * 1000);
  const row = {
    block_number: o.block.toString(),
    block_hash: `0x${o.block.toString(16)}`,
    updated_at: seen,
    head_number: o.head === null ? null : o.head.toString(),
    head_seen_at: o.head === null ? null : seen,
  };
  await db
    .insertInto("indexer_checkpoints")
    .values({ chain_id: INDEXED, ...row })
    .onConflict((oc) => oc.column("chain_id").doUpdateSet(row))
    .execute();
}

describe("a chain the service holds no data of", () => {
  it("gives no all-clear: the quick check, the scan, the job and the wallet status withhold it", async () => {
    const q = await quick(clean, NO_DATA);
    expect(q).toMatchObject({ risk: null, level: null, errorCode: "no_data" });
    expect(q.coverage).toMatchObject({
      chainId: String(NO_DATA),
      source: "none",
      current: false,
      transfersRead: 0,
    });
    expect(q.reason).toContain("No verdict");
    expect(q.coverage.note).toContain("no indexer follows it (rpc_url)");

    const s = await scan(clean, NO_DATA);
    expect(s.summary).toMatchObject({ completed: 0, failed: 1 });
    expect(s.results[0]).toMatchObject({
      status: "failed",
      riskScore: null,
      riskLevel: null,
      errorCode: "no_data",
      coverage: { source: "none", current: false },
    });

    const j = await job({ address: clean, chainId: NO_DATA });
    expect(j.status).toBe("failed");
    expect(j.result).toMatchObject({ riskScore: null, riskLevel: null, errorCode: "no_data" });
    expect(j.result.coverage.source).toBe("none");

    const status = (await get(`/v1/wallets/${clean}/status?chainId=${NO_DATA}`)).json().data;
    expect(status.status).toBe("unknown");
  });

  it("is what a check without chainId answers for Ethereum when nothing of chain 1 is held", async () => {
    const q = (await get(`/v1/risk/quick?address=${clean}`)).json().data;
    expect(q).toMatchObject({
      risk: null,
      level: null,
      errorCode: "no_data",
      coverage: { chainId: "1", source: "none" },
    });
  });
});

describe("an imported chain", () => {
  it("answers as of the import's end, and says so", async () => {
    const s = await scan(clean, IMPORTED);
    expect(s.results[0]).toMatchObject({ status: "completed", riskLevel: "minimal" });
    expect(s.results[0].coverage).toMatchObject({
      source: "import",
      current: true,
      dataFrom: "2024-02-01T00:00:00.000Z",
      dataUntil: LAST_IMPORTED.toISOString(),
      transfersRead: 1,
    });
    expect(s.results[0].coverage.note).toContain("the verdict is as of");
  });

  it("withholds the all-clear of a window that reaches past the import, not the risk it finds there", async () => {
    const cleared = await job({
      address: clean,
      chainId: IMPORTED,
      fromDate: "2024-01-01",
      toDate: "2024-06-30",
    });
    expect(cleared).toMatchObject({ status: "failed", result: { errorCode: "no_data", riskLevel: null } });
    expect(cleared.result.coverage).toMatchObject({ source: "import", current: false });

    const within = await job({
      address: clean,
      chainId: IMPORTED,
      fromDate: "2024-01-01",
      toDate: "2024-02-15",
    });
    expect(within).toMatchObject({
      status: "completed",
      result: { riskLevel: "minimal", coverage: { current: true } },
    });

    const risky = await job({
      address: exposed,
      chainId: IMPORTED,
      fromDate: "2024-01-01",
      toDate: "2024-06-30",
    });
    expect(risky.status).toBe("completed");
    expect(["high", "critical"]).toContain(risky.result.riskLevel);
    expect(risky.result.coverage).toMatchObject({ source: "import", current: false });
  });
});

describe("an indexed chain", () => {
  it("is current while the index keeps up with its node", async () => {
    await indexerAt({ block: 20n, head: 25n, seenSecondsAgo: 5 });
    const q = await quick(clean, INDEXED);
    expect(q.level).toBe("minimal");
    expect(q.coverage).toMatchObject({
      source: "index",
      current: true,
      block: "20",
      lagBlocks: 5,
      dataUntil: LAST_IMPORTED.toISOString(),
      transfersRead: 1,
    });
  });

  it("withholds the all-clear when the index lags beyond the limit, at and around it", async () => {
    await indexerAt({ block: 20n, head: 20n + BigInt(MAX_LAG), seenSecondsAgo: 5 });
    expect((await quick(clean, INDEXED)).level).toBe("minimal");
    await indexerAt({ block: 20n, head: 20n + BigInt(MAX_LAG) + 1n, seenSecondsAgo: 5 });
    const q = await quick(clean, INDEXED);
    expect(q).toMatchObject({
      level: null,
      errorCode: "no_data",
      coverage: { current: false, lagBlocks: MAX_LAG + 1 },
    });
    expect(q.coverage.note).toContain("blocks behind the node's head");
    // Risk found on lagging data is still reported.
    const risky = await quick(exposed, INDEXED);
    expect(["high", "critical"]).toContain(risky.level);
    expect(risky.coverage.current).toBe(false);
  });

  it("withholds the all-clear when the indexer has gone silent", async () => {
    await indexerAt({ block: 20n, head: 20n, seenSecondsAgo: 301 });
    const q = await quick(clean, INDEXED);
    expect(q).toMatchObject({ level: null, errorCode: "no_data" });
    expect(q.coverage.note).toContain("has not reported since");
    await indexerAt({ block: 20n, head: 20n, seenSecondsAgo: 290 });
    expect((await quick(clean, INDEXED)).level).toBe("minimal");
  });

  it("a chain no indexer of this deployment follows (no rpc_url) serves verdicts from its data, but is not in /readyz or /metrics", async () => {
    // The checkpoint is another setup's (an indexer elsewhere, a store moved here): its last lag is no news of a
    // follower of this deployment. A followed chain's lag is shown: test/operations/readiness.test.ts.
    await indexerAt({ block: 20n, head: 27n, seenSecondsAgo: 5 });
    expect((await quick(clean, INDEXED)).coverage).toMatchObject({ source: "index", block: "20" });
    const ready = await svc.app!.inject({ url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().chains.find((c: { chainId: number }) => c.chainId === INDEXED)).toBeUndefined();
    const metrics = await svc.app!.inject({ url: "/metrics", headers: auth(svc.project.keys.admin) });
    expect(metrics.body).not.toContain(`vigia_chain_lag_blocks{chain="${INDEXED}"}`);
  });
});

describe("a chain whose explorer cannot be reached", () => {
  it("says so, and gives no all-clear", async () => {
    const q = await quick(clean, EXPLORER_DOWN);
    expect(q).toMatchObject({ level: null, errorCode: "no_data" });
    expect(q.coverage).toMatchObject({ source: "explorer", current: false, dataUntil: null });
    expect(q.coverage.note).toContain("The explorer could not be reached");
  });
});
