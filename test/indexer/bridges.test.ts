// Bridges across two real anvil chains: the indexer decodes each protocol's legs (Across, Circle CCTP, LayerZero
// OFT) on the chain that emits them, the ledger pairs them across the chains, and an analysis of an address on one
// chain follows the value over the bridge to a sanctioned source on the other, with the crossing named in the
// reason and the bridge's own transfers not counted twice. A leg to a chain the service does not index is reported
// as such. The bridge contracts are a stand-in (test/indexer/support/contracts.ts BridgeStandIn) that emits the
// protocols' events as they declare them; the test plays the relayer and the attestation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expandGraph, graphFromJson, graphToJson } from "../../src/analysis/graph/index.ts";
import { startIndexers } from "../../src/chains/indexer/index.ts";
import { readBridgeCrossings } from "../../src/ledger/index.ts";
import { analyseGraph, exposureOf } from "../../src/risk/index.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { labelSanctioned } from "../support/ledger.ts";
import { Anvil, CHAIN_ID } from "./support/anvil.ts";
import { contracts } from "./support/contracts.ts";
import { checkpointOf, devnetChain, LogSink, until } from "./support/harness.ts";
import { Scenario } from "./support/scenario.ts";

const CHAIN_B = 31_338;
const USDV = 10n ** 6n;
let anvilA: Anvil;
let anvilB: Anvil;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let a: Scenario;
let b: Scenario;
let indexers: ReturnType<typeof startIndexers> | undefined;
const addr: Record<string, string> = {};
let oftGuid = "";

async function approveAndCall(
  s: Scenario,
  from: string,
  token: string,
  bridge: string,
  fn: string,
  args: unknown[],
) {
  const { TestToken, BridgeStandIn } = contracts();
  await s.call(from, token, TestToken.abi, "approve", [bridge, 10n ** 30n]);
  return s.call(from, bridge, BridgeStandIn.abi, fn, args);
}

