// The keys room in a running service: its context, the authenticator every request goes through, its routes, the
// keys' labels for the audit log, and on the embedded database's first start a demo project to try every route.
import type { Base } from "../platform/assembly.ts";
import { hasProjects, type ProjectsWiring } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { keyLabelsById } from "./api-keys.ts";
import { KeyAuthenticator } from "./authenticator.ts";
import type { KeysContext } from "./context.ts";
import { createProject } from "./new-project.ts";
import { registerKeysRoutes } from "./routes.ts";

export interface KeysWiring {
  context: KeysContext;
  authenticator: KeyAuthenticator;
  /** Set when this start created the demo project. */
  demo: { projectId: number; key: string } | undefined;
}

export async function wireKeys(
  base: Base<DB>,
  needs: { projects: ProjectsWiring /** the embedded database, owned by this process */; embedded: boolean },
): Promise<KeysWiring> {
  const context: KeysContext = { db: base.db, serverKeys: base.serverKeys };
  const demo = needs.embedded ? await createDemoProjectOnFirstStart(context) : undefined;
  const authenticator = new KeyAuthenticator(base.db, base.serverKeys);
  base.assembly.onClose(() => authenticator.close().catch(() => {}));
  needs.projects.addActorNames(async (projectId) =>
    [...(await keyLabelsById(base.db, projectId))].map(([id, label]) => [`key:${id}`, label] as const),
  );
  base.assembly.routes((v1) => registerKeysRoutes(v1, context, authenticator));
  return { context, authenticator, demo };
}

/** On the embedded database's first start, a demo project and its admin key let a newcomer try every route. */
async function createDemoProjectOnFirstStart(keys: KeysContext) {
  if (await hasProjects(keys.db)) return undefined;
  const created = await createProject(keys, { name: "Demo project", isDemo: true }, { kind: "system" });
  return { projectId: created.projectId, key: created.key };
}
