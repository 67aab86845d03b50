// Transaction advisory locks named for what they guard, joined with the schema (advisory locks are database-wide,
// and several schemas, in tests, may share a database). Each is released when its transaction ends.
import { sql } from "kysely";

/**
 * One lock per name and schema. The claim step of workers that share a table's work (the transfer checker, the
 * deliverer) takes one first, so that it sees the leases of the claim before it and per-tenant limits counted on the
 * leases hold across processes (a claim is a few milliseconds; the work runs outside the lock); so does the commit
 * of a month's report files.
 */
export function namedLock(name: string) {
  return sql`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':' || ${name}))`;
}

/**
 * A tenant's count of something capped (its monitored addresses, its open investigations): taken before counting
 * and inserting, so that two requests at once cannot both pass the cap. Also a tenant's chain of anything appended
 * in order (its audit entries), so that two writers at once cannot both link to the same last entry.
 */
export function capLock(name: string, projectId: number) {
  return sql`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':' || ${name}), ${projectId}::integer)`;
}
