// A new project comes with its first admin key, in one transaction: nobody could reach a project without one
// (`vigia projects create`, the demo project of a first start, the tests and benchmarks).
import type { Kysely } from "kysely";
import { type Actor, insertProject } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { insertKey } from "./api-keys.ts";
import type { KeysContext } from "./context.ts";

/**
 * `setup`: more of the new project's settings, made in the same transaction (the command line's
 * `--signing-scheme`), so that the project never exists without them.
 */
export function createProject<T = undefined>(
  ctx: KeysContext,
  input: { name: string; isDemo?: boolean },
  actor: Actor,
  setup?: (trx: Kysely<DB>, projectId: number) => Promise<T>,
): Promise<{ projectId: number; keyId: number; key: string; setup: T | undefined }> {
  return ctx.db.transaction().execute(async (trx) => {
    const projectId = await insertProject(trx, input, actor);
    const key = await insertKey(trx, ctx, projectId, { label: "admin", role: "admin" }, actor);
    return { projectId, keyId: key.id, key: key.key, setup: setup ? await setup(trx, projectId) : undefined };
  });
}
