// The labels an alert rests on, as they stand when it is raised or extended: those of the counterparties of its
// transfers and of its verdicts' exposure, each with its source, so that the evidence pack shows what the service
// knew then even after a label is withdrawn.
import type { Kysely } from "kysely";
import { labelRowsOf } from "../ledger/index.ts";
import type { DB } from "../schema.ts";
import type { LabelUsed } from "./schemas.ts";

/** Counterparties whose labels an alert keeps at most (the exposure of a hub may name hundreds). */
const MAX_LABELLED = 50;

export async function labelsUsed(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
): Promise<LabelUsed[]> {
  const unique = [...new Set(addresses)].sort().slice(0, MAX_LABELLED);
  const found: LabelUsed[] = [];
  for (const address of unique) {
    for (const row of await labelRowsOf(db, address, [0, chainId]))
      found.push({ address, label: row.label, category: row.category, source: row.source ?? null });
  }
  return found;
}

/** `known` with the labels of `more` it lacks, in a stable order. */
export function mergeLabels(known: readonly LabelUsed[] = [], more: readonly LabelUsed[]): LabelUsed[] {
  const key = (l: LabelUsed) => `${l.address}\u0000${l.label}\u0000${l.source ?? ""}`;
  const seen = new Set(known.map(key));
  return [...known, ...more.filter((l) => !seen.has(key(l)))];
}