beforeAll(async () => {
  contracts();
  [anvilA, anvilB, database] = await Promise.all([
    Anvil.start(),
    Anvil.start({ chainId: CHAIN_B }),
    openTestDatabase(),
  ]);
  [a, b] = await Promise.all([Scenario.start(anvilA), Scenario.start(anvilB)]);
  // The same deployer and nonces on both chains: the token and the bridge have the same addresses on each, as
  // deterministic deployments do on real chains.
  addr.tokenA = await a.deploy("TestToken", ["Vigía Dollar", "USDV", 6]);
  addr.bridgeA = await a.deploy("BridgeStandIn", [100]);
  addr.tokenB = await b.deploy("TestToken", ["Vigía Dollar", "USDV", 6]);
  addr.bridgeB = await b.deploy("BridgeStandIn", [101]);
  const sanctioned = a.account(1);
  const launderer = a.account(2);
  const client = b.account(3);
  const relayer = b.account(4);
  const elsewhere = `0x${"5e".repeat(20)}`;
  Object.assign(addr, { sanctioned, launderer, client, relayer, elsewhere });

  // Chain A: the sanctioned address pays the launderer, who bridges it three ways and once to a chain not indexed.
  await a.mint(addr.tokenA, sanctioned, 1_000n * USDV);
  await a.mine();
  await a.transferToken(addr.tokenA, sanctioned, launderer, 900n * USDV);
  await a.mine();
  await approveAndCall(a, launderer, addr.tokenA, addr.bridgeA, "acrossDeposit", [
    addr.tokenA,
    500n * USDV,
    BigInt(CHAIN_B),
    client,
  ]);
  await a.mine();
  await approveAndCall(a, launderer, addr.tokenA, addr.bridgeA, "cctpBurn", [
    addr.tokenA,
    200n * USDV,
    101,
    client,
  ]);
  await a.mine();
  const oftTx = await approveAndCall(a, launderer, addr.tokenA, addr.bridgeA, "oftSend", [
    addr.tokenA,
    100n * USDV,
    40_102,
  ]);
  await a.mine();
  const receipt = await anvilA.rpc<{ logs: { topics: string[] }[] }>("eth_getTransactionReceipt", [oftTx]);
  const sentLog = receipt.logs.at(-1);
  if (!sentLog) throw new Error("the OFT send emitted no log");
  oftGuid = (sentLog.topics[1] as string).toLowerCase();
  await approveAndCall(a, launderer, addr.tokenA, addr.bridgeA, "acrossDeposit", [
    addr.tokenA,
    50n * USDV,
    8453n, // Base: not a chain this test's service indexes
    elsewhere,
  ]);
  await a.mine();

  // Chain B: the relayer fills the Across deposit from its own funds; CCTP and the OFT mint to the client. Its blocks
  // come a minute after chain A's last: anvil stamps blocks mined faster than one a second ahead of the clock, so
  // chain A may run seconds ahead of chain B, and a fill must not look older than its deposit.
  const lastA = await anvilA.rpc<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
  await anvilB.rpc("evm_setNextBlockTimestamp", [Number(BigInt(lastA.timestamp)) + 60]);
  await b.mint(addr.tokenB, relayer, 1_000n * USDV);
  await b.mine();
  await approveAndCall(b, relayer, addr.tokenB, addr.bridgeB, "acrossFill", [
    addr.tokenB,
    495n * USDV,
    BigInt(CHAIN_ID),
    0n,
    launderer,
    client,
  ]);
  await b.mine();
  const { BridgeStandIn } = contracts();
  await b.call(relayer, addr.bridgeB, BridgeStandIn.abi, "cctpReceive", [
    addr.tokenB,
    addr.tokenA,
    100,
    0n,
    launderer,
    client,
    200n * USDV,
  ]);
  await b.call(relayer, addr.bridgeB, BridgeStandIn.abi, "oftReceive", [
    addr.tokenB,
    oftGuid,
    40_101,
    client,
    100n * USDV,
  ]);
  await b.mine();

  await labelSanctioned(database.db, sanctioned);
  // USDV at a dollar on both chains, as the price import would have it (today and tomorrow: the blocks' days).
  const days = [0, 1].map((d) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10));
  await database.db
    .insertInto("prices")
    .values(
      days.flatMap((day) => [
        { chain_id: CHAIN_ID, token: addr.tokenA as string, day, price_usd: "1" },
        { chain_id: CHAIN_B, token: addr.tokenB as string, day, price_usd: "1" },
      ]),
    )
    .execute();

  indexers = startIndexers({
    database,
    chains: [devnetChain(anvilA.url), devnetChain(anvilB.url, { id: CHAIN_B, name: "Test devnet B" })],
    log: new LogSink(),
    tuning: { pollIntervalMs: 20, lockRetryMs: 100, maxBatchBlocks: 100 },
    backoff: { initialMs: 20, maxMs: 250 },
  });
  const headA = BigInt(await anvilA.rpc<string>("eth_blockNumber"));
  const headB = BigInt(await anvilB.rpc<string>("eth_blockNumber"));
  await until("both chains indexed", async () => {
    const [ca, cb] = await Promise.all([checkpointOf(database.db), checkpointOf(database.db, CHAIN_B)]);
    return ca?.number === headA && cb?.number === headB;
  });
}, 120_000);

afterAll(async () => {
  await indexers?.stop();
  await Promise.all([anvilA?.stop(), anvilB?.stop()]);
  await database?.drop();
});

