// The columns the import reads from each kind of ethereum-etl file (README.md, "Commands"),
// and where they are in a given file's header: columns may come in any order and extra ones are ignored.
import { EtlInputError } from "./errors.ts";
import type { EtlKind } from "./files.ts";

export const COLUMNS = {
  blocks: { required: ["number", "hash", "timestamp"], optional: ["parent_hash"] },
  transactions: {
    required: ["hash", "block_number", "from_address", "to_address", "value"],
    // block_timestamp may be absent when blocks.csv gives the times; input is not needed (not read). `status` is
    // tronetl's contract result (SUCCESS, REVERT, ...), read on Tron-kind chains only.
    optional: [
      "block_timestamp",
      "transaction_index",
      "receipt_status",
      "receipt_contract_address",
      "status",
    ],
  },
  token_transfers: {
    required: [
      "token_address",
      "from_address",
      "to_address",
      "value",
      "transaction_hash",
      "log_index",
      "block_number",
    ],
    optional: [],
  },
  // ethereum-etl's logs: `topics` is the log's topics joined by commas.
  logs: {
    required: ["log_index", "transaction_hash", "block_number", "address", "data", "topics"],
    optional: [],
  },
  tokens: { required: ["address"], optional: ["symbol", "name", "decimals"] },
  contracts: { required: ["address"], optional: [] },
} as const satisfies Record<EtlKind, { required: readonly string[]; optional: readonly string[] }>;

type ColumnName<K extends EtlKind> =
  | (typeof COLUMNS)[K]["required"][number]
  | (typeof COLUMNS)[K]["optional"][number];

/** Index of each column in the file's records; -1 for an optional column the file lacks. */
export type ColumnIndex<K extends EtlKind> = Record<ColumnName<K>, number> & { count: number };

export function mapHeader<K extends EtlKind>(kind: K, header: string[], file: string): ColumnIndex<K> {
  const names = header.map((name) => name.trim().toLowerCase());
  const spec = COLUMNS[kind];
  const index: Record<string, number> = { count: header.length };
  const missing: string[] = [];
  for (const column of [...spec.required, ...spec.optional] as string[]) {
    const at = names.indexOf(column);
    if (at < 0 && (spec.required as readonly string[]).includes(column)) missing.push(column);
    index[column] = at;
  }
  if (missing.length > 0) {
    throw new EtlInputError(
      file,
      1,
      `missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (a ${kind} file needs ${spec.required.join(", ")})`,
    );
  }
  return index as ColumnIndex<K>;
}
