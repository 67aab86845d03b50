// The devnet against a real anvil: the demo world played on chain exactly as planned (every transfer's sender,
// recipient, token, amount and time; balances with no fee taken), its labels, prices and tokens in the store,
// a second run changing nothing, an interrupted run resumed into the very same chain, a restarted node keeping it,
// and a chain that is not the scenario's refused.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { decodeFunctionResult, encodeFunctionData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RpcBlock, RpcReceipt } from "../../src/chains/rpc/evm.ts";
import { type Devnet, devnetScenario, startDevnet } from "../../src/devnet/devnet.ts";
import { ForeignChainError } from "../../src/devnet/play.ts";
import {
  DEMO_TOKEN_ABI,
  DEMO_TOKEN_SOURCE_SHA256,
  DEVNET_LABEL_SOURCE,
  dailyPrices,
  priceOn,
  TOKEN_CONTRACTS,
  type TokenSymbol,
  tokenAddress,
  writeDevnetData,
} from "../../src/worlds/index.ts";
import { openTestDatabase } from "../support/db-only.ts";

const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const hex = (n: number | bigint) => `0x${n.toString(16)}`;

interface ChainTransfer {
  from: string;
  to: string;
  token: string;
  amount: bigint;
  at: number;
}

/** The transfers of blocks from..to as the chain carries them: native values and token Transfer logs. */
async function transfersOnChain(devnet: Devnet, from: number, to: number): Promise<ChainTransfer[]> {
  const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const blocks = (await devnet.rpc.batchResults(
    numbers.map((n) => ({ method: "eth_getBlockByNumber", params: [hex(n), true] })),
  )) as RpcBlock[];
  const receipts = (await devnet.rpc.batchResults(
    numbers.map((n) => ({ method: "eth_getBlockReceipts", params: [hex(n)] })),
  )) as RpcReceipt[][];
  const found: ChainTransfer[] = [];
  for (const [i, block] of blocks.entries()) {
    const at = Number(BigInt(block.timestamp));
    for (const [j, tx] of block.transactions.entries()) {
      const receipt = receipts[i]![j]!;
      expect(receipt.status).toBe("0x1");
      if (BigInt(tx.value) > 0n) {
        found.push({ from: tx.from, to: tx.to!, token: "native", amount: BigInt(tx.value), at });
      }
      for (const log of receipt.logs) {
        if (log.topics[0] !== TRANSFER_TOPIC) continue;
        found.push({
          from: `0x${log.topics[1]!.slice(26)}`,
          to: `0x${log.topics[2]!.slice(26)}`,
          token: log.address,
          amount: BigInt(log.data),
          at,
        });
      }
    }
  }
  return found;
}

function planned(devnet: Devnet): ChainTransfer[] {
  return devnet.world.timeline().map((t) => ({
    from: t.from,
    to: t.to,
    token: tokenAddress(t.token),
    amount: t.amount,
    at: t.at,
  }));
}

