// `vigia devnet send <address> <eth>`: a new transfer on the running devnet, now, from one of anvil's funded
// development accounts, so that a newcomer can watch monitoring at work (docs/quickstart.md): the indexer records
// it, the checker weighs it against the project's laws, and the integrator receives the notification. The scenario
// was played at its historical times (2024); the block of this transfer is stamped with the current time.
import path from "node:path";
import { JsonRpcClient } from "../chains/rpc/index.ts";
import { runningNode } from "./anvil.ts";

export interface SentTransfer {
  txHash: string;
  from: string;
  to: string;
  wei: string;
  block: number;
  time: string;
}

/** The last of anvil's development accounts: the scenario plays from its own addresses, never from this one. */
const SENDER_INDEX = 9;

/** "0.1" ETH in wei, exactly (up to 18 decimals). */
export function parseEth(text: string): bigint {
  const match = /^(\d{1,12})(?:\.(\d{1,18}))?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not an amount of ETH (e.g. 0.25)`);
  const fraction = (match[2] ?? "").padEnd(18, "0");
  return BigInt(match[1] as string) * 10n ** 18n + BigInt(fraction);
}

export async function sendOnDevnet(dataDir: string, to: string, eth: string): Promise<SentTransfer> {
  if (!/^0x[0-9a-fA-F]{40}$/.test(to))
    throw new Error(`"${to}" is not an EVM address (0x and 40 hex digits)`);
  const wei = parseEth(eth);
  const node = runningNode(path.join(dataDir, "devnet"));
  if (!node)
    throw new Error(
      `no devnet runs on the data dir ${dataDir}: start it with \`npm start\` (or \`vigia devnet\`) first`,
    );
  const rpc = new JsonRpcClient(node.url, { timeoutMs: 10_000 });
  const accounts = await rpc.request<string[]>("eth_accounts");
  const from = accounts[SENDER_INDEX] ?? accounts[0];
  if (!from) throw new Error("the devnet has no unlocked account to send from");
  const latest = await rpc.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
  const now = Math.max(Math.floor(Date.now() / 1000), Number(BigInt(latest.timestamp)) + 1);
  await rpc.request("evm_setNextBlockTimestamp", [now]);
  const txHash = await rpc.request<string>("eth_sendTransaction", [
    // The devnet charges no gas (anvil runs with a zero gas price, so balances move by the amounts alone).
    { from, to: to.toLowerCase(), value: `0x${wei.toString(16)}`, gas: "0x5208", gasPrice: "0x0" },
  ]);
  const receipt = await minedReceipt(rpc, txHash);
  if (receipt?.status !== "0x1") throw new Error(`the transfer ${txHash} was not mined`);
  return {
    txHash,
    from: from.toLowerCase(),
    to: to.toLowerCase(),
    wei: wei.toString(),
    block: Number(BigInt(receipt.blockNumber)),
    time: new Date(now * 1000).toISOString(),
  };
}

/**
 * The transfer's receipt once it is in a block: anvil mines at once while it automines, but a node busy with
 * something else (or with automining off) may take a moment; after 2 s a block is mined explicitly.
 */
async function minedReceipt(
  rpc: JsonRpcClient,
  txHash: string,
): Promise<{ blockNumber: string; status: string } | null> {
  const started = Date.now();
  let mined = false;
  for (;;) {
    const receipt = await rpc.request<{ blockNumber: string; status: string } | null>(
      "eth_getTransactionReceipt",
      [txHash],
    );
    if (receipt || Date.now() - started > 15_000) return receipt;
    if (!mined && Date.now() - started > 2_000) {
      await rpc.request("evm_mine", []);
      mined = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
