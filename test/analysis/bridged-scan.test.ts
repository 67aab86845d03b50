// A scan and an investigation across a bridge, through the API: the client on one chain was paid over an Across
// crossing by a launderer on another chain, funded by a sanctioned address there. The verdict is critical-or-high,
// its reason names the crossing and the other chain's addresses as such, and the coverage lists the launderer's other
// deposit, to a chain the service does not index. The investigation's layers draw the crossing. The store is filled
// as the indexer fills it (legs, marks, transfers, checkpoints). PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BridgeLeg } from "../../src/chains/indexer/bridge-events.ts";
import { insertBridgeLegs } from "../../src/chains/store/bridge-legs.ts";
import { insertTransfers } from "../../src/chains/store/index.ts";
import { labelSanctioned } from "../support/ledger.ts";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";

const A = 7401;
const B = 7402;
const USDV = `0x${"d5".repeat(20)}`;
const SPOKE = `0x${"5b".repeat(20)}`;
const sanctioned = `0x${"5a".repeat(20)}`;
const launderer = `0x${"1a".repeat(20)}`;
const client = `0x${"c1".repeat(20)}`;
const relayer = `0x${"4e".repeat(20)}`;
const elsewhere = `0x${"e1".repeat(20)}`;
const NOW = Date.now();
const at = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000);
const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const usdv = (n: number) => BigInt(n) * 10n ** 6n;

let svc: TestService;

function leg(over: Partial<BridgeLeg> & Pick<BridgeLeg, "chainId" | "txHash" | "direction">): BridgeLeg {
  return {
    logIndex: 1,
    blockNumber: 10n,
    blockTime: at(60),
    protocol: "across",
    pairKey: `${A}:1`,
    contract: SPOKE,
    sender: launderer,
    recipient: client,
    token: USDV,
    amount: usdv(5_000),
    otherRef: `chain:${B}`,
    otherChainId: B,
    ...over,
  };
}

beforeAll(async () => {
  svc = await startTestService({
    chains: [
      ...LOCAL_CHAINS,
      { id: A, name: "Chain A", currency_symbol: "ETH" },
      { id: B, name: "Chain B", currency_symbol: "ETH" },
    ],
  });
  const db = svc.database.db;
  const transfer = (
    chainId: number,
    n: number,
    from: string,
    to: string,
    amount: number,
    minutesAgo: number,
  ) => ({
    chainId,
    txHash: hash(n),
    logIndex: 0,
    blockNumber: BigInt(n),
    blockTime: at(minutesAgo),
    from,
    to,
    token: USDV,
    value: usdv(amount),
  });
  await insertTransfers(db, [
    transfer(A, 1, sanctioned, launderer, 9_000, 120),
    transfer(A, 2, launderer, SPOKE, 5_000, 60), // the Across deposit
    transfer(A, 3, launderer, SPOKE, 1_000, 50), // a deposit to Solana's side, not indexed here
    transfer(B, 4, relayer, client, 5_000, 55), // the fill
    transfer(B, 5, `0x${"e2".repeat(20)}`, client, 2_000, 40), // the client's salary
  ]);
  await insertBridgeLegs(db, [
    leg({ chainId: A, txHash: hash(2), direction: "out" }),
    leg({
      chainId: A,
      txHash: hash(3),
      direction: "out",
      pairKey: `${A}:2`,
      recipient: elsewhere,
      amount: usdv(1_000),
      otherRef: "chain:34268394551451",
      otherChainId: null,
    }),
    leg({
      chainId: B,
      txHash: hash(4),
      direction: "in",
      otherRef: `chain:${A}`,
      otherChainId: A,
      blockTime: at(55),
    }),
  ]);
  await labelSanctioned(db, sanctioned);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  await db
    .insertInto("tokens")
    .values(
      [A, B].map((chain_id) => ({ chain_id, address: USDV, symbol: "USDV", name: "USD Vigía", decimals: 6 })),
    )
    .execute();
  const days = [...new Set([120, 60, 55, 50, 40].map((m) => day(at(m))))];
  await db
    .insertInto("prices")
    .values(
      [A, B].flatMap((chain_id) => days.map((d) => ({ chain_id, token: USDV, day: d, price_usd: "1" }))),
    )
    .execute();
  // Both chains indexed and current.
  await db
    .insertInto("indexer_checkpoints")
    .values(
      [A, B].map((chain_id) => ({
        chain_id,
        block_number: "10",
        block_hash: hash(10),
        updated_at: new Date(),
        head_number: "10",
        head_seen_at: new Date(),
      })),
    )
    .execute();
});
afterAll(async () => {
  await svc?.stop();
});

const post = (url: string, payload: object) =>
  svc.app!.inject({ method: "POST", url, headers: auth(svc.project.keys.developer), payload });

describe("a scan and an investigation across a bridge", () => {
  it("traces the client's funds over the crossing to the sanctioned source, and says what it could not follow", async () => {
    const res = await post(`/v1/projects/${svc.project.id}/addresses/scan-risk`, {
      addresses: [{ address: client, chainId: String(B) }],
      skipExisting: false,
      maxDepth: 3,
    });
    expect(res.statusCode).toBe(200);
    const result = res.json().data.results[0];
    expect(result.status).toBe("completed");
    expect(["high", "critical"]).toContain(result.riskLevel);
    expect(result.riskReason).toContain(`on chain ${A}`);
    expect(result.riskReason).toContain(`bridged via Across, chain ${A} to ${B}`);
    expect(result.coverage.bridgeGaps).toEqual([
      {
        protocol: "Across",
        direction: "out",
        address: `${launderer}@${A}`,
        chainId: A,
        txHash: hash(3),
        otherRef: "chain:34268394551451",
        otherChainId: null,
        reason: "chain-not-indexed",
      },
    ]);
    expect(result.coverage.note).toContain("1 bridge crossing could not be followed");
  });

  it("draws the crossing in the investigation's graph", async () => {
    const created = await post(`/v1/projects/${svc.project.id}/investigations`, {
      name: "Paid over a bridge",
      wallet: client,
      chainId: String(B),
      maxDepth: 2,
    });
    expect(created.statusCode).toBe(201);
    const edges = created.json().data.graph.edges as { from: string; to: string; bridge?: object }[];
    expect(edges.filter((e) => e.bridge)).toEqual([
      expect.objectContaining({
        from: `${launderer}@${A}`,
        to: client,
        bridge: expect.objectContaining({
          protocol: "Across",
          fromChainId: A,
          toChainId: B,
          depositTx: hash(2),
        }),
      }),
    ]);
    // The deposit into the bridge and the relayer's payment are drawn as they are, beside it.
    expect(edges.some((e) => e.from === `${launderer}@${A}` && e.to === `${SPOKE}@${A}`)).toBe(true);
  });
});
