// Conversions: a transaction in which value changes form (a DEX swap, an aggregator route, a wrap into a
// protocol's token) read as one movement of value from the one who paid to the one who received, so that tracing,
// exposure and the patterns follow the money across tokens instead of ending at a router.
//
// Per transaction, every address's flow is netted per asset (token transfers and the transaction's native value).
// The protocol's contracts (intermediaries: a contract the store knows, a registered protocol contract, an address
// labelled defi, or the zero address of mints and burns) pass value through and net to about zero in USD; what is
// left is the payer, who gave one asset, and the recipient, who received another. When exactly one payer and one
// recipient are left and the two sides agree in USD within the slippage tolerance, the transaction's transfers
// become one conversion edge from payer to recipient carrying the received asset, valued in USD (the received
// side's price, else the given side's). The conversion is not a hop: the routers and pools drop out of the path.
// The transaction's sender counts as its payer: a swap sent by one address with another as recipient is a transfer
// between those two. A swap to oneself leaves no edge (the address still holds the value, in another form).
//
// A transaction that touches an intermediary and moves two or more assets but does not read as one payer and one
// recipient is reported as an unsupported conversion (with why), and its transfers are left as they are: never
// silently dropped. Pure: the graph's edges and nodes in, edges and conversions out.
import { sumPricedUsd } from "./amounts.ts";
import { categoryOf, shortAddress } from "./classify.ts";
import { protocolContract } from "./protocols.ts";
import type { ConversionVia, GraphEdge, GraphNode } from "./types.ts";

export interface ConversionParams {
  /** the given and received sides may differ in USD by this fraction of the larger (fees, slippage, day prices) */
  slippageTolerance: number;
}

export const DEFAULT_CONVERSION_PARAMS: ConversionParams = { slippageTolerance: 0.1 };

export interface Conversion extends ConversionVia {
  txHash: string;
  at: number;
  /** who gave: the transaction's payer */
  from: string;
  /** who received the converted value (the payer itself for a swap to oneself) */
  to: string;
  /** the edge that stands for the conversion in the index; absent for a swap to oneself */
  edgeId?: string;
}

export interface UnsupportedConversion {
  txHash: string;
  at: number;
  /** the addresses of the transaction that are not intermediaries, sorted */
  parties: string[];
  reason: string;
}

export interface ConversionReading {
  /** the edges with every conversion's transfers replaced by its edge */
  edges: GraphEdge[];
  conversions: Conversion[];
  unsupported: UnsupportedConversion[];
}

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/**
 * Reads the conversions of a graph's edges, given in canonical order (compareEdges: a transaction's transfers are
 * then next to each other). `nodeOf` gives what is known of an address (its facts and label); `chainId` selects
 * the registry of protocol contracts. The edges come back in the same order, each conversion's transfers replaced
 * by its edge where they were; edges of transactions that are not conversions are returned as they were.
 */
export function readConversions(
  sortedEdges: readonly GraphEdge[],
  nodeOf: (address: string) => GraphNode | undefined,
  chainId: number,
  params: ConversionParams = DEFAULT_CONVERSION_PARAMS,
): ConversionReading {
  const conversions: Conversion[] = [];
  const unsupported: UnsupportedConversion[] = [];
  let out: GraphEdge[] | undefined; // allocated at the first conversion: most graphs have none
  let i = 0;
  while (i < sortedEdges.length) {
    const first = sortedEdges[i] as GraphEdge;
    // The run of this transaction's transfers, and whether it moves two or more assets.
    let j = i + 1;
    let assets = false;
    while (j < sortedEdges.length && (sortedEdges[j] as GraphEdge).txHash === first.txHash) {
      if ((sortedEdges[j] as GraphEdge).token !== first.token) assets = true;
      j++;
    }
    const read = assets ? readTransaction(sortedEdges.slice(i, j), nodeOf, chainId, params) : undefined;
    if (read !== undefined && "reason" in read) unsupported.push(read);
    if (read !== undefined && !("reason" in read)) {
      conversions.push(read.conversion);
      out ??= sortedEdges.slice(0, i);
      if (read.edge) out.push(read.edge);
    } else if (out) {
      for (let k = i; k < j; k++) out.push(sortedEdges[k] as GraphEdge);
    }
    i = j;
  }
  return { edges: out ?? [...sortedEdges], conversions, unsupported };
}

