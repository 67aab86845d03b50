// The per-project cap on queued and running analyses of one kind (docs/api.md, "Limits on heavy work"). Checked
// inside the transaction that would add one, under a lock on the project and kind, so concurrent requests cannot
// pass the last free place together, on any process of a fleet.
import type { Kysely } from "kysely";
import { capLock } from "../platform/db/advisory.ts";
import { AppError } from "../platform/errors.ts";
import type { DB } from "../schema.ts";
import type { AnalysisKind } from "./tables.ts";

/** Throws 429 (rate_limited, Retry-After 30) when the project already has `cap` analyses of `kind` unfinished. */
export async function refuseOverCap(
  trx: Kysely<DB>,
  limit: { projectId: number; kind: AnalysisKind; cap: number; what: string },
): Promise<void> {
  const { projectId, kind, cap, what } = limit;
  if ((await lockAndCountActive(trx, projectId, kind)) >= cap)
    throw new AppError(
      "rate_limited",
      `This project already has ${cap} ${what} queued or running; start more when some have finished`,
      { retryAfter: 30 },
    );
}

/**
 * Takes the project's lock on its count of `kind` (until the transaction ends) and counts its analyses of that
 * kind queued or running: what refuseOverCap compares with the cap, and the first scans with their share of it.
 */
export async function lockAndCountActive(
  trx: Kysely<DB>,
  projectId: number,
  kind: AnalysisKind,
): Promise<number> {
  await capLock(`active:${kind}`, projectId).execute(trx);
  const { n } = await trx
    .selectFrom("analyses")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("project_id", "=", projectId)
    .where("kind", "=", kind)
    .where("status", "in", ["queued", "running"])
    .executeTakeFirstOrThrow();
  return Number(n);
}
