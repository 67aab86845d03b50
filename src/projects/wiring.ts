// The projects room in a running service: its context, its routes, and the audit keys every entry is signed with.
// The rooms that own part of a project's settings add it here, and those that know who an actor is add the names.
import type { Base } from "../platform/assembly.ts";
import type { DB } from "../schema.ts";
import { useAuditKeys } from "./audit-head.ts";
import type { ProjectsContext } from "./context.ts";
import { projectJurisdictions } from "./projects.ts";
import { registerProjectRoutes } from "./routes.ts";
import type { SettingsPart } from "./settings-part.ts";

/** Names of the audit log's actors one room knows (`user:3` → a person's name), as [actor, name] pairs. */
export type ActorNamer = (projectId: number) => Promise<Iterable<readonly [string, string]>>;

export interface ProjectsWiring {
  context: ProjectsContext;
  /** Adds a room's part of the settings (before the routes are built). */
  addPart(part: SettingsPart): void;
  /** Adds the names a room knows of the audit log's actors. */
  addActorNames(namer: ActorNamer): void;
  /** The jurisdictions a project enables. */
  jurisdictionsOf(projectId: number): Promise<readonly string[]>;
}

export function wireProjects(base: Base<DB>): ProjectsWiring {
  // Every audit entry this process writes moves its chain's signed head (audit-head.ts).
  useAuditKeys(base.serverKeys);
  const parts: SettingsPart[] = [];
  const namers: ActorNamer[] = [];
  const context: ProjectsContext = {
    db: base.db,
    parts,
    actorNames: async (projectId) => {
      const named = await Promise.all(namers.map((namer) => namer(projectId)));
      return new Map(named.flatMap((pairs) => [...pairs]));
    },
  };
  base.assembly.routes((v1) => registerProjectRoutes(v1, context));
  return {
    context,
    addPart: (part) => parts.push(part),
    addActorNames: (namer) => namers.push(namer),
    jurisdictionsOf: (projectId) => projectJurisdictions(base.db, projectId),
  };
}
