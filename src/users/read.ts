// Reading the people of a project: what other rooms know of a person (they read people only through these).
import type { Kysely } from "kysely";
import type { Role } from "../platform/http/auth.ts";
import type { DB } from "../schema.ts";

export interface UserSummary {
  id: number;
  email: string;
  displayName: string;
  role: Role;
  disabledAt: string | null;
}

export interface UserRecord extends UserSummary {
  projectId: number;
  lang: "es" | "en";
  timeZone: string;
  totpEnabled: boolean;
  createdAt: string;
}

const SUMMARY = ["id", "email", "display_name", "role", "disabled_at"] as const;

/** Every person of the project, disabled ones included (a history still names them), in the order created. */
export async function listUsers(db: Kysely<DB>, projectId: number): Promise<UserSummary[]> {
  const rows = await db
    .selectFrom("users")
    .select(SUMMARY)
    .where("project_id", "=", projectId)
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    disabledAt: row.disabled_at?.toISOString() ?? null,
  }));
}

/** One person of the project, or undefined when the id is not one of its people. */
export async function findUser(
  db: Kysely<DB>,
  projectId: number,
  userId: number,
): Promise<UserRecord | undefined> {
  const row = await db
    .selectFrom("users")
    .select([...SUMMARY, "project_id", "lang", "time_zone", "totp_secret_enc", "created_at"])
    .where("project_id", "=", projectId)
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    projectId: row.project_id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    disabledAt: row.disabled_at?.toISOString() ?? null,
    lang: row.lang,
    timeZone: row.time_zone,
    totpEnabled: row.totp_secret_enc !== null,
    createdAt: row.created_at.toISOString(),
  };
}
