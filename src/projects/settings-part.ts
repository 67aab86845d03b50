// A part of a project's settings that another room owns (the integrator's URL, scheme and secret): it shows in
// GET /projects/{id} and changes through PATCH /projects/{id} like the rest, in the same transaction and audit row,
// without the projects room knowing the room it belongs to. The composition root (service.ts) hands the parts in.
import type { TProperties } from "@sinclair/typebox";
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

export interface SettingsPart {
  /** the part's fields in the project's view */
  view: TProperties;
  /** the part's fields a PATCH may carry (each optional) */
  patch: TProperties;
  /** the part's fields of a project */
  read(db: Kysely<DB>, projectId: number): Promise<Record<string, unknown>>;
  /** applies the part's fields of a patch in the caller's transaction; what changed, for the audit row */
  apply(trx: Kysely<DB>, projectId: number, patch: Record<string, unknown>): Promise<Record<string, unknown>>;
}