interface Net {
  value: bigint;
  usd: number;
  priced: boolean;
  sample: GraphEdge;
}

function readTransaction(
  edges: readonly GraphEdge[],
  nodeOf: (address: string) => GraphNode | undefined,
  chainId: number,
  params: ConversionParams,
): { conversion: Conversion; edge: GraphEdge | null } | UnsupportedConversion | undefined {
  const first = edges[0] as GraphEdge;
  // The native value is the transaction's own: its sender pays, and is never an intermediary.
  const sender = edges.find((e) => e.logIndex === -1)?.from;
  const intermediaries = new Set<string>();
  const addresses = new Set<string>();
  for (const e of edges) for (const a of [e.from, e.to]) addresses.add(a);
  for (const a of addresses) if (a !== sender && isIntermediary(a, nodeOf(a), chainId)) intermediaries.add(a);
  if (intermediaries.size === 0) return undefined; // a batch of payments, not a conversion

  const nets = new Map<string, Map<string, Net>>();
  const add = (address: string, e: GraphEdge, sign: 1n | -1n) => {
    let perToken = nets.get(address);
    if (!perToken) {
      perToken = new Map();
      nets.set(address, perToken);
    }
    const net = perToken.get(e.token) ?? { value: 0n, usd: 0, priced: true, sample: e };
    net.value += sign * e.value;
    net.usd += Number(sign) * (e.usd ?? 0);
    net.priced &&= e.usd !== null;
    perToken.set(e.token, net);
  };
  for (const e of edges) {
    if (e.from === e.to) continue;
    add(e.from, e, -1n);
    add(e.to, e, 1n);
  }
  const parties = [...addresses].filter((a) => !intermediaries.has(a)).sort();
  const unsupportedBecause = (reason: string): UnsupportedConversion => ({
    txHash: first.txHash,
    at: first.at,
    parties,
    reason,
  });
  const payers: string[] = [];
  const recipients: string[] = [];
  for (const a of parties) {
    const perToken = nets.get(a);
    if (!perToken) continue;
    let gives = false;
    let gets = false;
    for (const net of perToken.values()) {
      if (net.value < 0n) gives = true;
      if (net.value > 0n) gets = true;
    }
    if (gives) payers.push(a);
    if (gets) recipients.push(a);
  }
  // A pool the store does not know as a contract (unlabelled, never seen deploying code) is a second payer that only
  // gave: beside the transaction's sender, with one recipient, it is read as the protocol's pool.
  if (payers.length > 1 && recipients.length === 1 && sender !== undefined && payers.includes(sender)) {
    const pools = payers.filter((a) => a !== sender && !recipients.includes(a));
    if (pools.length === payers.length - 1) {
      for (const pool of pools) intermediaries.add(pool);
      payers.splice(0, payers.length, sender);
    }
  }
  if (payers.length !== 1 || recipients.length !== 1) {
    if (payers.length === 0 && recipients.length === 0) return undefined; // nothing left the protocol's hands
    return unsupportedBecause(
      `${payers.length} payer(s) and ${recipients.length} recipient(s) through a protocol contract; ` +
        "a conversion reads as one of each",
    );
  }
  const payer = payers[0] as string;
  const recipient = recipients[0] as string;
  const given = legs(nets.get(payer) as Map<string, Net>, -1n);
  const received = legs(nets.get(recipient) as Map<string, Net>, 1n);
  const givenTokens = new Set(given.map((l) => l.token));
  if (received.every((l) => givenTokens.has(l.token))) return undefined; // a route of one asset, not a conversion
  const givenUsd = sumPricedUsd(given);
  const receivedUsd = sumPricedUsd(received);
  if (givenUsd === null && receivedUsd === null) {
    return unsupportedBecause(
      "neither side has a USD price on the day, so the value cannot be carried across",
    );
  }
  if (givenUsd !== null && receivedUsd !== null) {
    const larger = Math.max(givenUsd, receivedUsd);
    if (larger > 0 && Math.abs(givenUsd - receivedUsd) > params.slippageTolerance * larger) {
      return unsupportedBecause(
        `the given side (USD ${givenUsd.toFixed(2)}) and the received side (USD ${receivedUsd.toFixed(2)}) differ ` +
          `by more than the ${Math.round(params.slippageTolerance * 100)}% slippage tolerance`,
      );
    }
  }
  const usd = receivedUsd ?? givenUsd;
  const via = protocolNames([...intermediaries], nodeOf, chainId);
  const lastReceived = received.at(-1) as Leg;
  const conversion: Conversion = {
    txHash: first.txHash,
    at: first.at,
    from: payer,
    to: recipient,
    via,
    contracts: [...intermediaries].sort(),
    given,
    received,
  };
  if (payer === recipient) return { conversion, edge: null };
  const edgeId = `${first.txHash}:conversion`;
  conversion.edgeId = edgeId;
  const lastLog = edges.reduce((m, e) => Math.max(m, e.logIndex), -1);
  const edge: GraphEdge = {
    id: edgeId,
    txHash: first.txHash,
    logIndex: lastLog,
    from: payer,
    to: recipient,
    token: lastReceived.token,
    symbol: received.length === 1 ? lastReceived.symbol : received.map((l) => l.symbol).join("+"),
    decimals: lastReceived.decimals,
    value: received.length === 1 ? lastReceived.value : 0n,
    usd: usd === null ? null : Math.round(usd * 100) / 100,
    at: first.at,
    blockNumber: first.blockNumber,
    conversion: { via, contracts: conversion.contracts, given, received },
  };
  return { conversion, edge };
}

