// The devnet scenario as a chain (pure: no I/O): which block carries what. A world's planned transfers become
// one block per distinct time, after the deployment blocks:
//   block 0          genesis, at GENESIS_TIME (a day before the scenario starts)
//   block 1, 2       USDV and TKN deployed by a fixed deployer (nonces 0 and 1: deterministic addresses)
//   block 3 + i      the world's i-th group of transfers, at that group's historical time
// Before block 3 every sender is given exactly what it lacks (balances set directly, not transferred, so no funding
// transfer appears in the graph), counted pessimistically within a block: all of a block's outflows before its
// inflows, so the order the node puts a block's transactions in cannot make one fail.
// The Tron devnet's plan (planTronDevnet) is the same with one deployment: block 1 deploys its USDT (DemoTether,
// Tether's blacklist included), the world's stablecoin is written as that USDT, and the issuer's freezes
// (addBlackList calls) go into the blocks of their times beside the transfers.
import { encodeDeployData, encodeFunctionData, getContractAddress, keccak256, toHex } from "viem";
import { DAY, HOUR, type PlannedTransfer, TOKENS, type TokenSymbol, type World } from "../world.ts";
import type { ChainTokens } from "./chain-tokens.ts";
import { EVM_TOKENS, TRON_TOKENS } from "./chain-tokens.ts";
import { DEMO_SWAP_ABI, DEMO_TOKEN_ABI, DEMO_TOKEN_BYTECODE } from "./contracts.generated.ts";
import { DEMO_TETHER_ABI, DEMO_TETHER_BYTECODE } from "./tether.generated.ts";

export const DEVNET_LABEL_SOURCE = "vigia-devnet";
/** The Tron devnet's labels: a source of their own, so that writing one devnet's never replaces the other's. */
export const TRON_DEVNET_LABEL_SOURCE = "vigia-tron-devnet";

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

/** The Tron devnet's issuer: deploys its USDT and owns it (freezes); derived from a fixed name, never a real key. */
export const TRON_ISSUER: Address = `0x${keccak256(toHex("vigia-tron-devnet:tether-issuer")).slice(-40)}`;

/** The Tron devnet's USDT, deployed by TRON_ISSUER at nonce 0. */
export const TRON_USDT_CONTRACT: Address = getContractAddress({
  from: TRON_ISSUER,
  nonce: 0n,
}).toLowerCase() as Address;

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
  /** The planned transfer this carries; absent for deployments and the issuer's calls. */
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
  /** The labels' source in the store (one per devnet). */
  labelSource: string;
  /** The world's tokens as this chain's contracts: the EVM devnet's USDV and TKN, the Tron devnet's USDT. */
  contracts: Partial<Record<TokenContract, Address>>;
  /** How the world's tokens are named, counted and priced on this chain. */
  chainTokens: ChainTokens;
  /** The first block of the world's transfers (after the deployments); the starting balances go in before it. */
  firstScenarioBlock: number;
  /** Blocks 1..last, in order; blocks[i].number === i + 1. */
  blocks: DevnetBlock[];
  /** Balances set before the first scenario block: native wei and token units per address. */
  prefund: { native: Map<Address, bigint>; tokens: Record<TokenContract, Map<Address, bigint>> };
  /** The world's swap pools: DemoSwap's runtime code is installed at each before the first scenario block. */
  swapPools: Address[];
  transfers: number;
  /** The first and last days of the scenario (unix seconds at 00:00 UTC), for daily prices. */
  firstDay: number;
  lastDay: number;
}

export function tokenAddress(token: TokenSymbol): Address | "native" {
  return token === "ETH" ? "native" : TOKEN_CONTRACTS[token].address;
}

export function planDevnet(world: World, options: { chainId: number; genesisTime: number }): DevnetPlan {
  const deployments = (["USDV", "TKN"] as const).map((token, i) => {
    const spec = TOKENS[token];
    const data = encodeDeployData({
      abi: DEMO_TOKEN_ABI,
      bytecode: DEMO_TOKEN_BYTECODE,
      args: [spec.name, spec.symbol, spec.decimals],
    });
    return { hour: i + 1, tx: deployTx(DEPLOYER, data, TOKEN_CONTRACTS[token].nonce) };
  });
  return planChain(world, {
    ...options,
    labelSource: DEVNET_LABEL_SOURCE,
    contracts: { USDV: TOKEN_CONTRACTS.USDV.address, TKN: TOKEN_CONTRACTS.TKN.address },
    chainTokens: EVM_TOKENS,
    deployments,
    calls: [],
  });
}

