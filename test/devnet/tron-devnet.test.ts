// The Tron devnet against a real anvil: its USDT (the committed build of DemoTether.sol) deployed with Tether's
// metadata, every planned transfer played as a USDT Transfer log with its sender, recipient, amount and time, the
// issuer's freeze as Tether's AddedBlackList(address) event (the address in the data) after which the frozen address
// cannot send, the demo addresses in base58 that decode to addresses of the scenario's transfers, its labels,
// tokens and prices written under a source of their own beside the EVM devnet's, and `vigia serve`'s embedded
// devnet playing both scenarios and registering the Tron one as a Tron-kind chain, with the Bitcoin devnet's world
// imported beside them.

import { decodeFunctionResult, encodeFunctionData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTronAddress } from "../../src/chains/address/index.ts";
import { BITCOIN_DEVNET_CHAIN_ID } from "../../src/chains/index.ts";
import { tronDemoAddresses } from "../../src/devnet/addresses.ts";
import { bitcoinDemoAddresses } from "../../src/devnet/bitcoin-devnet.ts";
import { devnetScenario } from "../../src/devnet/devnet.ts";
import { type EmbeddedDevnet, startEmbeddedDevnet } from "../../src/devnet/embedded.ts";
import { startTronDevnet, TRON_DEVNET_CHAIN_ID, tronDevnetScenario } from "../../src/devnet/tron-devnet.ts";
import {
  bitcoinDevnetWorld,
  DEMO_TETHER_ABI,
  DEMO_TETHER_BYTECODE,
  DEMO_TETHER_SOURCE_SHA256,
  DEVNET_LABEL_SOURCE,
  TRON_DEVNET_LABEL_SOURCE,
  TRON_ISSUER,
  TRON_USDT_CONTRACT,
  tronDevnetWorld,
  writeDevnetData,
} from "../../src/worlds/index.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { compileTether } from "./compile-tether.ts";

const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/** keccak256("AddedBlackList(address)"), Tether's event. */
const ADDED_BLACKLIST_TOPIC = "0x42e160154868087d6bfdc0ca23d96a1c1cfa32f1b72ba9ba27b69b98a0d819dc";
const hex = (n: number | bigint) => `0x${n.toString(16)}`;

interface Log {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
}

