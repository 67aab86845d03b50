// Plays a devnet plan on a node (anvil): deploys the tokens, sets the senders' starting balances, then sends each
// block's transactions as the impersonated senders and mines the block at its historical time. Idempotent and
// resumable: block N of the plan is block N of the chain, so the chain's head says how far a previous run got
// (its time and number of transactions confirm it is this plan's), and playing continues there. Blocks added after
// the scenario (a developer's own transactions) are left alone. A chain that is not this plan's (other blocks,
// another version of the scenario) is refused rather than mixed into.
import { type JsonRpcClient, type RpcCall, RpcCallError, toHex } from "../chains/rpc/index.ts";
import {
  balanceSlot,
  DEMO_SWAP_RUNTIME,
  type DevnetBlock,
  type DevnetPlan,
  type DevnetTx,
  TOTAL_SUPPLY_SLOT,
} from "../worlds/index.ts";

export interface PlayResult {
  /** "played": from genesis; "resumed": after an interrupted run; "already": nothing to do. */
  outcome: "played" | "resumed" | "already";
  /** Blocks mined by this run. */
  mined: number;
  /** The plan's last block (the chain's head once played, unless blocks were added since). */
  lastBlock: number;
  ms: number;
}

export class ForeignChainError extends Error {
  override name = "ForeignChainError";
}

interface RpcBlockHeader {
  number: string;
  timestamp: string;
  transactions: string[];
}

/** The next block of the plan the chain needs (plan.blocks.length + 1 when it holds all of it). */
export async function nextPlannedBlock(rpc: JsonRpcClient, plan: DevnetPlan): Promise<number> {
  const head = Number(BigInt(await rpc.request<string>("eth_blockNumber")));
  const last = plan.blocks.length;
  if (head === 0) return 1;
  const probe = Math.min(head, last);
  const planned = plan.blocks[probe - 1]!;
  const block = await rpc.request<RpcBlockHeader | null>("eth_getBlockByNumber", [toHex(probe), false]);
  // The plan's first contract (the EVM devnet's USDV, the Tron devnet's USDT) is deployed on a chain of the plan.
  const probeContract = Object.values(plan.contracts)[0];
  const code = probeContract ? await rpc.request<string>("eth_getCode", [probeContract, "latest"]) : "0x";
  const matches =
    block !== null &&
    Number(BigInt(block.timestamp)) === planned.timestamp &&
    block.transactions.length === planned.txs.length &&
    code !== "0x";
  if (!matches) {
    throw new ForeignChainError(
      `the chain's block ${probe} is not block ${probe} of the devnet scenario (another chain or scenario)`,
    );
  }
  return probe + 1;
}

export interface PlayOptions {
  signal?: AbortSignal;
  /** After each block is mined. */
  onBlock?: (block: DevnetBlock) => void;
}

export async function playPlan(
  rpc: JsonRpcClient,
  plan: DevnetPlan,
  options: PlayOptions = {},
): Promise<PlayResult> {
  const started = performance.now();
  const next = await nextPlannedBlock(rpc, plan);
  const last = plan.blocks.length;
  const result = (outcome: PlayResult["outcome"], mined: number): PlayResult => ({
    outcome,
    mined,
    lastBlock: last,
    ms: Math.round(performance.now() - started),
  });
  if (next > last) {
    await presentClock(rpc);
    return result("already", 0);
  }

  // Mine only on demand while playing; leftovers of an interrupted run (sent, never mined) are dropped first.
  await rpc.request("evm_setAutomine", [false]);
  let mined = 0;
  try {
    await rpc.request("anvil_dropAllTransactions", []);
    for (let n = next; n <= last; n++) {
      options.signal?.throwIfAborted();
      const block = plan.blocks[n - 1]!;
      // The starting balances go in right before the first scenario block (after the deployments).
      if (n === plan.firstScenarioBlock) await prefund(rpc, plan);
      for (const tx of block.txs) await send(rpc, tx);
      await rpc.request("evm_mine", [{ timestamp: block.timestamp, blocks: 1 }]);
      mined += 1;
      options.onBlock?.(block);
    }
  } finally {
    // Back to mining every transaction at once, as a development node does (also after a failure or an abort).
    await rpc.request("evm_setAutomine", [true]).catch(() => {});
  }
  await verifyReceipts(rpc, plan, next);
  await presentClock(rpc);
  return result(next === 1 ? "played" : "resumed", mined);
}

