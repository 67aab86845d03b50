// Block times for the rows that carry none: token_transfers.csv has only a block number, and a transaction row may
// lack block_timestamp. Times from blocks.csv and from transaction rows are kept in a TEMP table as the files
// are read (blocks first, then transactions, then token transfers, so they are known by the time they are
// needed); blocks already in the store fill the rest. Memory stays flat: the times live in the database.
import type { Conn } from "./connection.ts";

export class BlockTimes {
  constructor(
    readonly table: string,
    private readonly chainId: number,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`bad table name ${table}`);
  }

  /** `dropOnCommit`: the table lives as long as the one transaction of an atomic import. */
  async create(conn: Conn, dropOnCommit: boolean): Promise<void> {
    await conn.query(`DROP TABLE IF EXISTS pg_temp.${this.table}`);
    await conn.query(
      `CREATE TEMP TABLE ${this.table} (number bigint PRIMARY KEY, ts timestamptz NOT NULL)${dropOnCommit ? " ON COMMIT DROP" : ""}`,
    );
  }

  async drop(conn: Conn): Promise<void> {
    await conn.query(`DROP TABLE IF EXISTS pg_temp.${this.table}`);
  }

  /** The first time seen for a block wins. */
  async add(conn: Conn, times: Map<string, string>): Promise<void> {
    if (times.size === 0) return;
    await conn.query(
      `INSERT INTO ${this.table} (number, ts) SELECT * FROM unnest($1::bigint[], $2::timestamptz[])
       ON CONFLICT (number) DO NOTHING`,
      [[...times.keys()], [...times.values()]],
    );
  }

  /** Times (ISO) of the given blocks that are known, from this import or from the store. */
  async resolve(conn: Conn, blocks: string[]): Promise<Map<string, string>> {
    const rows = await conn.query<{ number: string; ts: Date | string }>(
      `SELECT number::text AS number, ts FROM ${this.table} WHERE number = ANY($1::bigint[])
       UNION ALL
       SELECT number::text, timestamp FROM blocks WHERE chain_id = $2 AND number = ANY($1::bigint[])`,
      [blocks, this.chainId],
    );
    const times = new Map<string, string>();
    for (const row of rows) {
      if (!times.has(row.number)) times.set(row.number, new Date(row.ts).toISOString());
    }
    return times;
  }
}
