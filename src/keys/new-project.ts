// A new project comes with its first admin key, in one transaction: nobody could reach a project without one
// (`vigia projects create`, the demo project of a first start, the tests and benchmarks).
import { type Actor, insertProject } from "../projects/index.ts";
import { insertKey } from "./api-keys.ts";
import type { KeysContext } from "./context.ts";

export function createProject(
  ctx: KeysContext,
  input: { name: string; isDemo?: boolean },
  actor: Actor,
): Promise<{ projectId: number; keyId: number; key: string }> {
  return ctx.db.transaction().execute(async (trx) => {
    const projectId = await insertProject(trx, input, actor);
    const key = await insertKey(trx, ctx, projectId, { label: "admin", role: "admin" }, actor);
    return { projectId, keyId: key.id, key: key.key };
  });
}
