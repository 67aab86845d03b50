// Writes bridge legs (decoded by src/chains/indexer/bridge-events.ts, from the indexer's logs or an ethereum-etl
// export's logs.csv) to the ledger's bridge_legs table, and
// marks their addresses in address_facts (`bridged`), in the batch's transaction; takes the legs back with a
// reorg's unwound blocks. Idempotent: a leg already there (the
// same chain, transaction and log) is left alone, so replaying a batch changes nothing.
import type { Kysely } from "kysely";
import type { DB } from "../../schema.ts";
import type { BridgeLeg } from "../indexer/bridge-events.ts";

/** Rows per INSERT: 16 columns each, well under PostgreSQL's 65,535 parameters. */
const CHUNK = 1000;

export async function insertBridgeLegs(db: Kysely<DB>, legs: readonly BridgeLeg[]): Promise<void> {
  for (let i = 0; i < legs.length; i += CHUNK) {
    await db
      .insertInto("bridge_legs")
      .values(
        legs.slice(i, i + CHUNK).map((leg) => ({
          chain_id: leg.chainId,
          tx_hash: leg.txHash,
          log_index: leg.logIndex,
          block_number: leg.blockNumber.toString(),
          block_time: leg.blockTime,
          protocol: leg.protocol,
          direction: leg.direction,
          pair_key: leg.pairKey,
          contract: leg.contract,
          sender: leg.sender,
          recipient: leg.recipient,
          token: leg.token,
          amount: leg.amount.toString(),
          other_ref: leg.otherRef,
          other_chain_id: leg.otherChainId,
        })),
      )
      .onConflict((oc) => oc.columns(["chain_id", "tx_hash", "log_index"]).doNothing())
      .execute();
  }
  // The mark the graph expansion reads to know whose crossings to ask for (migrations/0047).
  const marks = new Map<string, { chain_id: number; address: string; bridged: boolean }>();
  for (const leg of legs) {
    const address = leg.direction === "out" ? leg.sender : leg.recipient;
    if (address) marks.set(`${leg.chainId}:${address}`, { chain_id: leg.chainId, address, bridged: true });
  }
  const rows = [...marks.values()].sort(
    (a, b) => a.chain_id - b.chain_id || (a.address < b.address ? -1 : 1),
  );
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto("address_facts")
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc
          .columns(["chain_id", "address"])
          .doUpdateSet({ bridged: true })
          .where("address_facts.bridged", "=", false),
      )
      .execute();
  }
}

/** Deletes the legs of the blocks above `aboveBlock` (a reorg's unwind); returns how many. */
export async function deleteBridgeLegsAbove(
  db: Kysely<DB>,
  chainId: number,
  aboveBlock: bigint,
): Promise<number> {
  const result = await db
    .deleteFrom("bridge_legs")
    .where("chain_id", "=", chainId)
    .where("block_number", ">", aboveBlock.toString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
