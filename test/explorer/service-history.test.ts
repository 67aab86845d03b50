// Explorer histories in the running service: a chain whose config names an explorer API (`explorer_api_url`) and
// that nothing indexes gets its graphs from the explorer. The quick check, a scan, a risk job and an investigation
// each fetch the histories they read into the store (cache-through: a second analysis makes no request), the
// fetch is recorded in explorer_fetches, and a chain without an explorer API makes no request at all (public
// explorers are off in test services; public-explorers.test.ts has them on). The explorer is the replay server on
// 127.0.0.1 speaking Blockscout API v2.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";
import { addressOf, HEAD_TIME, makeHistory } from "./history-data.ts";
import { ReplayExplorer } from "./replay-explorer.ts";

const EXPLORED = 7100;
const NOT_EXPLORED = 7101;
const subject = makeHistory({ seed: "svc", txs: 40, tokenTransfers: 10 });
/** Sends the subject ETH in the history's 4th transaction (incoming every 3rd): a direct counterparty. */
const sanctioned = addressOf("svc:peer:3");
/** Receives from the subject in its 2nd transaction: an ordinary counterparty, expanded at depth 2. */
const ordinary = addressOf("svc:peer:1");

let svc: TestService;
let explorer: ReplayExplorer;

beforeAll(async () => {
  explorer = await ReplayExplorer.start(subject);
  svc = await startTestService({
    chains: [
      ...LOCAL_CHAINS,
      {
        id: EXPLORED,
        name: "Explored chain",
        currency_symbol: "ETH",
        explorer_api_url: explorer.url,
        explorer_rate_limit_per_second: 1000,
      },
      // Its statistics' Blockscout is the same server: with public explorers off, histories never come from there.
      { id: NOT_EXPLORED, name: "Statistics only", currency_symbol: "ETH", blockscout_url: explorer.url },
    ],
    // The replay explorer runs on 127.0.0.1: explorer requests go through the outbound client, which allows it here.
    env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" },
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  const db = svc.database.db;
  await db
    .insertInto("labels")
    .values({
      address: sanctioned,
      chain_id: 0,
      label: "OFAC SDN test entry",
      category: "sanctioned",
      source: "test",
    })
    .execute();
  const day = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);
  for (const chainId of [EXPLORED, NOT_EXPLORED]) {
    await db
      .insertInto("prices")
      .values(
        [HEAD_TIME - 86_400, HEAD_TIME].map((t) => ({
          chain_id: chainId,
          token: "native",
          day: day(t),
          price_usd: "3000",
        })),
      )
      .execute();
  }
});
afterAll(async () => {
  await svc?.stop();
  await explorer?.close();
});

const get = (url: string) => svc.app!.inject({ method: "GET", url, headers: auth(svc.project.keys.viewer) });
const post = (url: string, payload: object) =>
  svc.app!.inject({ method: "POST", url, headers: auth(svc.project.keys.developer), payload });

async function fetchRecords(chainId: number) {
  const { rows } = await sql<{ address: string; transfer_count: number; truncated: boolean }>`
    SELECT address, transfer_count, truncated FROM explorer_fetches WHERE chain_id = ${chainId}
    ORDER BY address`.execute(svc.database.db);
  return rows;
}

describe("explorer histories in the service", () => {
  it("the quick check fetches the address's history and sees its sanctioned counterparty", async () => {
    await explorer.clearLog();
    const res = await get(`/v1/risk/quick?address=${subject.address}&chainId=${EXPLORED}`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.risk).toBeGreaterThanOrEqual(80);
    expect(data.reason).toMatch(/sanction/i);
    const paths = (await explorer.requests()).map((r) => r.path);
    expect(paths.filter((p) => p.endsWith("/transactions")).length).toBeGreaterThan(0);
    expect(paths.filter((p) => p.endsWith("/token-transfers")).length).toBeGreaterThan(0);
    const records = await fetchRecords(EXPLORED);
    expect(records.find((r) => r.address === subject.address)).toMatchObject({ truncated: false });
    expect(records.find((r) => r.address === subject.address)!.transfer_count).toBeGreaterThan(0);
  });

  it("a scan at depth 2 reads the stored history without asking again, and fetches the next layer's", async () => {
    await explorer.clearLog();
    const res = await post(`/v1/projects/${svc.project.id}/addresses/scan-risk`, {
      addresses: [{ address: subject.address, chainId: String(EXPLORED) }],
      maxDepth: 2,
    });
    expect(res.statusCode).toBe(200);
    const [result] = res.json().data.results;
    expect(result).toMatchObject({ status: "completed", riskLevel: "critical" });
    expect(result.analysisEvidence.transactionsAnalyzed).toBeGreaterThan(0);
    const asked = new Set((await explorer.requests()).map((r) => r.path.split("/")[4]?.toLowerCase()));
    // Layer 0 was cached by the quick check; layer 1 asked for the ordinary counterparties (unknown to the
    // explorer: 404), never for the sanctioned one, which ends its path.
    expect(asked.has(subject.address)).toBe(false);
    expect(asked.has(ordinary)).toBe(true);
    expect(asked.has(sanctioned)).toBe(false);
    // Every expanded address is recorded, the ones the explorer never saw with an empty history.
    const records = await fetchRecords(EXPLORED);
    expect(records.find((r) => r.address === ordinary)).toMatchObject({ transfer_count: 0 });
  });

  it("a risk job and an investigation use the same histories", async () => {
    const job = await post("/v1/risk", { address: subject.address, chainId: EXPLORED });
    expect(job.statusCode).toBe(202);
    const { jobId } = job.json().data;
    const deadline = Date.now() + 30_000;
    let data = (await get(`/v1/risk/${jobId}`)).json().data;
    while (data.status !== "completed" && data.status !== "failed" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      data = (await get(`/v1/risk/${jobId}`)).json().data;
    }
    expect(data.status).toBe("completed");
    expect(data.result).toMatchObject({ riskLevel: "critical" });

    const investigation = await post(`/v1/projects/${svc.project.id}/investigations`, {
      name: "Explored wallet",
      address: subject.address,
      chainId: String(EXPLORED),
      maxDepth: 1,
    });
    expect(investigation.statusCode).toBe(201);
    const nodes = Object.keys(investigation.json().data.graph.nodes).map((id) => id.toLowerCase());
    expect(nodes).toContain(sanctioned);
  });

  it("a chain without an explorer API makes no request, reads the store as it is, and clears no one on nothing", async () => {
    await explorer.clearLog();
    const res = await get(`/v1/risk/quick?address=${subject.address}&chainId=${NOT_EXPLORED}`);
    expect(res.statusCode).toBe(200);
    // The store holds nothing of that chain: the verdict is withheld, never an all-clear.
    expect(res.json().data).toMatchObject({
      risk: null,
      level: null,
      errorCode: "no_data",
      patterns: [],
      coverage: { source: "none", current: false },
    });
    expect(await explorer.requests()).toEqual([]);
    expect(await fetchRecords(NOT_EXPLORED)).toEqual([]);
  });
});
