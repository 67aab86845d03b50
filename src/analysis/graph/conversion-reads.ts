// A layer's conversions (src/risk/graph/conversions.ts): when a frontier address transfers with a contract (a
// router, a pool, a defi address, a registered protocol contract), the transaction may be a swap whose other legs
// (the router's WETH to the pool, the pool's stablecoin to the recipient) are not the frontier's transfers and so
// are not in the layer. This step reads those transactions whole, adds their transfers and the addresses they
// name, and follows the other party of each conversion as a counterparty of the frontier: the conversion is not a
// hop, the swap's recipient (or its sender, seen from the recipient) is one step away.
import type { Kysely } from "kysely";
import {
  type AddressFacts,
  readTransactionTransfers,
  type TransactionTransfer,
  UNKNOWN_FACTS,
  usdValue,
} from "../../ledger/index.ts";
import {
  compareEdges,
  type GraphEdge,
  type GraphNode,
  protocolContract,
  readConversions,
} from "../../risk/index.ts";
import type { DB } from "../../schema.ts";
import type { ExpandingGraph, ExpansionOptions } from "./options.ts";

/** Transfers read per transaction at most, on average over a layer's transactions. */
const ROWS_PER_TX = 20;

export interface ConversionLayer {
  /** the frontier this layer expanded */
  frontier: readonly string[];
  /** the layer's new nodes and edges so far; this step adds to them */
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** the next frontier so far; this step adds the other parties of conversions to follow */
  next: string[];
  /** the layer's new counterparties too busy to expand (never followed) */
  busy: readonly string[];
  /**
   * transactions of the layer's transfers with a contract or a defi address that have other transfers too (the
   * layer statement's `tx_more`): the only ones worth reading whole
   */
  multiTx: ReadonlySet<string>;
}

export interface ConversionReport {
  /** statements run: 0 (nothing to read) or 1 */
  statements: number;
  /** transactions read whole */
  txs: number;
  /** candidate transactions beyond maxConversionTxs, not read */
  skipped: number;
  /** conversions read in the layer's transactions */
  conversions: number;
}

