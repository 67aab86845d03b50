// Which tables make up a Vigía store, and how to copy them: the tables its migrations create (pg-boss's own tables,
// which may share the schema, and the per-minute rate-limit counts are left out; report files are copied through
// the file store), parents before the tables whose foreign keys point at them, each with its columns, its primary
// key (the order rows are read in, a page at a time) and its serial columns (whose sequences an import moves past
// the copied ids).
import { CompiledQuery, type Kysely } from "kysely";
import { readMigrations } from "../../platform/db/migrate.ts";

/** Not copied as tables: counts worth nothing elsewhere, and files (copied through the file store). */
const NOT_COPIED = new Set(["schema_migrations", "rate_limit_hits", "stored_files"]);

export interface Column {
  name: string;
  /** as format_type writes it: `bigint`, `numeric(78,0)`, `text[]` */
  type: string;
}

export interface StoreTable {
  name: string;
  columns: Column[];
  key: Column[];
  /** columns whose default draws from a sequence */
  serial: string[];
}

/**
 * The tables some migration writes rows into (a built-in seed, such as the well-known labels): a new store holds
 * them already, and an import replaces them with the exported store's.
 */
export function seededTables(): Set<string> {
  const names = new Set<string>();
  for (const m of readMigrations())
    for (const match of m.sql.matchAll(/INSERT\s+INTO\s+([a-z_][a-z0-9_]*)/gi))
      names.add((match[1] as string).toLowerCase());
  return names;
}

/** The tables the migrations create, by name. */
export function migrationTables(): string[] {
  const names = new Set<string>();
  for (const m of readMigrations())
    for (const match of m.sql.matchAll(
      /CREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/gi,
    ))
      names.add((match[1] as string).toLowerCase());
  return [...names].filter((name) => !NOT_COPIED.has(name)).sort();
}

async function rows<R>(db: Kysely<unknown>, text: string, params: unknown[] = []): Promise<R[]> {
  return (await db.executeQuery<R>(CompiledQuery.raw(text, params))).rows;
}

/** The store's tables in the current schema, parents first. */
export async function storeTables(db: Kysely<unknown>): Promise<StoreTable[]> {
  const wanted = migrationTables();
  const columns = await rows<{
    table: string;
    column: string;
    type: string;
    key_pos: number | null;
    seq: string | null;
  }>(
    db,
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
       array_position(i.indkey::int2[], a.attnum) AS key_pos,
       pg_get_serial_sequence(quote_ident(c.relname), a.attname) AS seq
     FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
     WHERE c.relkind = 'r' AND c.relname = ANY($1::text[])
     ORDER BY c.relname, a.attnum`,
    [wanted],
  );
  const tables = new Map<string, StoreTable & { keyAt: Map<number, Column> }>();
  for (const c of columns) {
    let table = tables.get(c.table);
    if (!table) {
      table = { name: c.table, columns: [], key: [], serial: [], keyAt: new Map() };
      tables.set(c.table, table);
    }
    const column = { name: c.column, type: c.type };
    table.columns.push(column);
    if (c.key_pos !== null) table.keyAt.set(Number(c.key_pos), column);
    if (c.seq) table.serial.push(c.column);
  }
  const missing = wanted.filter((name) => !tables.has(name));
  if (missing.length > 0)
    throw new Error(`the store lacks tables ${missing.join(", ")}: run \`vigia migrate\``);
  for (const table of tables.values()) {
    table.key = [...table.keyAt.entries()].sort((a, b) => a[0] - b[0]).map(([, column]) => column);
    if (table.key.length === 0) throw new Error(`table ${table.name} has no primary key`);
  }

  const links = await rows<{ child: string; parent: string }>(
    db,
    `SELECT cc.relname AS child, pc.relname AS parent FROM pg_constraint k
     JOIN pg_class cc ON cc.oid = k.conrelid
     JOIN pg_class pc ON pc.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = k.connamespace AND n.nspname = current_schema()
     WHERE k.contype = 'f'`,
  );
  // Parents first (Kahn's order; names break ties, so every export lists tables alike).
  const parents = new Map<string, Set<string>>([...tables.keys()].map((name) => [name, new Set()]));
  for (const { child, parent } of links)
    if (child !== parent && tables.has(child) && tables.has(parent)) parents.get(child)?.add(parent);
  const ordered: StoreTable[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.size) {
    const ready = [...tables.keys()]
      .filter((name) => !placed.has(name) && [...(parents.get(name) ?? [])].every((p) => placed.has(p)))
      .sort();
    if (ready.length === 0) throw new Error("the store's foreign keys form a cycle");
    for (const name of ready) {
      const { keyAt: _, ...table } = tables.get(name) as StoreTable & { keyAt: unknown };
      ordered.push(table);
      placed.add(name);
    }
  }
  return ordered;
}

export const quoted = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected name ${name}`);
  return `"${name}"`;
};

export { rows as queryRows };