/**
 * After the scenario, the node's clock is the present: anvil was started at the scenario's genesis time (2024) and
 * would stamp every later block (a wallet's or `cast send`'s transaction, `vigia devnet send`) from there on.
 * evm_setTime moves its clock; never backwards past the chain's last block.
 */
async function presentClock(rpc: JsonRpcClient): Promise<void> {
  const latest = await rpc.request<{ timestamp: string } | null>("eth_getBlockByNumber", ["latest", false]);
  const now = Math.floor(Date.now() / 1000);
  if (latest && Number(BigInt(latest.timestamp)) >= now) return;
  await rpc.request("evm_setTime", [now]);
}

/**
 * Sets every sender's starting balances: native with anvil_setBalance, tokens in DemoToken's storage (DemoTether
 * has the same layout).
 */
async function prefund(rpc: JsonRpcClient, plan: DevnetPlan): Promise<void> {
  const calls: RpcCall[] = [...plan.prefund.native].map(([address, wei]) => ({
    method: "anvil_setBalance",
    params: [address, toHex(wei)],
  }));
  for (const [token, balances] of Object.entries(plan.prefund.tokens) as [
    keyof DevnetPlan["contracts"],
    Map<string, bigint>,
  ][]) {
    const contract = plan.contracts[token];
    if (!contract) {
      if (balances.size > 0) throw new Error(`devnet: the plan funds ${token}, which it does not deploy`);
      continue;
    }
    let supply = 0n;
    for (const [holder, units] of balances) {
      supply += units;
      calls.push({ method: "anvil_setStorageAt", params: [contract, balanceSlot(holder), word(units)] });
    }
    calls.push({ method: "anvil_setStorageAt", params: [contract, TOTAL_SUPPLY_SLOT, word(supply)] });
  }
  // The swap pools' code (DemoSwap), installed where the world put its pools.
  for (const pool of plan.swapPools)
    calls.push({ method: "anvil_setCode", params: [pool, DEMO_SWAP_RUNTIME] });
  // Independent calls: their order does not matter, so one batch.
  await rpc.batchResults(calls);
}

async function send(rpc: JsonRpcClient, tx: DevnetTx): Promise<void> {
  const request: Record<string, string> = {
    from: tx.from,
    value: toHex(tx.value),
    gas: toHex(tx.gas),
    gasPrice: "0x0",
    nonce: toHex(BigInt(tx.nonce)),
  };
  if (tx.to) request.to = tx.to;
  if (tx.data) request.data = tx.data;
  try {
    await rpc.request("eth_sendTransaction", [request]);
  } catch (error) {
    if (error instanceof RpcCallError && tx.transfer) {
      const t = tx.transfer;
      throw new Error(
        `devnet: sending ${t.amount} ${t.token} from ${t.from} to ${t.to} at ${t.at} failed: ${error.message}`,
      );
    }
    throw error;
  }
}

/** Every transaction this run sent succeeded (a revert would silently drop a planned transfer). */
async function verifyReceipts(rpc: JsonRpcClient, plan: DevnetPlan, from: number): Promise<void> {
  const blocks = plan.blocks.slice(from - 1);
  const receipts = (await rpc.batchResults(
    blocks.map((b) => ({ method: "eth_getBlockReceipts", params: [toHex(b.number)] })),
  )) as ({ status: string; transactionHash: string }[] | null)[];
  for (const [i, block] of blocks.entries()) {
    const list = receipts[i] ?? [];
    const failed = list.find((r) => r.status !== "0x1");
    if (list.length !== block.txs.length || failed) {
      throw new Error(
        `devnet: block ${block.number} holds ${list.length} of ${block.txs.length} planned transactions${failed ? `; ${failed.transactionHash} reverted` : ""}`,
      );
    }
  }
}

const word = (value: bigint) => `0x${value.toString(16).padStart(64, "0")}`;
