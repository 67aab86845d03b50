// SQL on a table only in the room that owns it (docs/decisions/0013-feature-layout.md, and
// docs/decisions/0024-ledger-and-coverage.md for the ledger): the owner of a table is the feature whose tables.ts
// declares it. The ledger's tables are read only by src/ledger/; they are written, in the writers' own
// transactions, by the rooms that bring the data in (the indexer and the explorer cache in chains/, the imports in
// ingest/, the deposit-address inference in attribution/), and by nothing else. The check reads the source: Kysely
// calls naming a table and raw SQL (FROM, JOIN, INTO, UPDATE) written in capitals, as this code base writes it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, sourceFiles } from "./support/imports.ts";

/** Rooms that may write (never read) a ledger table, and why each does. */
const LEDGER_WRITERS: Record<string, string[]> = {
  transfers: ["chains", "ingest"], // the indexer and the explorer cache; the ethereum-etl import
  bridge_legs: ["chains", "ingest"], // the indexer's decoded bridge events; the ethereum-etl import's logs
  address_facts: ["chains", "ingest"],
  tokens: ["chains", "ingest"],
  labels: ["ingest", "chains"], // label imports and the seed; CoinJoin nodes' mixer labels (chains/store)
  prices: ["ingest", "worlds"], // the price import; the generated worlds' own prices
  fx_rates: ["ingest", "worlds"],
  blocks: ["chains", "ingest"],
  indexer_checkpoints: ["chains"], // the indexer's progress
  explorer_fetches: ["chains"], // the explorer cache's record of what it fetched
  deposit_addresses: ["attribution"], // the deposit-address inference's verdicts
  label_changes: ["ingest", "attribution"], // the labels an import or an attribution added or changed
  utxo_clusters: ["clusters"], // the address clusters kept as a UTXO chain's transactions arrive
  utxo_cluster_members: ["clusters"],
};

/**
 * Reads of another room's table that remain, each one statement that joins two rooms' tables for one round trip
 * or an existence check; the list may only shrink (docs/decisions/0024-ledger-and-coverage.md).
 */
const KNOWN_CROSSINGS = new Set([
  // the import's own block times and the stored ones in one statement, on the import's connection
  "src/ingest/etl/block-times.ts: reads blocks (owned by ledger)",
  // retention keeps an analysis an investigation points at (NOT EXISTS in the DELETE)
  "src/analysis/retention.ts: reads investigations (owned by investigations)",
  // an investigation's page joins its analysis
  "src/investigations/store.ts: reads analyses (owned by analysis)",
  // a project's existence before its integration row is made
  "src/integrator/settings.ts: reads projects (owned by projects)",
  // the report schedule walks the projects with their compliance settings
  "src/reports/schedule.ts: reads projects (owned by projects)",
  // the urgent reports pick the monitored transfers that met an urgent rule, by project
  "src/reports/urgent.ts: reads monitored_transfers (owned by monitoring)",
  "src/reports/urgent.ts: reads projects (owned by projects)",
]);

const featureOf = (file: string) => file.split("/")[1] as string;

/** table -> owning feature, from each src/<feature>/tables.ts's `export interface …Tables { name: Row; … }`. */
function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of sourceFiles("src", { withTests: false }).filter(
    (f) => path.basename(f) === "tables.ts",
  )) {
    const text = readFileSync(path.join(REPO, file), "utf8");
    const body = /export interface \w+Tables[^{]*\{([^}]*)\}/.exec(text)?.[1] ?? "";
    for (const m of body.matchAll(/^\s*([a-z_]+):/gm)) owners.set(m[1] as string, featureOf(file));
  }
  return owners;
}

interface Use {
  file: string;
  table: string;
  write: boolean;
}

const KYSELY =
  /\b(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*["'`]([a-z_]+)/g;
const RAW = /\b(FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)\b/g;

/** Every use of a known table in a file's text. */
function tableUses(file: string, text: string, tables: Set<string>): Use[] {
  const uses: Use[] = [];
  for (const m of text.matchAll(KYSELY)) {
    const table = m[2] as string;
    if (tables.has(table))
      uses.push({
        file,
        table,
        write: /^(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/.test(m[1] as string),
      });
  }
  for (const m of text.matchAll(RAW)) {
    const table = m[2] as string;
    if (!tables.has(table)) continue;
    // "DELETE FROM x" is a write; "INSERT INTO x SELECT … FROM y" reads y.
    const before = text.slice(Math.max(0, (m.index ?? 0) - 8), m.index);
    const write = m[1] === "INTO" || m[1] === "UPDATE" || (m[1] === "FROM" && /DELETE\s+$/.test(before));
    uses.push({ file, table, write });
  }
  return uses;
}

function offenders(owners: Map<string, string>, uses: Use[]): string[] {
  return uses
    .filter((u) => {
      const owner = owners.get(u.table) as string;
      const room = featureOf(u.file);
      if (room === owner) return false;
      return !(u.write && owner === "ledger" && LEDGER_WRITERS[u.table]?.includes(room));
    })
    .map((u) => `${u.file}: ${u.write ? "writes" : "reads"} ${u.table} (owned by ${owners.get(u.table)})`)
    .filter((o) => !KNOWN_CROSSINGS.has(o));
}

describe("table owners", () => {
  const owners = tableOwners();
  const files = sourceFiles("src", { withTests: false }).filter((f) => f.split("/").length > 2);
  const uses = files.flatMap((f) =>
    tableUses(f, readFileSync(path.join(REPO, f), "utf8"), new Set(owners.keys())),
  );

  it("knows the tables and finds their uses", () => {
    expect(owners.get("transfers")).toBe("ledger");
    expect(owners.get("analyses")).toBe("analysis");
    expect(owners.size).toBeGreaterThan(25);
    expect(uses.length).toBeGreaterThan(100);
  });

  it("no room reads or writes another room's table (the ledger's writers excepted, for writes)", () => {
    expect(offenders(owners, uses)).toEqual([]);
  });

  it("every known crossing still exists (one that is gone leaves the list)", () => {
    const all = uses.map(
      (u) => `${u.file}: ${u.write ? "writes" : "reads"} ${u.table} (owned by ${owners.get(u.table)})`,
    );
    expect([...KNOWN_CROSSINGS].filter((c) => !all.includes(c))).toEqual([]);
  });

  it("tells a read from a write, and catches a stray read", () => {
    const tables = new Set(["transfers", "analyses"]);
    const uses = tableUses(
      "src/monitoring/x.ts",
      `db.selectFrom("transfers"); INSERT INTO transfers SELECT * FROM analyses; DELETE FROM transfers`,
      tables,
    );
    expect(uses.map((u) => `${u.table}:${u.write}`)).toEqual([
      "transfers:false",
      "transfers:true",
      "analyses:false",
      "transfers:true",
    ]);
    const o = new Map([
      ["transfers", "ledger"],
      ["analyses", "analysis"],
    ]);
    expect(offenders(o, uses)).toEqual([
      "src/monitoring/x.ts: reads transfers (owned by ledger)",
      "src/monitoring/x.ts: writes transfers (owned by ledger)",
      "src/monitoring/x.ts: reads analyses (owned by analysis)",
      "src/monitoring/x.ts: writes transfers (owned by ledger)",
    ]);
    expect(offenders(o, [{ file: "src/ingest/etl/w.ts", table: "transfers", write: true }])).toEqual([]);
  });
});
