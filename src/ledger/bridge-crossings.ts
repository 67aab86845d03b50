// The bridge crossings of some addresses on one chain: each of their bridge legs (the deposits they made, the
// deliveries they received; migrations/0047_bridge_legs.sql) with the other leg of the same crossing when the
// store holds it, on whatever chain. One statement: the legs by the sender and recipient indexes, their partners
// by the pair index, each leg's token metadata and day's price on its own chain (to value it as the layer
// statement values transfers), and whether the service holds the chain the protocol names as the other end (it
// indexes it, or an import gave it blocks or bridge legs; held says nothing of which blocks: a leg beyond the range
// held reads as not found).
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";

/** One leg as read, its token and its day's price on its own chain. */
export interface BridgeLegRead {
  chainId: number;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  /** unix seconds */
  at: number;
  contract: string;
  sender: string;
  recipient: string;
  token: string;
  /** decimal, in the token's smallest unit */
  amount: string;
  symbol: string | null;
  decimals: number | null;
  /** decimal */
  priceUsd: string | null;
}

export interface BridgeCrossingRead {
  protocol: string;
  pairKey: string;
  /** the asked address's leg: `out` when it deposited, `in` when it received */
  direction: "out" | "in";
  leg: BridgeLegRead;
  /** the other leg, when the store holds exactly one (undefined when it holds none, or several: `ambiguous`) */
  other?: BridgeLegRead;
  /** the store holds more than one leg that claims to be the other side: none is taken */
  ambiguous?: true;
  /** the other end as the protocol names it ("chain:1", "cctp:3", "lz:30110") and its chain id when known */
  otherRef: string;
  otherChainId: number | null;
  /** the service holds the other end's chain: it indexes it, or an import gave it blocks or bridge legs */
  otherChainHeld: boolean;
}

interface Row {
  protocol: string;
  pair_key: string;
  direction: "out" | "in";
  other_ref: string;
  other_chain_id: number | null;
  other_held: boolean;
  partners: string;
  [column: string]: unknown;
}

const LEG_COLUMNS = [
  "chain_id",
  "tx_hash",
  "log_index",
  "block_number",
  "at",
  "contract",
  "sender",
  "recipient",
  "token",
  "amount",
  "symbol",
  "decimals",
  "price_usd",
] as const;

function legOf(row: Row, prefix: "l_" | "p_"): BridgeLegRead {
  const v = (column: (typeof LEG_COLUMNS)[number]) => row[`${prefix}${column}`];
  return {
    chainId: Number(v("chain_id")),
    txHash: v("tx_hash") as string,
    logIndex: Number(v("log_index")),
    blockNumber: Number(v("block_number")),
    at: Number(v("at")),
    contract: v("contract") as string,
    sender: v("sender") as string,
    recipient: v("recipient") as string,
    token: v("token") as string,
    amount: v("amount") as string,
    symbol: (v("symbol") as string | null) ?? null,
    decimals: v("decimals") === null ? null : Number(v("decimals")),
    priceUsd: (v("price_usd") as string | null) ?? null,
  };
}

export interface CrossingsRead {
  /** the addresses' crossings, newest first per address */
  crossings: BridgeCrossingRead[];
  /** addresses with more legs in the window than were read (the newest `perAddress` were) */
  capped: string[];
}

/**
 * The crossings of `addresses` on `chainId` within the window (unix seconds, inclusive): per address and direction
 * its newest `perAddress` legs. A partner must sit on the chain its leg names as the other end (when the leg names
 * one the service knows), name the same depositor (the other leg's, when both name one), and for CCTP carry the
 * same amount; of a CCTP burn replaced with the same nonce, the latest counts once (REPLAY).
 */