describe("bridges across two chains", () => {
  it("stores each protocol's legs on the chain that emitted them", async () => {
    const legs = await database.db
      .selectFrom("bridge_legs")
      .select(["chain_id", "protocol", "direction", "pair_key", "sender", "recipient", "amount"])
      .orderBy("chain_id")
      .orderBy("block_number")
      .orderBy("log_index")
      .execute();
    const { launderer, client, elsewhere } = addr;
    const usdv = (n: bigint) => String(n * USDV);
    expect(legs.map((l) => Object.values(l))).toEqual([
      [CHAIN_ID, "across", "out", `${CHAIN_ID}:0`, launderer, client, usdv(500n)],
      [CHAIN_ID, "cctp", "out", "100:0", launderer, client, usdv(200n)],
      [CHAIN_ID, "oft", "out", oftGuid, launderer, "", usdv(100n)],
      [CHAIN_ID, "across", "out", `${CHAIN_ID}:1`, launderer, elsewhere, usdv(50n)],
      [CHAIN_B, "across", "in", `${CHAIN_ID}:0`, launderer, client, usdv(495n)],
      [CHAIN_B, "cctp", "in", "100:0", launderer, client, usdv(200n)],
      [CHAIN_B, "oft", "in", oftGuid, "", client, usdv(100n)],
    ]);
  });

  it("pairs every leg with its other side across the chains, and reports the one to a chain not indexed", async () => {
    const received = (await readBridgeCrossings(database.db, CHAIN_B, [addr.client as string], 100))
      .crossings;
    // Newest first.
    expect(received.map((c) => [c.protocol, c.other?.chainId, c.other?.sender])).toEqual([
      ["oft", CHAIN_ID, addr.launderer],
      ["cctp", CHAIN_ID, addr.launderer],
      ["across", CHAIN_ID, addr.launderer],
    ]);
    const sent = (await readBridgeCrossings(database.db, CHAIN_ID, [addr.launderer as string], 100))
      .crossings;
    expect(sent.map((c) => [c.protocol, c.other?.chainId ?? null, c.otherChainId, c.otherChainHeld])).toEqual(
      [
        ["across", null, 8453, false],
        ["oft", CHAIN_B, null, false],
        ["cctp", CHAIN_B, null, false],
        ["across", CHAIN_B, CHAIN_B, true],
      ],
    );
  });

  it("follows the client's funds over the bridges to the sanctioned source on the other chain", async () => {
    const { graph } = await expandGraph(database.db, {
      chainId: CHAIN_B,
      roots: [addr.client as string],
      maxDepth: 3,
    });
    const launderer = `${addr.launderer}@${CHAIN_ID}`;
    const sanctioned = `${addr.sanctioned}@${CHAIN_ID}`;
    expect(graph.nodes.get(launderer)).toMatchObject({ depth: 1, expanded: true });
    expect(graph.nodes.get(sanctioned)).toMatchObject({ depth: 2, type: "sanctioned" });
    const crossings = graph.edges.filter((e) => e.bridge);
    expect(crossings.map((e) => [e.bridge?.protocol, e.from, e.to, e.usd])).toEqual([
      ["Across", launderer, addr.client, 495],
      ["Circle CCTP", launderer, addr.client, 200],
      ["LayerZero OFT", launderer, addr.client, 100],
    ]);
    // The launderer's deposit to a chain this service does not index is a gap, said so.
    expect(graph.bridgeGaps).toEqual([
      expect.objectContaining({
        protocol: "Across",
        direction: "out",
        address: launderer,
        otherChainId: 8453,
        reason: "chain-not-indexed",
      }),
    ]);

    // Saved between the layers of an investigation and read back, the crossings are the same.
    expect(graphFromJson(JSON.parse(JSON.stringify(graphToJson(graph))))).toEqual(graph);

    const exposure = exposureOf(graph, addr.client as string);
    const sanctionedEntry = exposure.entries.find((e) => e.category === "sanctioned");
    expect(sanctionedEntry).toMatchObject({
      direction: "incoming",
      hops: 2,
      bridges: [
        `Across, chain ${CHAIN_ID} to ${CHAIN_B}`,
        `Circle CCTP, chain ${CHAIN_ID} to ${CHAIN_B}`,
        `LayerZero OFT, chain ${CHAIN_ID} to ${CHAIN_B}`,
      ],
    });
    // The relayer's payment in the fill is the crossing itself, not a second receipt.
    expect(exposure.incomingUsd).toBe(795);
    const risk = analyseGraph(graph, addr.client as string);
    expect(["high", "critical"]).toContain(risk.level);
    expect(risk.reason).toMatch(/bridged via Across, chain 31337 to 31338/);
  });

  it("reads the same crossing from the depositor's side", async () => {
    const { graph } = await expandGraph(database.db, {
      chainId: CHAIN_ID,
      roots: [addr.launderer as string],
      maxDepth: 1,
    });
    const client = `${addr.client}@${CHAIN_B}`;
    expect(graph.nodes.get(client)).toMatchObject({ depth: 1 });
    expect(graph.edges.filter((e) => e.bridge).map((e) => [e.from, e.to])).toEqual([
      [addr.launderer, client],
      [addr.launderer, client],
      [addr.launderer, client],
    ]);
  });
});
