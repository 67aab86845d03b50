// Re-seals stored values with the current secret after a rotation (`vigia secret reseal`, docs/operations.md,
// "Rotating the secret"): every value of the given columns that another secret sealed is opened with it and sealed
// again with the current one, and a lookup column beside it (an API key's HMAC) is recomputed. Once nothing is
// left sealed by a previous secret, that secret is only needed for the signed URLs it made (30 days).
//
// Which columns hold sealed values is the features' knowledge; callers pass them. Rows are read by id, a page at
// a time, and each is written only if it still holds the value read (a concurrent change wins), so the command
// can run beside a serving fleet and be run again after a crash.
import { type Kysely, sql } from "kysely";
import { hmacHex, type ServerKeys, seal, sealedByCurrent, unseal } from "./secrets.ts";

export interface SealedColumn {
  table: string;
  /** a unique, ordered key of the table */
  id: string;
  column: string;
  /** a column holding the HMAC lookup of the value (recomputed with the current secret) */
  lookup?: string;
}

export interface ResealReport {
  /** values re-sealed with the current secret, by `table.column` */
  resealed: Record<string, number>;
  /** values no secret of this process opens, by `table.column` (never changed) */
  unreadable: Record<string, number>;
}

const PAGE = 500;
const NAME = /^[a-z_][a-z0-9_]*$/;

export async function resealAll(
  db: Kysely<unknown>,
  keys: ServerKeys,
  columns: readonly SealedColumn[],
  onProgress?: (done: string, report: ResealReport) => void,
): Promise<ResealReport> {
  const report: ResealReport = { resealed: {}, unreadable: {} };
  // A page per transaction; inside a caller's transaction (an import), in that one.
  const inTransaction = <T>(fn: (trx: Kysely<unknown>) => Promise<T>) =>
    db.isTransaction ? fn(db) : db.transaction().execute(fn);
  for (const c of columns) {
    for (const name of [c.table, c.id, c.column, c.lookup ?? "x"])
      if (!NAME.test(name)) throw new Error(`bad name ${name}`);
    const label = `${c.table}.${c.column}`;
    report.resealed[label] = 0;
    report.unreadable[label] = 0;
    let after: unknown;
    for (;;) {
      const { rows } = await sql<{ id: unknown; value: string }>`
        SELECT ${sql.ref(c.id)} AS id, ${sql.ref(c.column)} AS value FROM ${sql.table(c.table)}
        WHERE ${sql.ref(c.column)} IS NOT NULL
          ${after === undefined ? sql`` : sql`AND ${sql.ref(c.id)} > ${after}`}
        ORDER BY ${sql.ref(c.id)} LIMIT ${PAGE}`.execute(db);
      if (rows.length === 0) break;
      after = rows[rows.length - 1]?.id;
      await inTransaction(async (trx) => {
        for (const row of rows) {
          if (sealedByCurrent(keys, row.value)) continue;
          let plain: string;
          try {
            plain = unseal(keys, row.value);
          } catch {
            report.unreadable[label] = (report.unreadable[label] ?? 0) + 1;
            continue;
          }
          const lookup = c.lookup ? sql`, ${sql.ref(c.lookup)} = ${hmacHex(keys.lookup, plain)}` : sql``;
          const { numAffectedRows } = await sql`
            UPDATE ${sql.table(c.table)} SET ${sql.ref(c.column)} = ${seal(keys, plain)} ${lookup}
            WHERE ${sql.ref(c.id)} = ${row.id} AND ${sql.ref(c.column)} = ${row.value}`.execute(trx);
          if (Number(numAffectedRows ?? 0) > 0) report.resealed[label] = (report.resealed[label] ?? 0) + 1;
        }
      });
    }
    onProgress?.(label, report);
  }
  return report;
}