export async function readBridgeCrossings(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
  perAddress: number,
  window: { from?: number | undefined; to?: number | undefined } = {},
): Promise<CrossingsRead> {
  if (addresses.length === 0) return { crossings: [], capped: [] };
  const list = [...new Set(addresses)].sort();
  // One more than asked, to tell an address that has more.
  const max = sql.lit(Math.max(1, Math.floor(perAddress)) + 1);
  const from =
    window.from === undefined
      ? sql``
      : sql`AND b.block_time >= ${new Date(window.from * 1000).toISOString()}::timestamptz`;
  const to =
    window.to === undefined
      ? sql``
      : sql`AND b.block_time <= ${new Date(window.to * 1000).toISOString()}::timestamptz`;
  const { rows } = await sql<Row & { address: string; rn: string }>`
    WITH a(address) AS (SELECT unnest(${list}::text[])),
    l AS MATERIALIZED (
      SELECT a.address, y.*, row_number() OVER (PARTITION BY a.address, y.direction
        ORDER BY y.block_number DESC, y.log_index DESC) AS rn
      FROM a CROSS JOIN LATERAL (
        (SELECT * FROM bridge_legs b WHERE b.chain_id = ${chainId} AND b.direction = 'out' AND b.sender = a.address
          ${from} ${to} ORDER BY b.block_number DESC, b.log_index DESC LIMIT ${max})
        UNION ALL
        (SELECT * FROM bridge_legs b WHERE b.chain_id = ${chainId} AND b.direction = 'in' AND b.recipient = a.address
          ${from} ${to} ORDER BY b.block_number DESC, b.log_index DESC LIMIT ${max})
      ) y
    ),
    candidates AS (
      SELECT DISTINCT ON (l.chain_id, l.tx_hash, l.log_index, p.chain_id, ${REPLAY})
        l.chain_id AS lc, l.tx_hash AS lt, l.log_index AS li, p.*
      FROM l JOIN bridge_legs p ON p.protocol = l.protocol AND p.pair_key = l.pair_key
        AND p.direction <> l.direction
        AND (l.other_chain_id IS NULL OR p.chain_id = l.other_chain_id)
        AND (p.other_chain_id IS NULL OR l.chain_id = p.other_chain_id)
        AND (l.sender = '' OR p.sender = '' OR l.sender = p.sender)
        AND (l.protocol <> 'cctp' OR l.amount = p.amount)
      WHERE l.rn <= ${sql.lit(Math.max(1, Math.floor(perAddress)))}
      ORDER BY l.chain_id, l.tx_hash, l.log_index, p.chain_id, ${REPLAY}, p.block_number DESC, p.log_index DESC
    ),
    pairs AS (
      SELECT c.*, count(*) OVER (PARTITION BY c.lc, c.lt, c.li) AS partners FROM candidates c
    )
    SELECT l.address, l.rn::text AS rn, l.protocol, l.pair_key, l.direction, l.other_ref, l.other_chain_id,
      (EXISTS (SELECT 1 FROM indexer_checkpoints c WHERE c.chain_id = l.other_chain_id)
        OR EXISTS (SELECT 1 FROM blocks k WHERE k.chain_id = l.other_chain_id)
        OR EXISTS (SELECT 1 FROM bridge_legs o WHERE o.chain_id = l.other_chain_id)) AS other_held,
      COALESCE(p.partners, 0)::text AS partners,
      ${legColumns("l", "ltk", "lpr")},
      ${legColumns("p", "ptk", "ppr")}
    FROM l
    LEFT JOIN pairs p ON p.lc = l.chain_id AND p.lt = l.tx_hash AND p.li = l.log_index
    LEFT JOIN tokens ltk ON ltk.chain_id = l.chain_id AND ltk.address = l.token
    LEFT JOIN prices lpr ON lpr.chain_id = l.chain_id AND lpr.token = l.token
      AND lpr.day = (l.block_time AT TIME ZONE 'UTC')::date
    LEFT JOIN tokens ptk ON ptk.chain_id = p.chain_id AND ptk.address = p.token
    LEFT JOIN prices ppr ON ppr.chain_id = p.chain_id AND ppr.token = p.token
      AND ppr.day = (p.block_time AT TIME ZONE 'UTC')::date
    ORDER BY l.address, l.block_number DESC, l.log_index DESC, l.tx_hash, p.chain_id, p.tx_hash, p.log_index`.execute(
    db,
  );
  const crossings = new Map<string, BridgeCrossingRead>();
  const capped = new Set<string>();
  for (const row of rows) {
    if (Number(row.rn) > perAddress) {
      capped.add(row.address);
      continue;
    }
    const leg = legOf(row, "l_");
    const id = `${leg.txHash}:${leg.logIndex}`;
    if (crossings.has(id)) continue;
    const partners = Number(row.partners);
    crossings.set(id, {
      protocol: row.protocol,
      pairKey: row.pair_key,
      direction: row.direction,
      leg,
      ...(partners === 1 ? { other: legOf(row, "p_") } : {}),
      ...(partners > 1 ? { ambiguous: true as const } : {}),
      otherRef: row.other_ref,
      otherChainId: row.other_chain_id,
      otherChainHeld: row.other_held,
    });
  }
  return { crossings: [...crossings.values()], capped: [...capped].sort() };
}

/**
 * What makes two candidate partners one: a CCTP burn replaced by its depositor (replaceDepositForBurn emits a second
 * DepositForBurn with the same nonce) is the same crossing; any other two legs are two claimants.
 */
const REPLAY = sql.raw(
  `CASE WHEN p.protocol = 'cctp' THEN p.sender ELSE p.tx_hash || ':' || p.log_index END`,
);

/** One leg's columns, prefixed (l_…, p_…), with its token's metadata and day's price. */
function legColumns(leg: "l" | "p", token: string, price: string) {
  const at = `floor(date_part('epoch', ${leg}.block_time))::bigint`;
  return sql.raw(
    [
      `${leg}.chain_id AS ${leg}_chain_id`,
      `${leg}.tx_hash AS ${leg}_tx_hash`,
      `${leg}.log_index AS ${leg}_log_index`,
      `${leg}.block_number::text AS ${leg}_block_number`,
      `${at}::text AS ${leg}_at`,
      `${leg}.contract AS ${leg}_contract`,
      `${leg}.sender AS ${leg}_sender`,
      `${leg}.recipient AS ${leg}_recipient`,
      `${leg}.token AS ${leg}_token`,
      `${leg}.amount::text AS ${leg}_amount`,
      `${token}.symbol AS ${leg}_symbol`,
      `${token}.decimals AS ${leg}_decimals`,
      `COALESCE(${price}.price_usd, ${token}.pegged_usd)::text AS ${leg}_price_usd`,
    ].join(", "),
  );
}
