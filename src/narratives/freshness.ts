// Whether the analysis a wallet report would rest on still speaks for the address: not when the service holds a
// transfer of the address on that chain later than the analysis completed, nor when the analysis read no transfer
// of it and the service holds some (a first scan made when the address was registered, before its transfers were
// indexed, reads "on no list, 0/100": that is no finding). Such an analysis is made again before the report is
// written (facts.ts), and the report names the analysis it used (x-report-analysis-id, x-report-analysis-at).
import type { Kysely } from "kysely";
import type { WalletVerdict } from "../analysis/index.ts";
import { activityOf } from "../ledger/index.ts";
import type { DB } from "../schema.ts";

/** What the service holds of an address on a chain: its last transfer's time and how many transfers. */
export interface Held {
  lastAt: Date;
  transfers: number;
}

export async function heldOn(db: Kysely<DB>, address: string, chainId: number): Promise<Held | undefined> {
  const a = await activityOf(db, chainId, address);
  return a ? { lastAt: a.lastSeen, transfers: a.transfersIn + a.transfersOut } : undefined;
}

/** The stored analysis is older than the address's last transfer, or read none of the transfers held. */
export function outrun(
  verdict: { at: Date; coverage: WalletVerdict["coverage"] },
  held: Held | undefined,
): boolean {
  if (!held || held.transfers === 0) return false;
  if (verdict.at.getTime() < held.lastAt.getTime()) return true;
  return verdict.coverage !== null && verdict.coverage.transfersRead === 0;
}
