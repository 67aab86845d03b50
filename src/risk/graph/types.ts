// The transaction graph the risk core reasons about. It is built by the analysis layer (bounded breadth-first
// expansion over the store) and handed to the pure detectors; nothing here does I/O.

/** Normalised label categories (docs/labels.md) plus what the graph itself knows of an address. */
export const NODE_TYPES = [
  "eoa",
  "contract",
  "exchange",
  "mixer",
  "bridge",
  "defi",
  "sanctioned",
  "illicit",
  "unknown",
] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/**
 * Label categories (docs/labels.md), riskiest first: the vocabulary every label is normalised to on import. When
 * an address has several labels, the first category in this order is its node's category.
 */
export const LABEL_CATEGORIES = [
  "sanctioned",
  "illicit",
  "mixer",
  "sanctioned_historical",
  "blocklisted",
  "bridge",
  "exchange",
  "defi",
  "gambling",
  "miner",
  "other",
] as const;
export type LabelCategory = (typeof LABEL_CATEGORIES)[number];

/**
 * The node type a label category gives an address. `blocklisted` (funds frozen by a token issuer, e.g. the USDT
 * blacklist) is `illicit`: issuers freeze at the request of law enforcement or after hacks and scams; the node
 * keeps `category: "blocklisted"` so scoring can weigh it differently. `sanctioned_historical`, `gambling`,
 * `miner` and `other` give no special type: the node stays `contract` or `eoa`, with the category kept.
 */
export const NODE_TYPE_OF_CATEGORY: Readonly<Partial<Record<string, NodeType>>> = {
  sanctioned: "sanctioned",
  illicit: "illicit",
  blocklisted: "illicit",
  mixer: "mixer",
  bridge: "bridge",
  exchange: "exchange",
  defi: "defi",
};

export interface GraphNode {
  /** lowercase 0x address */
  address: string;
  /** hop distance from the nearest root (0 for a root) */
  depth: number;
  type: NodeType;
  /** the strongest label of the address, when it has one */
  label?: string;
  /** its normalised category (exchange, mixer, sanctioned, illicit, bridge, defi, blocklisted, ...) */
  category?: string;
  isContract: boolean;
  /** unix seconds of the address's first transfer anywhere in the store, when known */
  firstSeenAt?: number;
  /** false when its own transfers were not fetched: the frontier at max depth, or a service that ends a path */
  expanded: boolean;
  /**
   * true when its label and type are inferred rather than stored: an unlabelled address that forwards what it
   * receives to one exchange's labelled wallets is that exchange's deposit address (type exchange)
   */
  inferred?: boolean;
  /** true when the address has bridge legs on its chain: the expansion reads its crossings (bridge-reads.ts) */
  bridged?: boolean;
}

export interface GraphEdge {
  /** `${txHash}:${logIndex}`, unique in a graph */
  id: string;
  txHash: string;
  /** -1 for the native value of a transaction */
  logIndex: number;
  from: string;
  to: string;
  /** 'native' or the token contract address */
  token: string;
  symbol: string;
  decimals: number;
  /** exact amount in the token's smallest unit */
  value: bigint;
  /** USD value on the transfer's day; null when no price is known */
  usd: number | null;
  /** unix seconds */
  at: number;
  blockNumber: number;
  /**
   * set on the edge that stands for a conversion (graph/conversions.ts): the transaction's transfers through a
   * protocol's contracts read as one movement of value from payer to recipient; `token`, `value` and `usd` are
   * what the recipient received
   */
  conversion?: ConversionVia;
  /**
   * set on the edge that stands for a bridge crossing (graph/chain-keys.ts): value deposited by `from` on one chain
   * and delivered to `to` on another; `txHash`, `token`, `value`, `usd`, `at` are the delivery's, and the two legs'
   * own transfers (the deposit into the bridge, the delivery to the recipient) give way to it
   */
  bridge?: BridgeVia;
}

/** A bridge crossing: the protocol, the two chains and the deposit. */
export interface BridgeVia {
  /** the protocol by name ("Across", "Circle CCTP", "LayerZero OFT") */
  protocol: string;
  fromChainId: number;
  toChainId: number;
  /** the deposit's transaction, on `fromChainId` */
  depositTx: string;
  /** what was deposited */
  given: ConversionLeg;
}

/** One side of a conversion: an asset given or received, on net, in the transaction. */
export interface ConversionLeg {
  token: string;
  symbol: string;
  decimals: number;
  value: bigint;
  /** null when the asset has no price on the day */
  usd: number | null;
}

/** What a conversion went through and what changed hands. */
export interface ConversionVia {
  /** the protocols by name ("Uniswap V2", a contract's label), or the unlisted contracts */
  via: string[];
  /** the intermediaries' addresses (routers, pools), sorted */
  contracts: string[];
  given: ConversionLeg[];
  received: ConversionLeg[];
}

export interface Truncation {
  nodes: boolean;
  edges: boolean;
  time: boolean;
  /** some high-degree nodes had only their top counterparties by USD value followed */
  degree: boolean;
}

export interface TxGraph {
  chainId: number;
  roots: string[];
  nodes: Map<string, GraphNode>;
  edges: GraphEdge[];
  /** the date window the graph was limited to, in unix seconds */
  window?: { from?: number; to?: number };
  /** depth the expansion was asked for */
  maxDepth: number;
  truncated: Truncation;
  /**
   * A UTXO chain's roots' address clusters (common-input ownership, src/risk/utxo): per root, the other addresses of
   * its cluster that the expansion took as roots too. Their exposure is the root's owner's (scoring/cluster-exposure.ts).
   */
  clusters?: ReadonlyMap<string, RootCluster>;
}

/** A root's address cluster, as the store keeps it (src/clusters): one owner's addresses by common inputs. */
export interface RootCluster {
  id: string;
  /** all its addresses, the root included */
  size: number;
  /** the other addresses of it expanded beside the root (the first ones stored, at most a few) */
  members: string[];
  /** the transactions whose common inputs joined the cluster (the first ones stored) */
  joinedBy: string[];
}

export const NO_TRUNCATION: Truncation = { nodes: false, edges: false, time: false, degree: false };

/** Node types that are services: paths end there instead of expanding through them. */
export const SERVICE_TYPES: ReadonlySet<NodeType> = new Set(["exchange", "mixer", "bridge", "defi"]);

/**
 * Node types that end a path: reached, never expanded (roots excepted). The services, and also `sanctioned` and
 * `illicit`: reaching one is the exposure an analysis looks for; its own other counterparties are not the
 * analysed address's exposure, and such addresses are often hubs (a sanctioned exchange, a hacker's consolidation
 * wallet). The service's expansion and the scenario worlds' graphs both stop here.
 */
export const TERMINAL_TYPES: ReadonlySet<NodeType> = new Set<NodeType>([
  ...SERVICE_TYPES,
  "sanctioned",
  "illicit",
]);