type Leg = ConversionVia["given"][number];

/** The assets an address gave (sign -1) or received (sign 1) on net, by token. */
function legs(perToken: Map<string, Net>, sign: 1n | -1n): Leg[] {
  const out: Leg[] = [];
  for (const [token, net] of [...perToken].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (net.value * sign <= 0n) continue;
    out.push({
      token,
      symbol: net.sample.symbol,
      decimals: net.sample.decimals,
      value: net.value * sign,
      usd: net.priced ? Math.abs(net.usd) : null,
    });
  }
  return out;
}

/** An address that passes value through on a protocol's behalf. */
function isIntermediary(address: string, node: GraphNode | undefined, chainId: number): boolean {
  if (address === ZERO_ADDRESS || protocolContract(chainId, address)) return true;
  if (!node) return false;
  return node.isContract || node.type === "defi" || categoryOf(node) === "defi";
}

/**
 * The protocols a conversion went through, by name: the registry's, else the contract's label. A route through a
 * named router and unnamed pools is "via" the router; only when nothing is named are the contracts listed.
 */
function protocolNames(
  contracts: readonly string[],
  nodeOf: (address: string) => GraphNode | undefined,
  chainId: number,
): string[] {
  const named = new Set<string>();
  const unnamed = new Set<string>();
  for (const address of contracts) {
    const known = protocolContract(chainId, address);
    const node = nodeOf(address);
    if (known) named.add(known.protocol);
    else if (node?.label) named.add(node.label);
    else if (address === ZERO_ADDRESS) unnamed.add("a mint or burn");
    else unnamed.add(`unlisted contract ${shortAddress(address)}`);
  }
  return [...(named.size > 0 ? named : unnamed)].sort();
}
