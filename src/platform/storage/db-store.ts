// The database file store, for fleets on PostgreSQL: files are rows of `stored_files` (path, bytes), so any API
// process serves a file that any worker wrote, and a write commits whole or not at all. It also works on the
// embedded database (an in-memory one has no folder to write to).
import { type QueryExecutorProvider, sql } from "kysely";
import { checkStoragePath, type FileStore } from "./file-store.ts";

export class DatabaseStore implements FileStore {
  constructor(private readonly db: QueryExecutorProvider) {}

  async put(path: string, content: Buffer): Promise<void> {
    await sql`
      INSERT INTO stored_files (path, content, size) VALUES (${checkStoragePath(path)}, ${content}, ${content.length})
      ON CONFLICT (path) DO UPDATE SET content = EXCLUDED.content, size = EXCLUDED.size, created_at = now()`.execute(
      this.db,
    );
  }

  async get(path: string): Promise<Buffer | undefined> {
    const { rows } = await sql<{ content: Uint8Array }>`
      SELECT content FROM stored_files WHERE path = ${checkStoragePath(path)}`.execute(this.db);
    const row = rows[0];
    return row ? Buffer.from(row.content) : undefined;
  }

  async *list(): AsyncIterable<string> {
    for (let after = ""; ; ) {
      const { rows } = await sql<{ path: string }>`
        SELECT path FROM stored_files WHERE path > ${after} ORDER BY path LIMIT 1000`.execute(this.db);
      if (rows.length === 0) return;
      for (const row of rows) yield row.path;
      after = rows[rows.length - 1]?.path as string;
    }
  }

  async delete(path: string): Promise<void> {
    await sql`DELETE FROM stored_files WHERE path = ${checkStoragePath(path)}`.execute(this.db);
  }
}
