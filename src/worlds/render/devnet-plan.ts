// The devnet scenario as a chain (pure: no I/O): which block carries what. A world's planned transfers become
// one block per distinct time, after two deployment blocks:
//   block 0          genesis, at GENESIS_TIME (a day before the scenario starts)
//   block 1, 2       USDV and TKN deployed by a fixed deployer (nonces 0 and 1: deterministic addresses)
//   block 3 + i      the world's i-th group of transfers, at that group's historical time
// Before block 3 every sender is given exactly what it lacks (balances set directly, not transferred, so no funding
// transfer appears in the graph), counted pessimistically within a block: all of a block's outflows before its
// inflows, so the order the node puts a block's transactions in cannot make one fail.
import { encodeDeployData, encodeFunctionData, getContractAddress, keccak256, toHex } from "viem";
import { DAY, HOUR, type PlannedTransfer, TOKENS, type TokenSymbol, type World } from "../world.ts";
import { DEMO_TOKEN_ABI, DEMO_TOKEN_BYTECODE } from "./contracts.generated.ts";

export const DEVNET_LABEL_SOURCE = "vigia-devnet";

type Address = `0x${string}`;
type TokenContract = Exclude<TokenSymbol, "ETH">;

/** The account that deploys the demo tokens: derived from a fixed name, never a real key. */
export const DEPLOYER: Address = `0x${keccak256(toHex("vigia-devnet:deployer")).slice(-40)}`;

export const TOKEN_CONTRACTS: Record<TokenContract, { address: Address; nonce: number }> = {
  USDV: { address: getContractAddress({ from: DEPLOYER, nonce: 0n }).toLowerCase() as Address, nonce: 0 },
  TKN: { address: getContractAddress({ from: DEPLOYER, nonce: 1n }).toLowerCase() as Address, nonce: 1 },
};

/** Blocks 1 and 2 deploy the tokens; the world's transfers start here. */
export const FIRST_SCENARIO_BLOCK = 3;

/** Gas limits: zero gas price makes them free, they only need to be enough. */
const GAS = { native: 21_000n, token: 120_000n, deploy: 3_000_000n };

/** What eth_sendTransaction receives (the node impersonates `from`). */
export interface DevnetTx {
  from: Address;
  to?: Address;
  value: bigint;
  data?: `0x${string}`;
  gas: bigint;
  nonce: number;
  /** The planned transfer this carries; absent for deployments. */
  transfer?: PlannedTransfer;
}

export interface DevnetBlock {
  number: number;
  timestamp: number;
  txs: DevnetTx[];
}

export interface DevnetPlan {
  chainId: number;
  genesisTime: number;
  /** Blocks 1..last, in order; blocks[i].number === i + 1. */
  blocks: DevnetBlock[];
  /** Balances set before the first scenario block: native wei and token units per address. */
  prefund: { native: Map<Address, bigint>; tokens: Record<TokenContract, Map<Address, bigint>> };
  transfers: number;
  /** The first and last days of the scenario (unix seconds at 00:00 UTC), for daily prices. */
  firstDay: number;
  lastDay: number;
}

export function tokenAddress(token: TokenSymbol): Address | "native" {
  return token === "ETH" ? "native" : TOKEN_CONTRACTS[token].address;
}

export function planDevnet(world: World, options: { chainId: number; genesisTime: number }): DevnetPlan {
  const { genesisTime } = options;
  const deploy = (token: TokenContract, hour: number): DevnetBlock => {
    const spec = TOKENS[token];
    return {
      number: hour,
      timestamp: genesisTime + hour * HOUR,
      txs: [
        {
          from: DEPLOYER,
          value: 0n,
          data: encodeDeployData({
            abi: DEMO_TOKEN_ABI,
            bytecode: DEMO_TOKEN_BYTECODE,
            args: [spec.name, spec.symbol, spec.decimals],
          }),
          gas: GAS.deploy,
          nonce: TOKEN_CONTRACTS[token].nonce,
        },
      ],
    };
  };
  const blocks: DevnetBlock[] = [deploy("USDV", 1), deploy("TKN", 2)];

  const timeline = world.timeline();
  const first = timeline[0];
  if (!first) throw new Error(`the world ${world.namespace} has no transfers`);
  if (first.at <= blocks[1]!.timestamp) {
    throw new Error(`the world's first transfer (${first.at}) is not after the devnet's deployments`);
  }

  const nonces = new Map<string, number>();
  const balances = new Map<string, bigint>();
  const needs = new Map<string, bigint>();
  const key = (address: string, token: TokenSymbol) => `${token}:${address}`;
  let group: PlannedTransfer[] = [];
  const flush = () => {
    if (group.length === 0) return;
    const at = group[0]!.at;
    blocks.push({ number: blocks.length + 1, timestamp: at, txs: group.map((t) => txFor(t, nonces)) });
    for (const t of group) {
      const k = key(t.from, t.token);
      const balance = (balances.get(k) ?? 0n) - t.amount;
      balances.set(k, balance);
      if (-balance > (needs.get(k) ?? 0n)) needs.set(k, -balance);
    }
    for (const t of group)
      balances.set(key(t.to, t.token), (balances.get(key(t.to, t.token)) ?? 0n) + t.amount);
    group = [];
  };
  for (const t of timeline) {
    if (group.length > 0 && group[0]!.at !== t.at) flush();
    group.push(t);
  }
  flush();

  const prefund: DevnetPlan["prefund"] = { native: new Map(), tokens: { USDV: new Map(), TKN: new Map() } };
  for (const [k, amount] of needs) {
    const [token, address] = k.split(":") as [TokenSymbol, Address];
    if (token === "ETH") prefund.native.set(address, amount);
    else prefund.tokens[token].set(address, amount);
  }
  const last = timeline[timeline.length - 1]!;
  return {
    chainId: options.chainId,
    genesisTime,
    blocks,
    prefund,
    transfers: timeline.length,
    firstDay: Math.floor(first.at / DAY) * DAY,
    lastDay: Math.floor(last.at / DAY) * DAY,
  };
}

function txFor(t: PlannedTransfer, nonces: Map<string, number>): DevnetTx {
  const nonce = nonces.get(t.from) ?? 0;
  nonces.set(t.from, nonce + 1);
  const from = t.from as Address;
  if (t.token === "ETH") {
    return { from, to: t.to as Address, value: t.amount, gas: GAS.native, nonce, transfer: t };
  }
  return {
    from,
    to: TOKEN_CONTRACTS[t.token].address,
    value: 0n,
    data: encodeFunctionData({
      abi: DEMO_TOKEN_ABI,
      functionName: "transfer",
      args: [t.to as Address, t.amount],
    }),
    gas: GAS.token,
    nonce,
    transfer: t,
  };
}

/** The storage slot of `balanceOf[holder]` in DemoToken (the mapping is at slot 0). */
export function balanceSlot(holder: string): `0x${string}` {
  return keccak256(`0x${holder.slice(2).toLowerCase().padStart(64, "0")}${"0".repeat(64)}`);
}

/** DemoToken's totalSupply slot. */
export const TOTAL_SUPPLY_SLOT = toHex(2, { size: 32 });
