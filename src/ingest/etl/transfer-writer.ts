// Writes batches of timed transfers into the store, idempotently, and keeps each address's facts as the shared
// insertTransfers does: address_facts.first_seen_* at its earliest transfer, and its counts of transfers sent and
// received (transfers_out / transfers_in, of the transfers actually written: a re-run adds nothing).
//
// With COPY (an atomic import on PostgreSQL or PGlite in this process), optimistically: each batch is first
// COPYed straight into `transfers` under a savepoint, which is as fast as a bare COPY; if any of its rows is there
// already (a re-run, overlapping exports) the COPY fails on the primary key, the savepoint is rolled back and the
// batch goes the idempotent way instead (COPY into a TEMP table, INSERT ... ON CONFLICT DO NOTHING); the next
// batch tries the fast way again once a batch had no conflict. The earliest block of each address and its counts
// are gathered in memory (at most MAX_ADDRESSES of them, then they are moved into a TEMP table; the idempotent way
// adds the ends of the rows it inserted there directly) and merged into address_facts once, at the end (addresses
// in order, so concurrent imports never deadlock).
// The deposit-address attribution of what the COPY way wrote runs once, in finish, from the ends left in the TEMP
// table (src/attribution, attributeWritten): per batch it cost two lookups of up to 100,000 addresses each, which
// on PGlite ran on the thread that also runs the database.
// Without COPY (through the socket bridge) each batch goes through the shared insertTransfers, and write-batch.ts
// attributes it (attributesEachBatch).
import { attributeWritten } from "../../attribution/index.ts";
import { insertTransfers } from "../../chains/store/index.ts";
import type { Conn } from "./connection.ts";
import type { StagedTransfer } from "./rows.ts";

const TRANSFER_COLUMNS =
  "chain_id, tx_hash, log_index, block_number, block_time, from_address, to_address, token, value";

/**
 * A copy of a string that shares no memory with the one it came from. Fields split from a chunk of the file are
 * V8 "sliced strings" that keep the whole chunk (1 MiB) alive: an address kept for the whole import would keep
 * its chunk, and memory would grow with the file.
 */
const detach = (s: string) => Buffer.from(s, "latin1").toString("latin1");

/** A transfer whose time is known. */
export type TimedTransfer = StagedTransfer & { time: string };

/** Numeric order of two block numbers written as decimal text without leading zeros. */
const earlierBlock = (a: string, b: string) => a.length < b.length || (a.length === b.length && a < b);

/** Addresses whose first sighting is held in memory before it is moved into the TEMP table (about 40 MB). */
const MAX_ADDRESSES = 200_000;

/** What an import has learnt of one address so far: its earliest transfer, and the transfers it sent and received. */
interface Seen {
  block: string;
  time: string;
  sent: number;
  received: number;
}

export class TransferWriter {
  private optimistic = true;
  /** the earliest and latest time of the transfers given to write (ISO strings of one format compare as times) */
  private since: string | undefined;
  private until: string | undefined;
  private readonly earliest = new Map<string, Seen>();
  private readonly stage = "etl_transfers_stage";
  private readonly seen = "etl_first_seen";

  constructor(
    private readonly chainId: number,
    private readonly useCopy: boolean,
  ) {}

  /** Whether the caller attributes each batch (the insertTransfers way) rather than finish (the COPY way). */
  get attributesEachBatch(): boolean {
    return !this.useCopy;
  }

  /** Creates the TEMP tables of the COPY way (dropped at the end of the import's one transaction). */
  async start(conn: Conn): Promise<void> {
    if (!this.useCopy) return;
    await conn.query(`CREATE TEMP TABLE ${this.stage} (LIKE transfers INCLUDING DEFAULTS) ON COMMIT DROP`);
    await conn.query(
      `CREATE TEMP TABLE ${this.seen} (address text NOT NULL, block bigint NOT NULL, ts timestamptz NOT NULL,
         sent bigint NOT NULL, received bigint NOT NULL) ON COMMIT DROP`,
    );
  }