describe("the Tron devnet", () => {
  const scenario = tronDevnetScenario();
  let devnet: Awaited<ReturnType<typeof startTronDevnet>>;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let logs: Log[] = [];
  const times = new Map<number, number>();

  beforeAll(async () => {
    [database, devnet] = await Promise.all([openTestDatabase(), startTronDevnet({ port: 0 })]);
  }, 60_000);

  afterAll(async () => {
    await devnet?.stop();
    await database?.drop();
  });

  it("deploys the committed build of src/worlds/render/DemoTether.sol", () => {
    // Stale: run `node bin/run-ts.js test/devnet/compile-tether.ts`.
    const built = compileTether();
    expect(built.sha256).toBe(DEMO_TETHER_SOURCE_SHA256);
    expect(built.bytecode).toBe(DEMO_TETHER_BYTECODE);
  });

  it("plans USDT only, on its own chain id, with the issuer's freeze in the block of its time", () => {
    const { world, plan } = scenario;
    expect(plan.chainId).toBe(TRON_DEVNET_CHAIN_ID);
    expect(TRON_DEVNET_CHAIN_ID).not.toBe(728126428);
    expect(TRON_DEVNET_CHAIN_ID).toBeLessThanOrEqual(2 ** 31 - 1);
    expect(plan.contracts).toEqual({ USDV: TRON_USDT_CONTRACT });
    expect(plan.chainTokens.tokens.USDV).toMatchObject({ symbol: "USDT", decimals: 6 });
    expect(new Set(world.transfers.map((t) => t.token))).toEqual(new Set(["USDV"]));
    const { freezes } = tronDevnetWorld();
    expect(freezes).toHaveLength(1);
    const calls = plan.blocks.flatMap((b) => b.txs.filter((tx) => tx.from === TRON_ISSUER).map(() => b));
    // The deployment and the freeze.
    expect(calls.map((b) => b.number)).toHaveLength(2);
    expect(calls[1]!.timestamp).toBe(freezes[0]!.at);
    // The cases the brief asks for: an exchange's sweeps, the patterns, a sanctioned and a frozen address.
    expect(new Set(world.cases.map((c) => c.pattern))).toEqual(
      new Set([
        "peel_chain",
        "structuring",
        "exchange_hopping",
        "sanctions_exposure",
        "sanctioned",
        "frozen",
      ]),
    );
    expect(world.deposits.size).toBeGreaterThan(5);
    const sweeps = world.transfers.filter((t) => world.deposits.get(t.from)?.sweepTo.address === t.to);
    expect(sweeps.length).toBeGreaterThan(5);
  });

  it("plays every planned transfer as a USDT Transfer, and the freeze as Tether's AddedBlackList", async () => {
    const played = await devnet.play();
    expect(played).toMatchObject({ outcome: "played", mined: scenario.plan.blocks.length });
    expect(Number(BigInt(await devnet.rpc.request<string>("eth_chainId")))).toBe(TRON_DEVNET_CHAIN_ID);
    logs = await devnet.rpc.request<Log[]>("eth_getLogs", [
      { fromBlock: "0x0", toBlock: "latest", address: TRON_USDT_CONTRACT },
    ]);
    const blocks = (await devnet.rpc.batchResults(
      scenario.plan.blocks.map((b) => ({ method: "eth_getBlockByNumber", params: [hex(b.number), false] })),
    )) as { number: string; timestamp: string }[];
    for (const b of blocks) times.set(Number(BigInt(b.number)), Number(BigInt(b.timestamp)));
    const transfers = logs
      .filter((l) => l.topics[0] === TRANSFER_TOPIC)
      .map((l) => ({
        from: `0x${l.topics[1]!.slice(26)}`,
        to: `0x${l.topics[2]!.slice(26)}`,
        amount: BigInt(l.data),
        at: times.get(Number(BigInt(l.blockNumber))),
      }));
    expect(transfers).toEqual(
      scenario.world.timeline().map((t) => ({ from: t.from, to: t.to, amount: t.amount, at: t.at })),
    );

    const [freeze] = tronDevnetWorld().freezes;
    const frozen = logs.filter((l) => l.topics[0] === ADDED_BLACKLIST_TOPIC);
    expect(frozen).toHaveLength(1);
    // As Tether's contract: topic0 alone, the address ABI-encoded in the data.
    expect(frozen[0]!.topics).toHaveLength(1);
    expect(`0x${frozen[0]!.data.slice(26)}`).toBe(freeze!.address);
    expect(times.get(Number(BigInt(frozen[0]!.blockNumber)))).toBe(freeze!.at);

    const call = async (functionName: "symbol" | "decimals" | "name" | "isBlackListed", args?: [string]) =>
      decodeFunctionResult({
        abi: DEMO_TETHER_ABI,
        functionName,
        data: await devnet.rpc.request("eth_call", [
          {
            to: TRON_USDT_CONTRACT,
            data: encodeFunctionData({
              abi: DEMO_TETHER_ABI,
              functionName,
              ...(args ? { args: args as [`0x${string}`] } : {}),
            } as Parameters<typeof encodeFunctionData>[0]),
          },
          "latest",
        ]),
      });
    expect(await call("symbol")).toBe("USDT");
    expect(await call("name")).toBe("Tether USD");
    expect(await call("decimals")).toBe(6);
    expect(await call("isBlackListed", [freeze!.address])).toBe(true);
    // The frozen address still holds USDT, and cannot send it.
    await expect(
      devnet.rpc.request("eth_call", [
        {
          from: freeze!.address,
          to: TRON_USDT_CONTRACT,
          data: encodeFunctionData({
            abi: DEMO_TETHER_ABI,
            functionName: "transfer",
            args: [TRON_ISSUER, 1n],
          }),
        },
        "latest",
      ]),
    ).rejects.toThrow(/blacklisted/);
  });

  it("names its demo addresses in base58, each an address of the scenario's transfers on the chain", () => {
    const demo = tronDemoAddresses();
    expect(demo.length).toBeGreaterThanOrEqual(6);
    const onChain = new Set(
      logs
        .filter((l) => l.topics[0] === TRANSFER_TOPIC)
        .flatMap((l) => [`0x${l.topics[1]!.slice(26)}`, `0x${l.topics[2]!.slice(26)}`]),
    );
    for (const a of demo) {
      expect(a.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      const parsed = parseTronAddress(a.address);
      expect(parsed, a.address).toHaveProperty("address");
      expect(onChain.has((parsed as { address: string }).address), a.pattern).toBe(true);
    }
  });

  it("writes its labels, tokens and prices under its own source, beside the EVM devnet's", async () => {
    const now = Date.parse("2026-11-26T15:00:00Z");
    const evm = devnetScenario();
    await writeDevnetData(database.db, evm.world, evm.plan, now);
    const summary = await writeDevnetData(database.db, scenario.world, scenario.plan, now);
    const labelled = scenario.world.labelled();
    expect(summary.labels).toMatchObject({ labels: labelled.length, inserted: labelled.length, deleted: 0 });
    const labels = await database.db
      .selectFrom("labels")
      .select(["address", "chain_id", "category", "source"])
      .where("chain_id", "=", TRON_DEVNET_CHAIN_ID)
      .execute();
    expect(labels.every((l) => l.source === TRON_DEVNET_LABEL_SOURCE)).toBe(true);
    expect(new Set(labels.map((l) => l.category))).toEqual(new Set(["exchange", "sanctioned"]));
    const evmLabels = await database.db
      .selectFrom("labels")
      .select("address")
      .where("source", "=", DEVNET_LABEL_SOURCE)
      .execute();
    expect(evmLabels).toHaveLength(evm.world.labelled().length);
    const tokens = await database.db
      .selectFrom("tokens")
      .select(["address", "symbol", "decimals"])
      .where("chain_id", "=", TRON_DEVNET_CHAIN_ID)
      .execute();
    expect(tokens).toEqual([{ address: TRON_USDT_CONTRACT, symbol: "USDT", decimals: 6 }]);
    const prices = await database.db
      .selectFrom("prices")
      .select(["token", "price_usd"])
      .where("chain_id", "=", TRON_DEVNET_CHAIN_ID)
      .execute();
    expect(new Set(prices.map((p) => p.token))).toEqual(new Set(["native", TRON_USDT_CONTRACT]));
    expect(prices.filter((p) => p.token === TRON_USDT_CONTRACT).every((p) => Number(p.price_usd) === 1)).toBe(
      true,
    );
  });
});

describe("the embedded devnet", () => {
  let embedded: EmbeddedDevnet;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;

  beforeAll(async () => {
    database = await openTestDatabase();
    embedded = await startEmbeddedDevnet({
      database,
      stateDir: undefined,
      port: 0,
      tron: { port: 0 },
      logLevel: "silent",
    });
  }, 60_000);

  afterAll(async () => {
    await embedded?.stop();
    await database?.drop();
  });

  it("plays both scenarios and registers the Tron devnet as a Tron-kind chain at its node's URL", async () => {
    const tron = embedded.tron;
    expect(tron).toBeDefined();
    const [evm, tronReady] = await Promise.all([embedded.ready, tron!.ready]);
    expect(evm?.play?.outcome).toBe("played");
    expect(tronReady?.play?.outcome).toBe("played");
    expect(tronReady?.transfers).toBe(tronDevnetScenario().plan.transfers);
    const chain = embedded.registry.get(TRON_DEVNET_CHAIN_ID);
    expect(chain).toMatchObject({
      kind: "tron",
      currency_symbol: "TRX",
      currency_decimals: 6,
      confirmations: 0,
      // anvil has no Tron HTTP API; its USDT's blacklist events are freezes; no explorer knows its addresses.
      tron_http_url: null,
      issuer_freeze_contracts: [TRON_USDT_CONTRACT],
      explorer_api_url: null,
    });
    expect(chain?.rpc_url).toBe(tron!.rpcUrl);
    expect(embedded.registry.get(31337)?.rpc_url).toBe(embedded.rpcUrl);
    expect(embedded.registry.codec(TRON_DEVNET_CHAIN_ID).kind).toBe("tron");
    expect(tron!.addresses).toEqual(tronDemoAddresses());
  });

  it("imports the Bitcoin devnet's world beside them: a Bitcoin chain of the registry, no node", async () => {
    const bitcoin = embedded.bitcoin;
    expect(bitcoin?.chainId).toBe(BITCOIN_DEVNET_CHAIN_ID);
    const ready = await bitcoin!.ready;
    expect(ready?.transactions).toBe(bitcoinDevnetWorld().txs.length);
    expect(ready?.coinjoins).toBe(1);
    expect(bitcoin!.addresses).toEqual(bitcoinDemoAddresses());
    expect(embedded.registry.get(BITCOIN_DEVNET_CHAIN_ID)).toMatchObject({
      kind: "bitcoin",
      bitcoin_network: "regtest",
      currency_symbol: "BTC",
      currency_decimals: 8,
      rpc_url: null,
    });
  });
});
