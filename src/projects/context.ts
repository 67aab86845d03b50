// What the projects room needs from the composition root (service.ts).
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import type { SettingsPart } from "./settings-part.ts";

export interface ProjectsContext {
  db: Kysely<DB>;
  /** the settings other rooms own, shown and changed with the project's (the integrator's) */
  parts: readonly SettingsPart[];
  /**
   * Who the audit log's actors are, in words (`user:3` → the person's display name, `key:2` → the key's label), from
   * the rooms that know people and keys (the composition root passes it: this room imports neither).
   */
  actorNames?: (projectId: number) => Promise<ReadonlyMap<string, string>>;
}
