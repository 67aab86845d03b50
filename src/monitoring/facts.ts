// What checking a recorded transfer starts from: the transfers waiting to be checked, with the monitored address,
// its user and the counterparty's riskiest label; and whether the counterparty is a virtual-asset service provider
// (a labelled exchange, or an address src/attribution inferred to be an exchange's deposit address).
import { type Kysely, sql } from "kysely";
import {
  attributedDepositAddresses,
  hasExchangeLabel,
  joinTransferOf,
  strongestCategoryOf,
} from "../ledger/index.ts";
import type { DB } from "../schema.ts";

export interface PendingTransfer {
  addressId: number;
  projectId: number;
  chainId: number;
  txHash: string;
  logIndex: number;
  blockTime: Date;
  address: string;
  foreignUserId: string;
  description: string | null;
  counterparty: string;
  counterpartyCategory: string | undefined;
}

interface Row {
  address_id: string;
  project_id: number;
  chain_id: number;
  tx_hash: string;
  log_index: number;
  block_time: Date | string;
  address: string;
  foreign_user_id: string;
  description: string | null;
  from_address: string;
  to_address: string;
  category: string | null;
}

/** The key of a monitored transfer: its address and the transfer. */
export interface TransferKey {
  addressId: number;
  chainId: number;
  txHash: string;
  logIndex: number;
}

/** The keys as a list of row values for `(address_id, chain_id, tx_hash, log_index) IN (...)`. */
export function keyList(keys: readonly TransferKey[]) {
  return sql.join(
    keys.map(
      (k) =>
        sql`(${String(k.addressId)}::bigint, ${k.chainId}::integer, ${k.txHash}::text, ${k.logIndex}::integer)`,
    ),
  );
}

/** The given transfers still waiting to be checked, oldest first. */
export async function readPending(db: Kysely<DB>, keys: readonly TransferKey[]): Promise<PendingTransfer[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<Row>`
    SELECT mt.address_id, mt.project_id, mt.chain_id, mt.tx_hash, mt.log_index, t.block_time,
      ma.address, ma.foreign_user_id, ma.description, t.from_address, t.to_address,
      ${strongestCategoryOf(
        sql`CASE WHEN t.from_address = ma.address THEN t.to_address ELSE t.from_address END`,
        sql`mt.chain_id`,
      )} AS category
    FROM monitored_transfers mt
    ${joinTransferOf("mt")}
    JOIN monitored_addresses ma ON ma.id = mt.address_id
    WHERE mt.status = 'pending'
      AND (mt.address_id, mt.chain_id, mt.tx_hash, mt.log_index) IN (${keyList(keys)})
    ORDER BY mt.created_at, mt.block_number, mt.log_index`.execute(db);
  return rows.map((r) => ({
    addressId: Number(r.address_id),
    projectId: r.project_id,
    chainId: r.chain_id,
    txHash: r.tx_hash,
    logIndex: r.log_index,
    blockTime: new Date(r.block_time),
    address: r.address,
    foreignUserId: r.foreign_user_id,
    description: r.description,
    counterparty: r.from_address === r.address ? r.to_address : r.from_address,
    counterpartyCategory: r.category ?? undefined,
  }));
}

/**
 * Whether the counterparty is a virtual-asset service provider: an address with an exchange label (whatever riskier
 * label it also carries: a sanctioned exchange is still an exchange), or an inferred deposit address.
 */
export async function isVasp(db: Kysely<DB>, t: PendingTransfer): Promise<boolean> {
  if (t.counterpartyCategory === "exchange") return true;
  if (await hasExchangeLabel(db, t.chainId, t.counterparty)) return true;
  return (await attributedDepositAddresses(db, t.chainId, [t.counterparty])).has(t.counterparty);
}
