// Well-known facts Vigía ships with: the Tornado Cash ETH pools on Ethereum mainnet (public contract addresses,
// from test/fixtures/labels/tornado_cash_contracts.csv), labelled `mixer`. Migration 0004_labels.sql inserts
// exactly these rows on every database; applySeedLabels re-applies them idempotently (e.g. after a manual delete).
import { type Kysely, sql } from "kysely";
import type { DB } from "../../schema.ts";
import type { LabelRow } from "./label-stage.ts";

export const SEED_SOURCE = "vigia-seed";

const pool = (address: string, denomination: string): LabelRow => ({
  address,
  chainId: 1,
  label: `Tornado.Cash: ${denomination} ETH`,
  category: "mixer",
  originalCategory: "mixer_pool",
  source: SEED_SOURCE,
  confidence: 100,
});

export const TORNADO_CASH_ETH_POOLS: readonly LabelRow[] = [
  pool("0x12d66f87a04a9e220743712ce6d9bb1b5616b8fc", "0.1"),
  pool("0x47ce0c6ed5b0ce3d3a51fdb1c52dc66a7c3c2936", "1"),
  pool("0x910cbd523d972eb0a6f4cae4618ad62622b39dbf", "10"),
  pool("0xa160cdab225685da1d56aa342ad8841c3b53f291", "100"),
];

export const SEED_LABELS: readonly LabelRow[] = [...TORNADO_CASH_ETH_POOLS];

/** Inserts the seed labels that are missing; returns how many it inserted. */
export async function applySeedLabels(db: Kysely<DB>): Promise<number> {
  const result = await db
    .insertInto("labels")
    .values(
      SEED_LABELS.map((row) => ({
        address: row.address,
        chain_id: row.chainId,
        label: row.label,
        category: row.category,
        original_category: row.originalCategory,
        source: row.source,
        confidence: row.confidence,
      })),
    )
    .onConflict((oc) => oc.columns(["address", "chain_id", "category", "source"]).doNothing())
    .returning(sql<number>`1`.as("one"))
    .execute();
  return result.length;
}
