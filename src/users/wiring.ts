// The users room in a running service: people, their sessions and sign-in, their routes, and their names for the
// audit log.
import type { Base } from "../platform/assembly.ts";
import type { ProjectsWiring } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { type UsersContext, usersContextOf } from "./context.ts";
import { listUsers } from "./read.ts";
import { registerSessionRoutes, registerUserRoutes } from "./routes.ts";

export function wireUsers(base: Base<DB>, needs: { projects: ProjectsWiring }): UsersContext {
  const context = usersContextOf(base.config, base.db, base.serverKeys, base.now);
  needs.projects.addActorNames(async (projectId) =>
    (await listUsers(base.db, projectId)).map((p) => [`user:${p.id}`, p.displayName] as const),
  );
  base.assembly.routes((v1) => registerUserRoutes(v1, context));
  base.assembly.session((root) => registerSessionRoutes(root, context));
  return context;
}