/**
 * The Tron devnet's plan: its USDT (DemoTether, name "Tether USD", 6 decimals) deployed in block 1 by the issuer,
 * the world's stablecoin written as that USDT, and each freeze as the issuer's addBlackList call in the block of
 * its time. The world moves nothing else (no TRX, no other token: planning one that does fails).
 */
export function planTronDevnet(
  world: World,
  freezes: readonly { address: string; at: number }[],
  options: { chainId: number; genesisTime: number },
): DevnetPlan {
  const other = world.transfers.find((t) => t.token !== "USDV");
  if (other) throw new Error(`the Tron devnet carries USDT only; the world sends ${other.token}`);
  // A blacklisted sender's transfer reverts, as on Tether's contract: the world must not plan one.
  for (const f of freezes) {
    const late = world.transfers.find((t) => t.from === f.address && t.at >= f.at);
    if (late) throw new Error(`${f.address} sends at ${late.at}, after its freeze at ${f.at}`);
  }
  const usdt = TRON_TOKENS.tokens.USDV;
  const data = encodeDeployData({
    abi: DEMO_TETHER_ABI,
    bytecode: DEMO_TETHER_BYTECODE,
    args: [usdt.name, usdt.symbol, usdt.decimals],
  });
  return planChain(world, {
    ...options,
    labelSource: TRON_DEVNET_LABEL_SOURCE,
    contracts: { USDV: TRON_USDT_CONTRACT },
    chainTokens: TRON_TOKENS,
    deployments: [{ hour: 1, tx: deployTx(TRON_ISSUER, data, 0) }],
    calls: freezes.map((f, i) => ({
      at: f.at,
      tx: {
        from: TRON_ISSUER,
        to: TRON_USDT_CONTRACT,
        value: 0n,
        data: encodeFunctionData({
          abi: DEMO_TETHER_ABI,
          functionName: "addBlackList",
          args: [f.address as Address],
        }),
        gas: GAS.token,
        nonce: i + 1,
      },
    })),
  });
}

function deployTx(from: Address, data: `0x${string}`, nonce: number): DevnetTx {
  return { from, value: 0n, data, gas: GAS.deploy, nonce };
}

interface ChainLayout {
  chainId: number;
  genesisTime: number;
  labelSource: string;
  contracts: Partial<Record<TokenContract, Address>>;
  chainTokens: ChainTokens;
  /** One block each, `hour` hours after genesis, in order. */
  deployments: { hour: number; tx: DevnetTx }[];
  /** Transactions other than transfers (the issuer's freezes), each in the block of its time. */
  calls: { at: number; tx: DevnetTx }[];
}

function planChain(world: World, layout: ChainLayout): DevnetPlan {
  const { genesisTime } = layout;
  const blocks: DevnetBlock[] = layout.deployments.map((d, i) => ({
    number: i + 1,
    timestamp: genesisTime + d.hour * HOUR,
    txs: [d.tx],
  }));
  const firstScenarioBlock = blocks.length + 1;

  const timeline = world.timeline();
  const first = timeline[0];
  if (!first) throw new Error(`the world ${world.namespace} has no transfers`);
  if (first.at <= blocks.at(-1)!.timestamp) {
    throw new Error(`the world's first transfer (${first.at}) is not after the devnet's deployments`);
  }

  const nonces = new Map<string, number>();
  const balances = new Map<string, bigint>();
  const needs = new Map<string, bigint>();
  const key = (address: string, token: TokenSymbol) => `${token}:${address}`;
  // Transfers and calls in time order; sort is stable, so transfers keep the timeline's order and a call comes after
  // the transfers of its second.
  // A World.transaction's legs (a swap) are one item, played as one call of the pool (swapTx).
  const legsOf = new Map<number, PlannedTransfer[]>();
  for (const t of timeline) if (t.tx !== undefined) legsOf.set(t.tx, [...(legsOf.get(t.tx) ?? []), t]);
  const swapPools = new Set<Address>();
  const items: { at: number; transfers?: PlannedTransfer[]; call?: DevnetTx; order: number }[] = [
    ...timeline.flatMap((t, order) =>
      t.tx === undefined
        ? [{ at: t.at, transfers: [t], order }]
        : legsOf.get(t.tx)?.[0] === t
          ? [{ at: t.at, transfers: legsOf.get(t.tx) as PlannedTransfer[], order }]
          : [],
    ),
    ...layout.calls.map((c, i) => ({ at: c.at, call: c.tx, order: timeline.length + i })),
  ].sort((x, y) => x.at - y.at || x.order - y.order);
  let group: typeof items = [];
  const flush = () => {
    if (group.length === 0) return;
    const transfers = group.flatMap((item) => item.transfers ?? []);
    const txs = group.map((item) => {
      if (item.call) return item.call;
      const legs = item.transfers as PlannedTransfer[];
      if (legs.length === 1) return txFor(legs[0] as PlannedTransfer, nonces, layout);
      const tx = swapTx(legs, nonces, layout);
      swapPools.add(tx.to as Address);
      return tx;
    });
    blocks.push({ number: blocks.length + 1, timestamp: group[0]!.at, txs });
    for (const t of transfers) {
      const k = key(t.from, t.token);
      const balance = (balances.get(k) ?? 0n) - layout.chainTokens.units(t.token, t.amount);
      balances.set(k, balance);
      if (-balance > (needs.get(k) ?? 0n)) needs.set(k, -balance);
    }
    for (const t of transfers) {
      const k = key(t.to, t.token);
      balances.set(k, (balances.get(k) ?? 0n) + layout.chainTokens.units(t.token, t.amount));
    }
    group = [];
  };
  for (const item of items) {
    if (group.length > 0 && group[0]!.at !== item.at) flush();
    group.push(item);
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
    chainId: layout.chainId,
    genesisTime,
    labelSource: layout.labelSource,
    contracts: layout.contracts,
    chainTokens: layout.chainTokens,
    firstScenarioBlock,
    blocks,
    prefund,
    swapPools: [...swapPools].sort(),
    transfers: timeline.length,
    firstDay: Math.floor(first.at / DAY) * DAY,
    lastDay: Math.floor(last.at / DAY) * DAY,
  };
}

