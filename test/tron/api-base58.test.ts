// Every risk route, an investigation, the wallet report and monitoring on a Tron chain, with base58check addresses:
// the devnet world written to the store as Tron carries it, under Tron mainnet's id (728126428), whose addresses the store keeps in
// Tron's JSON-RPC hex (src/chains/address/tron.ts). The routes take base58 (and the hex forms), answer base58 only
// (no stored hex form of an address left in any answer), and name a wrong checksum. PGlite, or PostgreSQL with
// DATABASE_URL; workers in the test's process for the job and the investigation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tronBase58 } from "../../src/chains/address/index.ts";
import { TRON_MAINNET_ID } from "../../src/chains/index.ts";
import { PATTERNS } from "../../src/risk/index.ts";
import { devnetWorld, TRON_TOKENS, writeWorldToStore } from "../../src/worlds/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
const world = devnetWorld();
const CHAIN = String(TRON_MAINNET_ID);
const positives = world.cases.filter(
  (c) => c.positive && (PATTERNS as readonly string[]).includes(c.pattern),
);
const peel = positives.find((c) => c.pattern === "peel_chain")!;
/** A stored (hex) form of an address anywhere in an answer: none may be left on a Tron chain. */
const STORED_FORM = /(?<![0-9a-fA-Fx])0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/;
const b58 = (hex: string) => tronBase58(hex.toLowerCase());
/** The base58 form with one character changed (the checksum then fails). */
const flipped = (a: string) => `${a.slice(0, 12)}${a[12] === "a" ? "b" : "a"}${a.slice(13)}`;

