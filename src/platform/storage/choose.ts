// Which file store a process uses (VIGIA_FILE_STORE): the data dir's `files` folder on the embedded database, a
// table on PostgreSQL (any API process of a fleet serves any file a worker wrote) and on an in-memory database.
import path from "node:path";
import type { QueryExecutorProvider } from "kysely";
import { DatabaseStore } from "./db-store.ts";
import type { FileStore } from "./file-store.ts";
import { FilesystemStore } from "./fs-store.ts";

export function chooseFileStore(
  config: { fileStore: "filesystem" | "database" | undefined; dataDir: string },
  database: { kind: string; db: QueryExecutorProvider },
): FileStore {
  const kind =
    config.fileStore ??
    (database.kind === "postgres" || config.dataDir === "memory://" ? "database" : "filesystem");
  return kind === "database"
    ? new DatabaseStore(database.db)
    : new FilesystemStore(path.join(config.dataDir, "files"));
}