function txFor(t: PlannedTransfer, nonces: Map<string, number>, layout: ChainLayout): DevnetTx {
  // A sender's nonces count its transactions: the issuer's deployment and calls are numbered in the plan itself.
  const nonce = nonces.get(t.from) ?? 0;
  nonces.set(t.from, nonce + 1);
  const from = t.from as Address;
  const amount = layout.chainTokens.units(t.token, t.amount);
  if (t.token === "ETH") {
    return { from, to: t.to as Address, value: amount, gas: GAS.native, nonce, transfer: t };
  }
  const contract = layout.contracts[t.token];
  if (!contract) throw new Error(`the devnet has no ${t.token} contract`);
  return {
    from,
    to: contract,
    value: 0n,
    // DemoTether's transfer has DemoToken's ABI.
    data: encodeFunctionData({
      abi: DEMO_TOKEN_ABI,
      functionName: "transfer",
      args: [t.to as Address, amount],
    }),
    gas: GAS.token,
    nonce,
    transfer: t,
  };
}

/**
 * A swap as the devnet plays it: DemoSwap's swapExactETHForTokens, sent by the payer to the pool with the ETH leg
 * as its value; the pool pays the token leg to the recipient. The only shape of World.transaction the devnet has a
 * contract for: [ETH payer -> pool, token pool -> recipient].
 */
function swapTx(
  legs: readonly PlannedTransfer[],
  nonces: Map<string, number>,
  layout: ChainLayout,
): DevnetTx {
  const [pay, out] = legs;
  if (
    legs.length !== 2 ||
    !pay ||
    !out ||
    pay.token !== "ETH" ||
    out.token === "ETH" ||
    out.from !== pay.to
  ) {
    throw new Error("the devnet plays a transaction of several transfers only as a swap of ETH for a token");
  }
  const contract = layout.contracts[out.token];
  if (!contract) throw new Error(`the devnet has no ${out.token} contract`);
  const nonce = nonces.get(pay.from) ?? 0;
  nonces.set(pay.from, nonce + 1);
  return {
    from: pay.from as Address,
    to: pay.to as Address,
    value: layout.chainTokens.units("ETH", pay.amount),
    data: encodeFunctionData({
      abi: DEMO_SWAP_ABI,
      functionName: "swapExactETHForTokens",
      args: [contract, out.to as Address, layout.chainTokens.units(out.token, out.amount)],
    }),
    gas: GAS.token,
    nonce,
    transfer: pay,
  };
}

/** The storage slot of `balanceOf[holder]` in DemoToken (the mapping is at slot 0). */
export function balanceSlot(holder: string): `0x${string}` {
  return keccak256(`0x${holder.slice(2).toLowerCase().padStart(64, "0")}${"0".repeat(64)}`);
}

/** DemoToken's totalSupply slot. */
export const TOTAL_SUPPLY_SLOT = toHex(2, { size: 32 });