beforeAll(async () => {
  svc = await startTestService({
    env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" },
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  // The devnet world as Tron carries it: TRX (6 decimals) and USDT (src/worlds/render/chain-tokens.ts).
  await writeWorldToStore(svc.database.db, world, TRON_MAINNET_ID, TRON_TOKENS);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

const get = (url: string, key = svc.project.keys.viewer) => svc.app!.inject({ url, headers: auth(key) });
const post = (url: string, payload: object, key = svc.project.keys.developer) =>
  svc.app!.inject({ method: "POST", url, headers: auth(key), payload });

describe("risk routes on Tron, in base58", () => {
  it("scan-risk finds every injected pattern of a base58 subject and answers base58 only", async () => {
    const res = await post(`/v1/projects/${svc.project.id}/addresses/scan-risk`, {
      addresses: positives.map((c) => ({ address: b58(c.subject), chainId: CHAIN })),
      maxDepth: 3,
      skipExisting: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(STORED_FORM);
    const results = res.json().data.results as { address: string; patterns: string[] }[];
    positives.forEach((c, i) => {
      expect(results[i]!.address).toBe(b58(c.subject));
      expect(results[i]!.patterns, c.id).toContain(c.pattern);
    });
  });

  it("the quick check takes base58 and both hex forms alike, and names a wrong checksum", async () => {
    const hex = peel.subject.toLowerCase();
    const answers = [];
    for (const form of [b58(hex), hex, `41${hex.slice(2)}`]) {
      const res = await get(`/v1/risk/quick?chainId=${CHAIN}&address=${form}`);
      expect(res.statusCode, form).toBe(200);
      expect(res.body).not.toMatch(STORED_FORM);
      answers.push(res.json().data);
    }
    expect(answers[1]).toEqual(answers[0]);
    for (const p of answers[0].patterns as { involvedWallets: string[] }[])
      for (const w of p.involvedWallets) expect(w).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(answers[2]).toEqual(answers[0]);
    const bad = await get(`/v1/risk/quick?chainId=${CHAIN}&address=${flipped(b58(hex))}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: "/address", message: expect.stringContaining("checksum") }]);
    // On an EVM chain a base58 address is no address.
    expect((await get(`/v1/risk/quick?chainId=1&address=${b58(hex)}`)).statusCode).toBe(400);
  });

  it("a wrong checksum in a scan fails that address only, saying why", async () => {
    const res = await post(`/v1/projects/${svc.project.id}/addresses/scan-risk`, {
      addresses: [
        { address: flipped(b58(peel.subject)), chainId: CHAIN },
        { address: b58(peel.subject), chainId: CHAIN },
      ],
      maxDepth: 1,
    });
    expect(res.statusCode).toBe(200);
    const [failed, done] = res.json().data.results;
    expect(failed.status).toBe("failed");
    expect(failed.riskReason).toContain("checksum");
    expect(done.status).not.toBe("failed");
  });

  it("stored results and a risk job answer in base58", async () => {
    const stored = await get(
      `/v1/projects/${svc.project.id}/addresses/scan-risk?chainId=${CHAIN}&addresses=${b58(peel.subject)},${b58(world.cases[0]!.subject)}`,
    );
    expect(stored.statusCode).toBe(200);
    expect(stored.body).not.toMatch(STORED_FORM);
    expect(stored.json().data.results.map((r: { address: string }) => r.address)).toContain(
      b58(peel.subject),
    );

    const started = await post("/v1/risk", { address: b58(peel.subject), chainId: TRON_MAINNET_ID });
    expect(started.statusCode).toBe(202);
    const { jobId } = started.json().data;
    let job: { status: string; result?: { address: string } } = { status: "queued" };
    for (let i = 0; i < 120 && job.status !== "completed" && job.status !== "failed"; i++) {
      await new Promise((r) => setTimeout(r, 250));
      job = (await get(`/v1/risk/${jobId}`, svc.project.keys.developer)).json().data;
    }
    expect(job.status).toBe("completed");
    expect(job.result?.address).toBe(b58(peel.subject));
    const bad = await post("/v1/risk", { address: flipped(b58(peel.subject)), chainId: TRON_MAINNET_ID });
    expect(bad.statusCode).toBe(400);
  });
});

describe("investigations, the wallet report and monitoring on Tron", () => {
  it("an investigation of a base58 wallet draws its graph keyed in base58", async () => {
    const res = await post(`/v1/projects/${svc.project.id}/investigations`, {
      name: "tron peel",
      wallet: b58(peel.subject),
      chainId: CHAIN,
      maxDepth: 2,
    });
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toMatch(STORED_FORM);
    const { graph, analysis_id, id } = res.json().data;
    expect(graph.nodes[b58(peel.subject)]).toBeDefined();
    for (const key of Object.keys(graph.nodes)) expect(key).toMatch(/^T/);
    // Read back later, without a chainId in the request: the investigation and each completed layer (the stored
    // bytes of a layer, written as the chain writes addresses).
    const detail = await get(`/v1/projects/${svc.project.id}/investigations/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).not.toMatch(STORED_FORM);
    for (const layer of [0, 1]) {
      const read = await get(`/v1/analysis/${analysis_id}/layers/${layer}`);
      expect(read.statusCode).toBe(200);
      expect(read.json().data.status).toBe("completed");
      expect(read.body).not.toMatch(STORED_FORM);
      expect(read.body).toContain(b58(peel.subject));
    }
  });

  it("the wallet report reads a Tron address's transfers and names every address in base58", async () => {
    const res = await get(`/v1/wallets/${b58(peel.subject)}/report`);
    expect(res.statusCode).toBe(200);
    const markdown: string = res.json().data;
    expect(markdown).toContain(b58(peel.subject));
    expect(markdown).not.toMatch(STORED_FORM);
    expect(markdown).not.toContain("no transaction data for tron");
    expect(markdown).toContain("Tron");
    // The hex form on the Tron chain is the same wallet.
    const hex = await get(`/v1/wallets/${peel.subject.toLowerCase()}/report?chainId=${CHAIN}`);
    expect(hex.statusCode).toBe(200);
    expect(hex.json().data).toContain(b58(peel.subject));
  });

  it("a wallet's status takes and answers base58, its transfers' counterparties too", async () => {
    const res = await get(`/v1/wallets/${b58(peel.subject)}/status?chainId=${CHAIN}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(STORED_FORM);
    const { lastTxs } = res.json().data as { lastTxs: { counterparty: string; token: string }[] };
    expect(lastTxs.length).toBeGreaterThan(0);
    for (const t of lastTxs) expect(t.counterparty).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const bad = await get(`/v1/wallets/${flipped(b58(peel.subject))}/status?chainId=${CHAIN}`);
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().details)).toContain("checksum");
  });

  it("registers a Tron address in base58 on its chain; without the chain it says which to give", async () => {
    const url = `/v1/projects/${svc.project.id}/addresses`;
    const address = b58(world.cases[0]!.subject);
    const res = await post(url, { address, chainId: CHAIN, foreign_user_id: "tron-user-1" });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.address).toBe(address);
    expect(res.body).not.toMatch(STORED_FORM);
    const noChain = await post(url, { address, foreign_user_id: "tron-user-2" });
    expect(noChain.statusCode).toBe(400);
    expect(JSON.stringify(noChain.json().details)).toContain(CHAIN);
    const badSum = await post(url, {
      address: flipped(address),
      chainId: CHAIN,
      foreign_user_id: "tron-user-3",
    });
    expect(badSum.statusCode).toBe(400);
    expect(JSON.stringify(badSum.json().details)).toContain("checksum");
  });
});
