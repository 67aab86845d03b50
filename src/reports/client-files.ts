// A client's report files (the case per client, src/cases): the monthly files and 24-hour avisos written for it,
// each with its status and, once filed, when and under which folio; newest period first, at most `limit`.
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

export interface ClientFile {
  path: string;
  name: string;
  countryCode: string;
  period: string;
  kind: string;
  version: number;
  status: "draft" | "filed";
  createdAt: Date;
  filedAt: Date | null;
  folio: string | null;
}

export async function filesOfClient(
  db: Kysely<DB>,
  projectId: number,
  userId: string,
  limit: number,
): Promise<ClientFile[]> {
  const rows = await db
    .selectFrom("reports")
    .select([
      "path",
      "name",
      "country_code",
      "period",
      "kind",
      "version",
      "status",
      "created_at",
      "filed_at",
      "folio",
    ])
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .orderBy("period", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    path: r.path,
    name: r.name,
    countryCode: r.country_code,
    period: r.period,
    kind: r.kind,
    version: r.version,
    status: r.status as "draft" | "filed",
    createdAt: new Date(r.created_at),
    filedAt: r.filed_at ? new Date(r.filed_at) : null,
    folio: r.folio,
  }));
}