  /** Writes the batch; returns how many transfers were new. */
  async write(conn: Conn, rows: TimedTransfer[]): Promise<number> {
    if (rows.length === 0) return 0;
    const copy = conn.copyText;
    if (!this.useCopy || !copy) {
      return insertTransfers(
        conn.db,
        rows.map((r) => ({
          chainId: this.chainId,
          txHash: r.txHash,
          logIndex: r.logIndex,
          blockNumber: BigInt(r.block),
          blockTime: new Date(r.time),
          from: r.from,
          to: r.to,
          token: r.token,
          value: BigInt(r.value),
        })),
      );
    }
    const chain = this.chainId;
    const lines: string[] = new Array(rows.length);
    let since = this.since ?? (rows[0] as TimedTransfer).time;
    let until = this.until ?? since;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i] as TimedTransfer;
      lines[i] =
        `${chain}\t${r.txHash}\t${r.logIndex}\t${r.block}\t${r.time}\t${r.from}\t${r.to}\t${r.token}\t${r.value}\n`;
      if (r.time < since) since = r.time;
      else if (r.time > until) until = r.time;
    }
    this.since = since;
    this.until = until;
    const text = lines.join("");
    if (this.optimistic && (await this.tryCopy(conn, copy, text))) {
      for (const r of rows) {
        this.see(r.from, r, 1, 0);
        this.see(r.to, r, 0, 1);
      }
      if (this.earliest.size > MAX_ADDRESSES) await this.flushSeen(conn);
      return rows.length;
    }
    // Some rows are there already: only the ends of the rows inserted now are counted (straight into the TEMP
    // table; the rows already there were counted when they were written).
    await conn.query(`TRUNCATE ${this.stage}`);
    await copy(`${this.stage} (${TRANSFER_COLUMNS})`, text);
    const [row] = await conn.query<{ n: string }>(
      `WITH inserted AS (
         INSERT INTO transfers SELECT * FROM ${this.stage} ON CONFLICT DO NOTHING
         RETURNING from_address, to_address, block_number, block_time
       ),
       sides AS (
         INSERT INTO ${this.seen} (address, block, ts, sent, received)
         SELECT from_address, block_number, block_time, 1, 0 FROM inserted
         UNION ALL SELECT to_address, block_number, block_time, 0, 1 FROM inserted
         RETURNING 1
       )
       SELECT count(*) AS n FROM inserted`,
    );
    const written = Number(row?.n ?? 0);
    this.optimistic = written === rows.length;
    return written;
  }

  private see(address: string, r: TimedTransfer, sent: number, received: number): void {
    const seen = this.earliest.get(address);
    if (!seen) {
      this.earliest.set(detach(address), { block: r.block, time: r.time, sent, received });
      return;
    }
    seen.sent += sent;
    seen.received += received;
    if (earlierBlock(r.block, seen.block)) {
      seen.block = r.block;
      seen.time = r.time;
    }
  }

  private async flushSeen(conn: Conn): Promise<void> {
    if (this.earliest.size === 0 || !conn.copyText) return;
    const lines: string[] = [];
    for (const [address, { block, time, sent, received }] of this.earliest) {
      lines.push(`${address}\t${block}\t${time}\t${sent}\t${received}\n`);
    }
    this.earliest.clear();
    await conn.copyText(`${this.seen} (address, block, ts, sent, received)`, lines.join(""));
  }

  private async tryCopy(
    conn: Conn,
    copy: (target: string, text: string) => Promise<void>,
    text: string,
  ): Promise<boolean> {
    await conn.query("SAVEPOINT etl_batch");
    try {
      await copy(`transfers (${TRANSFER_COLUMNS})`, text);
      await conn.query("RELEASE SAVEPOINT etl_batch");
      return true;
    } catch (error) {
      if ((error as { code?: string }).code !== "23505") throw error; // unique_violation: rows already there
      await conn.query("ROLLBACK TO SAVEPOINT etl_batch");
      this.optimistic = false;
      return false;
    }
  }

  /**
   * The COPY way's last step (insertTransfers did both per batch): merges the gathered facts into address_facts,
   * then attributes what was written, from the ends in the TEMP table (every end of every row written).
   */
  async finish(conn: Conn): Promise<void> {
    if (!this.useCopy || !conn.copyText) return;
    await this.flushSeen(conn);
    await conn.query(
      `INSERT INTO address_facts AS f (chain_id, address, first_seen_block, first_seen_at, transfers_out, transfers_in)
       SELECT $1, address, min(block), min(ts), sum(sent), sum(received) FROM ${this.seen}
       GROUP BY address ORDER BY address
       ON CONFLICT (chain_id, address) DO UPDATE SET
         first_seen_block = LEAST(f.first_seen_block, excluded.first_seen_block),
         first_seen_at = LEAST(f.first_seen_at, excluded.first_seen_at),
         transfers_out = f.transfers_out + excluded.transfers_out,
         transfers_in = f.transfers_in + excluded.transfers_in`,
      [this.chainId],
    );
    if (this.since !== undefined && this.until !== undefined) {
      await attributeWritten(conn.db, this.chainId, {
        table: this.seen,
        since: this.since,
        until: this.until,
      });
    }
  }
}
