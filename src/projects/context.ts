// What the projects room needs from the composition root (service.ts).
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import type { SettingsPart } from "./settings-part.ts";

export interface ProjectsContext {
  db: Kysely<DB>;
  /** the settings other rooms own, shown and changed with the project's (the integrator's) */
  parts: readonly SettingsPart[];
}
