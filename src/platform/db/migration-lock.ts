// The lock that keeps two processes from migrating one schema at once, and the Kysely dialect pieces that make
// Kysely's own `Migrator` take it. Advisory locks are database-wide; this one is keyed by the schema too, so the
// migrations of one schema wait for each other and never for another schema's (tests migrate a fresh schema per
// file on one database, where a lock shared by all schemas made migrations wait across files and could deadlock
// with a CREATE INDEX CONCURRENTLY, which waits for every older transaction of the database). Kysely's
// PostgresAdapter takes one fixed, database-wide key instead, hence the adapter below.
//
// The key is the one the previous migration runner took (as a transaction lock), so that during a rolling upgrade a
// process of the old release and one of the new never migrate one schema together.
import { type Kysely, type MigrationLockOptions, PostgresAdapter, PostgresDialect, sql } from "kysely";

const LOCK_ID = 0x5649_4741; // "VIGA"

/**
 * Takes the migration lock of the current schema for this session, waiting for whoever holds it. Re-entrant within
 * one session (each take needs its release), as every advisory lock.
 */
export async function takeMigrationLock(db: Kysely<unknown>): Promise<void> {
  await sql`SELECT pg_advisory_lock(${sql.lit(LOCK_ID)}, hashtext(current_schema()))`.execute(db);
}

export async function releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
  await sql`SELECT pg_advisory_unlock(${sql.lit(LOCK_ID)}, hashtext(current_schema()))`.execute(db);
}

/** PostgreSQL's adapter, with the migration lock keyed by schema (for PGlite and PostgreSQL alike). */
export class SchemaMigrationLockAdapter extends PostgresAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>, _options: MigrationLockOptions): Promise<void> {
    await takeMigrationLock(db);
  }

  override async releaseMigrationLock(db: Kysely<unknown>, _options: MigrationLockOptions): Promise<void> {
    await releaseMigrationLock(db);
  }
}

/** Kysely's PostgreSQL dialect with that adapter: the one the service opens PostgreSQL with. */
export class SchemaLockingPostgresDialect extends PostgresDialect {
  override createAdapter(): SchemaMigrationLockAdapter {
    return new SchemaMigrationLockAdapter();
  }
}
