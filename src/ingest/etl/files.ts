// Finds the ethereum-etl files of an export directory and what each one holds.
//
// A file belongs to a kind when its name is `<kind>.csv`, or when the kind's name appears in it as a word of its
// own (between the start, the end, or any character that is not a letter): `ethereum_etl_transactions_block17173049.csv`
// is transactions, `ethereum_etl_token_transfers_block483920.csv` token_transfers. When several kinds appear, the
// first one in the name wins (`transactions_blocks47218-47219.csv` is transactions). Several files of one kind
// are all read, in name order. Other files (receipts.csv, ...) are listed as ignored, and so are logs files on a
// Tron-kind chain (its transfers come from the other files; its bridges are not read from an export).
import fs from "node:fs";
import path from "node:path";

export const ETL_KINDS = [
  "blocks",
  "transactions",
  "token_transfers",
  "logs",
  "tokens",
  "contracts",
] as const;
export type EtlKind = (typeof ETL_KINDS)[number];

export interface EtlFile {
  kind: EtlKind;
  path: string;
}

export interface EtlFiles {
  /** in import order: blocks, transactions, token_transfers, logs, tokens, contracts; by name within a kind */
  files: EtlFile[];
  ignored: string[];
}

/** The kind a file name stands for, or undefined. */
export function kindOfFileName(name: string): EtlKind | undefined {
  const lower = name.toLowerCase();
  if (!lower.endsWith(".csv")) return undefined;
  const stem = lower.slice(0, -".csv".length);
  let best: { kind: EtlKind; at: number } | undefined;
  for (const kind of ETL_KINDS) {
    const match = new RegExp(`(^|[^a-z])${kind}($|[^a-z])`).exec(stem);
    if (!match) continue;
    const at = match.index + (match[1] ?? "").length;
    // The earliest wins; at the same place the longer name (token_transfers before tokens, which can't match there).
    if (!best || at < best.at || (at === best.at && kind.length > best.kind.length)) best = { kind, at };
  }
  return best?.kind;
}

/** `without`: kinds read as ignored files (a Tron-kind chain's logs). */
export function findEtlFiles(dir: string, without: readonly EtlKind[] = []): EtlFiles {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === "ENOENT"
        ? `${dir}: no such directory`
        : code === "ENOTDIR"
          ? `${dir}: not a directory (give the export's directory)`
          : `${dir}: ${(error as Error).message}`,
    );
  }
  const files: EtlFile[] = [];
  const ignored: string[] = [];
  for (const entry of entries.filter((e) => e.isFile()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const kind = kindOfFileName(entry.name);
    if (kind && !without.includes(kind)) files.push({ kind, path: path.join(dir, entry.name) });
    else ignored.push(entry.name);
  }
  files.sort((a, b) => ETL_KINDS.indexOf(a.kind) - ETL_KINDS.indexOf(b.kind));
  if (!files.some((f) => f.kind === "transactions")) {
    throw new Error(
      `${dir}: no transactions file (transactions.csv, or a .csv file with "transactions" in its name)`,
    );
  }
  return { files, ignored };
}