describe("devnet", () => {
  let devnet: Devnet;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-devnet-"));
  const others: Devnet[] = [];

  beforeAll(async () => {
    [database, devnet] = await Promise.all([openTestDatabase(), startDevnet({ port: 0, stateDir })]);
  });

  afterAll(async () => {
    await Promise.all([devnet?.stop(), ...others.map((d) => d.stop())]);
    await database?.drop();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it("deploys the committed build of contracts/DemoToken.sol", () => {
    const source = fs.readFileSync(path.resolve(import.meta.dirname, "../../contracts/DemoToken.sol"));
    // Stale: run `node bin/run-ts.js scripts/compile-contracts.ts`.
    expect(crypto.createHash("sha256").update(source).digest("hex")).toBe(DEMO_TOKEN_SOURCE_SHA256);
  });

  it("plans one block per distinct time after the two deployments, funding senders with exactly what they lack", () => {
    const { world, plan } = devnetScenario();
    expect(plan.transfers).toBe(world.transfers.length);
    // One transaction per transfer, but the swap's two legs (World.transaction) are one call of the pool.
    const swaps = new Set(world.transfers.flatMap((t) => (t.tx === undefined ? [] : [t.tx])));
    const legs = world.transfers.filter((t) => t.tx !== undefined).length;
    expect(swaps.size).toBe(1);
    expect(plan.swapPools).toEqual([world.accounts.get("dex.demo-pool")!.address]);
    expect(plan.blocks.slice(2).flatMap((b) => b.txs)).toHaveLength(
      world.transfers.length - legs + swaps.size,
    );
    for (const [i, block] of plan.blocks.entries()) {
      expect(block.number).toBe(i + 1);
      if (i > 0) expect(block.timestamp).toBeGreaterThan(plan.blocks[i - 1]!.timestamp);
    }
    // Starting from the prefund, every balance stays >= 0 and each prefunded one touches 0 at some point.
    const balance = new Map<string, bigint>();
    const lowest = new Map<string, bigint>();
    const funded = (token: TokenSymbol, address: string) =>
      token === "ETH"
        ? plan.prefund.native.get(address as `0x${string}`)
        : plan.prefund.tokens[token].get(address as `0x${string}`);
    for (const t of world.timeline()) {
      const k = `${t.token}:${t.from}`;
      const now = (balance.get(k) ?? funded(t.token, t.from) ?? 0n) - t.amount;
      balance.set(k, now);
      lowest.set(k, now < (lowest.get(k) ?? now) ? now : (lowest.get(k) ?? now));
      const r = `${t.token}:${t.to}`;
      balance.set(r, (balance.get(r) ?? funded(t.token, t.to) ?? 0n) + t.amount);
    }
    for (const [k, low] of lowest) expect(low >= 0n, k).toBe(true);
    const prefunded = [
      ...[...plan.prefund.native.keys()].map((a) => `ETH:${a}`),
      ...(["USDV", "TKN"] as const).flatMap((s) =>
        [...plan.prefund.tokens[s].keys()].map((a) => `${s}:${a}`),
      ),
    ];
    expect(prefunded.length).toBeGreaterThan(10);
    for (const k of prefunded) expect(lowest.get(k), k).toBe(0n);
  });

  it("plays every planned transfer with its sender, recipient, token, amount and time", async () => {
    const played = await devnet.play();
    expect(played).toMatchObject({ outcome: "played", mined: devnet.plan.blocks.length });
    const head = Number(BigInt(await devnet.rpc.request<string>("eth_blockNumber")));
    expect(head).toBe(devnet.plan.blocks.length);
    expect(await transfersOnChain(devnet, 3, head)).toEqual(planned(devnet));
    // The deployments: the tokens at their deterministic addresses, with their metadata.
    for (const [symbol, contract] of Object.entries(TOKEN_CONTRACTS)) {
      const call = async (functionName: "symbol" | "decimals") =>
        decodeFunctionResult({
          abi: DEMO_TOKEN_ABI,
          functionName,
          data: await devnet.rpc.request("eth_call", [
            { to: contract.address, data: encodeFunctionData({ abi: DEMO_TOKEN_ABI, functionName }) },
            "latest",
          ]),
        });
      expect(await call("symbol")).toBe(symbol);
      expect(await call("decimals")).toBe(symbol === "USDV" ? 6 : 18);
    }
    const genesis = await devnet.rpc.request<RpcBlock>("eth_getBlockByNumber", ["0x0", false]);
    expect(Number(BigInt(genesis.timestamp))).toBe(devnet.plan.genesisTime);
  });

  it("leaves every account with prefund + received - sent: no fees, no funding transfers", async () => {
    const expected = new Map<string, bigint>();
    const add = (k: string, v: bigint) => expected.set(k, (expected.get(k) ?? 0n) + v);
    for (const [address, wei] of devnet.plan.prefund.native) add(`native:${address}`, wei);
    for (const symbol of ["USDV", "TKN"] as const) {
      for (const [address, units] of devnet.plan.prefund.tokens[symbol])
        add(`${tokenAddress(symbol)}:${address}`, units);
    }
    for (const t of devnet.world.transfers) {
      add(`${tokenAddress(t.token)}:${t.from}`, -t.amount);
      add(`${tokenAddress(t.token)}:${t.to}`, t.amount);
    }
    const keys = [...expected.keys()];
    const results = (await devnet.rpc.batchResults(
      keys.map((k) => {
        const [token, address] = k.split(":") as [string, `0x${string}`];
        return token === "native"
          ? { method: "eth_getBalance", params: [address, "latest"] }
          : {
              method: "eth_call",
              params: [
                {
                  to: token,
                  data: encodeFunctionData({
                    abi: DEMO_TOKEN_ABI,
                    functionName: "balanceOf",
                    args: [address],
                  }),
                },
                "latest",
              ],
            };
      }),
    )) as string[];
    const actual = new Map(keys.map((k, i) => [k, BigInt(results[i]!)]));
    expect(actual).toEqual(expected);
    // No transfer on the chain other than the planned ones (no funder, no fee recipient).
    const all = await transfersOnChain(devnet, 1, devnet.plan.blocks.length);
    expect(all).toHaveLength(devnet.plan.transfers);
  });

  it("writes the scenario's labels, daily prices and tokens", async () => {
    const now = Date.parse("2026-11-26T15:00:00Z");
    const summary = await writeDevnetData(database.db, devnet.world, devnet.plan, now);
    const labelled = devnet.world.labelled();
    expect(summary.labels).toMatchObject({ labels: labelled.length, inserted: labelled.length, deleted: 0 });
    const labels = await database.db
      .selectFrom("labels")
      .select(["address", "chain_id", "label", "category", "confidence"])
      .where("source", "=", DEVNET_LABEL_SOURCE)
      .orderBy("address")
      .execute();
    expect(labels).toEqual(
      labelled
        .map((a) => ({
          address: a.address,
          chain_id: 31337,
          label: a.label!.label,
          category: a.label!.category,
          confidence: 100,
        }))
        .sort((a, b) => (a.address < b.address ? -1 : 1)),
    );
    const categories = new Set(labels.map((l) => l.category));
    expect([...categories].sort()).toEqual(["bridge", "defi", "exchange", "mixer", "sanctioned"]);

    // The scenario's days, then its last prices carried on to the day after `now`.
    const days = (Date.parse("2026-11-27T00:00:00Z") / 1000 - devnet.plan.firstDay) / 86_400 + 1;
    expect(summary.prices).toEqual({ rows: days * 3, written: days * 3 });
    const prices = await database.db
      .selectFrom("prices")
      .select(["token", "day", "price_usd"])
      .where("chain_id", "=", 31337)
      .execute();
    expect(prices).toHaveLength(days * 3);
    const ethFirstDay = prices.find(
      (p) => p.token === "native" && new Date(p.day).getTime() === devnet.plan.firstDay * 1000,
    );
    expect(Number(ethFirstDay?.price_usd)).toBe(priceOn("ETH", devnet.plan.firstDay));
    expect(new Set(prices.map((p) => p.token))).toEqual(
      new Set(["native", TOKEN_CONTRACTS.USDV.address, TOKEN_CONTRACTS.TKN.address]),
    );
    expect(dailyPrices(devnet.plan)[0]).toMatchObject({ token: "native" });
    const tomorrow = prices.find(
      (p) => p.token === "native" && new Date(p.day).toISOString().startsWith("2026-11-27"),
    );
    expect(Number(tomorrow?.price_usd)).toBe(priceOn("ETH", devnet.plan.lastDay));

    const tokens = await database.db
      .selectFrom("tokens")
      .select(["address", "symbol", "decimals"])
      .where("chain_id", "=", 31337)
      .orderBy("symbol")
      .execute();
    expect(tokens).toEqual([
      { address: TOKEN_CONTRACTS.TKN.address, symbol: "TKN", decimals: 18 },
      { address: TOKEN_CONTRACTS.USDV.address, symbol: "USDV", decimals: 6 },
    ]);
  });

  it("changes nothing when run again", async () => {
    const head = await devnet.rpc.request<RpcBlock>("eth_getBlockByNumber", ["latest", false]);
    const again = await devnet.play();
    expect(again).toMatchObject({ outcome: "already", mined: 0 });
    expect(await devnet.rpc.request<RpcBlock>("eth_getBlockByNumber", ["latest", false])).toEqual(head);
    const summary = await writeDevnetData(
      database.db,
      devnet.world,
      devnet.plan,
      Date.parse("2026-11-26T15:00:00Z"),
    );
    expect(summary.labels).toMatchObject({ inserted: 0, updated: 0, deleted: 0 });
    expect(summary.prices.written).toBe(0);
  });

  it("resumes an interrupted run into the same chain, and a restarted node keeps it", async () => {
    const other = await startDevnet({ port: 0 });
    others.push(other);
    const abort = new AbortController();
    let mined = 0;
    await expect(
      other.play({
        signal: abort.signal,
        onBlock: () => {
          if (++mined === 60) abort.abort(new Error("interrupted"));
        },
      }),
    ).rejects.toThrow("interrupted");
    expect(Number(BigInt(await other.rpc.request<string>("eth_blockNumber")))).toBe(60);
    const resumed = await other.play();
    expect(resumed).toMatchObject({ outcome: "resumed", mined: other.plan.blocks.length - 60 });
    // Deterministic: the resumed chain is block for block the chain played in one go.
    const last = hex(other.plan.blocks.length);
    const [a, b] = await Promise.all(
      [devnet, other].map((d) => d.rpc.request<RpcBlock>("eth_getBlockByNumber", [last, false])),
    );
    expect(b?.hash).toBe(a?.hash);

    // The first node stops (anvil writes its state) and starts again on the same state dir: same chain.
    await devnet.stop();
    devnet = await startDevnet({ port: 0, stateDir });
    const reloaded = await devnet.rpc.request<RpcBlock>("eth_getBlockByNumber", [last, false]);
    expect(reloaded.hash).toBe(a?.hash);
    expect(await devnet.play()).toMatchObject({ outcome: "already" });
    // The chain goes on after the scenario: a new transaction is mined at once, later than the scenario.
    const someone = devnet.world.timeline()[0]!;
    const txHash = await devnet.rpc.request<string>("eth_sendTransaction", [
      { from: someone.to, to: someone.from, value: "0x0", gasPrice: "0x0" },
    ]);
    // The node answers with the hash before the block is surely mined: wait for the receipt (bounded).
    let receipt: { blockNumber: string } | null = null;
    for (let i = 0; i < 100 && !receipt; i++) {
      receipt = await devnet.rpc.request<{ blockNumber: string } | null>("eth_getTransactionReceipt", [
        txHash,
      ]);
      if (!receipt) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(receipt).not.toBeNull();
    const next = await devnet.rpc.request<RpcBlock>("eth_getBlockByNumber", [receipt!.blockNumber, false]);
    expect(Number(BigInt(next.number))).toBe(devnet.plan.blocks.length + 1);
    expect(Number(BigInt(next.timestamp))).toBeGreaterThan(devnet.plan.blocks.at(-1)!.timestamp);
    expect(await devnet.play()).toMatchObject({ outcome: "already" });
  });

  it("after the scenario: a plain eth_sendTransaction without fee fields is mined, at the present time", async () => {
    expect(await devnet.play()).toMatchObject({ outcome: "already" });
    // What a wallet or `cast send` sends: no gas price, no EIP-1559 fields (anvil's first dev account, funded).
    const from = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
    const to = "0x000000000000000000000000000000000000dEaD";
    const before = Math.floor(Date.now() / 1000);
    const hash = await devnet.rpc.request<string>("eth_sendTransaction", [{ from, to, value: hex(12345n) }]);
    // Mined on arrival, but the receipt may trail the answer by a moment: wait for it, a bounded while.
    let receipt: RpcReceipt | null = null;
    for (let i = 0; i < 100 && !receipt; i++) {
      receipt = await devnet.rpc.request<RpcReceipt | null>("eth_getTransactionReceipt", [hash]);
      if (!receipt) await new Promise((r) => setTimeout(r, 100));
    }
    if (!receipt) throw new Error(`no receipt for ${hash} after 10 s`);
    expect(receipt.status).toBe("0x1");
    const block = await devnet.rpc.request<RpcBlock<string>>("eth_getBlockByHash", [
      receipt.blockHash,
      false,
    ]);
    const at = Number(BigInt(block.timestamp));
    expect(at).toBeGreaterThanOrEqual(before - 2);
    expect(at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 2);
    // And blocks mined by anything else (evm_mine) carry the present too, not the scenario's clock.
    await devnet.rpc.request("evm_mine", []);
    const next = await devnet.rpc.request<RpcBlock<string>>("eth_getBlockByNumber", ["latest", false]);
    expect(Number(BigInt(next.timestamp))).toBeGreaterThanOrEqual(at);
    expect(Number(BigInt(next.timestamp))).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 2);
  });

  it("refuses a chain that is not the scenario's", async () => {
    const foreign = await startDevnet({ port: 0 });
    others.push(foreign);
    await foreign.rpc.request("evm_mine", []);
    await expect(foreign.play()).rejects.toBeInstanceOf(ForeignChainError);
  });

  it("sets a saved chain of another scenario aside and starts a new one", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-devnet-other-"));
    try {
      const first = await startDevnet({ port: 0, stateDir: dir });
      await first.rpc.request("evm_mine", []);
      await first.stop();
      const warnings: string[] = [];
      const second = await startDevnet({ port: 0, stateDir: dir, warn: (msg) => warnings.push(msg) });
      others.push(second);
      expect(warnings).toEqual([
        expect.stringMatching(/is not block 1 of the devnet scenario.*started a new chain/),
      ]);
      expect(await second.rpc.request<string>("eth_blockNumber")).toBe("0x0");
      expect(fs.readdirSync(dir).some((f) => f.startsWith("state.json.other-scenario-"))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
