// Puts facts in the ledger as the imports would: a transfer (the chain then holds data, coverage `import`, so a
// verdict on it is given as of that data's end, src/ledger/coverage.ts, instead of withheld for want of any data),
// and an address on a sanctions list (a label of every chain, as the OFAC import writes it).
import type { Kysely } from "kysely";
import { insertTransfers } from "../../src/chains/store/transfers.ts";
import type { DB } from "../../src/schema.ts";

export async function holdTransfer(
  db: Kysely<DB>,
  t: { chainId: number; from: string; to: string; at?: Date; block?: bigint; hash?: string },
): Promise<void> {
  await insertTransfers(db, [
    {
      chainId: t.chainId,
      txHash: t.hash ?? `0x${"0e".repeat(32)}`,
      logIndex: -1,
      blockNumber: t.block ?? 1n,
      blockTime: t.at ?? new Date("2024-01-02T00:00:00Z"),
      from: t.from,
      to: t.to,
      token: "native",
      value: 10n ** 18n,
    },
  ]);
}

/** Labels `address` as on OFAC's SDN list, on every chain. */
export async function labelSanctioned(db: Kysely<DB>, address: string): Promise<void> {
  await db
    .insertInto("labels")
    .values({ address, chain_id: 0, label: "OFAC SDN test", category: "sanctioned", source: "test" })
    .execute();
}