/** Reads the layer's candidate transactions whole and adds what they hold, in place. */
export async function readLayerConversions(
  db: Kysely<DB>,
  graph: ExpandingGraph,
  layer: ConversionLayer,
  options: ExpansionOptions,
  newNode: (address: string, depth: number, facts: AddressFacts) => GraphNode,
): Promise<ConversionReport> {
  const report: ConversionReport = { statements: 0, txs: 0, skipped: 0, conversions: 0 };
  if (options.maxConversionTxs === 0) return report;
  const added = new Map(layer.nodes.map((n) => [n.address, n]));
  const busy = new Set(layer.busy);
  const nodeOf = (address: string) => graph.nodes.get(address) ?? added.get(address);
  const inFrontier = new Set(layer.frontier);
  // Candidates: the layer statement said the transaction has more transfers (its counterparty is a contract or a
  // defi address), or the counterparty is a registered protocol contract the store does not know as a contract.
  // A swap to oneself is complete already: the frontier address's own legs (what it paid in, what it got back) are
  // all a conversion to itself needs, and most swaps are such (a trader's, a user's): not read again.
  const usdByTx = new Map<string, number>();
  const paidIn = new Set<string>();
  const paidOut = new Set<string>();
  for (const e of layer.edges) {
    if (inFrontier.has(e.from)) paidIn.add(`${e.txHash}:${e.from}`);
    if (inFrontier.has(e.to)) paidOut.add(`${e.txHash}:${e.to}`);
  }
  for (const e of layer.edges) {
    const mine = inFrontier.has(e.from) ? e.from : inFrontier.has(e.to) ? e.to : undefined;
    if (mine === undefined) continue;
    const other = mine === e.from ? e.to : e.from;
    if (!layer.multiTx.has(e.txHash) && protocolContract(graph.chainId, other) === undefined) continue;
    const key = `${e.txHash}:${mine}`;
    if (paidIn.has(key) && paidOut.has(key)) continue;
    usdByTx.set(e.txHash, (usdByTx.get(e.txHash) ?? 0) + (e.usd ?? 0));
  }
  if (usdByTx.size === 0) return report;
  const ranked = [...usdByTx].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  const hashes = ranked.slice(0, options.maxConversionTxs).map(([hash]) => hash);
  report.skipped = ranked.length - hashes.length;
  const rows = await readTransactionTransfers(db, graph.chainId, hashes, hashes.length * ROWS_PER_TX);
  options.signal?.throwIfAborted();
  report.statements = 1;
  report.txs = hashes.length;

  // The candidates' transfers the graph holds from earlier layers: read once, for both uses below.
  const earlier = graph.edges.filter((e) => usdByTx.has(e.txHash));
  const known = new Set<string>();
  for (const e of earlier) known.add(e.id);
  for (const e of layer.edges) known.add(e.id);
  // Legs the layer read already (a pool the layer expanded) are not added twice, but their conversions count.
  const legs = rows.map((row) => toEdge(row, options.native)).filter((e) => !known.has(e.id));

  // The addresses the legs name that the graph does not hold yet, with their facts and labels (read with them).
  const facts = new Map<string, AddressFacts>();
  for (const row of rows) {
    facts.set(row.from_address, row.fromFacts);
    facts.set(row.to_address, row.toFacts);
  }
  const unseen = [...new Set(legs.flatMap((e) => [e.from, e.to]))]
    .filter((a) => nodeOf(a) === undefined)
    .sort();
  const layerDepth = Math.min(...layer.frontier.map((a) => (nodeOf(a)?.depth ?? 0) + 1));
  const room = {
    nodes: Math.max(0, options.budget.maxNodes - graph.nodes.size - layer.nodes.length),
    edges: Math.max(0, options.budget.maxEdges - graph.edges.length - layer.edges.length),
  };
  if (unseen.length > room.nodes || legs.length > room.edges) {
    graph.truncated[unseen.length > room.nodes ? "nodes" : "edges"] = true;
    return report;
  }
  for (const address of unseen) {
    const node = newNode(address, layerDepth, facts.get(address) ?? UNKNOWN_FACTS);
    added.set(address, node);
    layer.nodes.push(node);
  }
  for (const e of legs) layer.edges.push(e);

  // Each conversion with a frontier address on one side makes the other side its counterparty, followed like one:
  // also when the layer reached it otherwise (as the counterparty of a pool it expanded) and did not follow it
  // there. Only addresses new in this layer: an earlier layer's were judged at their own depth. Busy ones never.
  const txEdges = [...earlier, ...layer.edges.filter((e) => usdByTx.has(e.txHash))].sort(compareEdges);
  const { conversions } = readConversions(txEdges, nodeOf, graph.chainId);
  report.conversions = conversions.length;
  const following = new Set(layer.next);
  for (const c of conversions) {
    const other = inFrontier.has(c.from) ? c.to : inFrontier.has(c.to) ? c.from : undefined;
    if (other === undefined || inFrontier.has(other) || following.has(other) || graph.nodes.has(other))
      continue;
    const node = added.get(other);
    if (!node || node.depth >= graph.maxDepth || options.terminalTypes.has(node.type)) continue;
    if (busy.has(other) || (facts.get(other)?.transfers ?? 0) >= options.busyTransfers) continue;
    following.add(other);
    layer.next.push(other);
  }
  return report;
}

function toEdge(row: TransactionTransfer, native: { symbol: string; decimals: number }): GraphEdge {
  const isNative = row.token === "native";
  const decimals = isNative ? native.decimals : row.decimals;
  return {
    id: `${row.tx_hash}:${row.log_index}`,
    txHash: row.tx_hash,
    logIndex: row.log_index,
    from: row.from_address,
    to: row.to_address,
    token: row.token,
    symbol: isNative ? native.symbol : (row.symbol ?? "UNKNOWN"),
    decimals: decimals ?? 0,
    value: BigInt(row.value),
    usd: usdValue(row.value, decimals, row.price_usd),
    at: Number(row.at),
    blockNumber: Number(row.block_number),
  };
}
