// Who the alerts name, in words: the project's people (src/users) and its keys (src/keys). An actor or an assignee
// is stored as `user:<id>` (a person), `key:<id>` (an API key), `cli` or `system`; an assignee may also be a key's
// label, the form assignments took before people signed in (deprecated, still read).
import type { Kysely } from "kysely";
import { keyLabelsById } from "../keys/index.ts";
import { type Lang, translate } from "../messages/index.ts";
import type { DB } from "../schema.ts";
import { listUsers } from "../users/index.ts";

export interface Names {
  /** a person's display name, undefined when the id is not one of the project's people */
  user(id: number): string | undefined;
  /** a key's label, undefined when the id is not one of the project's keys */
  key(id: number): string | undefined;
}

/** The project's people and keys, read once for a page or an alert. */
export async function projectNames(db: Kysely<DB>, projectId: number): Promise<Names> {
  const [people, keys] = await Promise.all([listUsers(db, projectId), keyLabelsById(db, projectId)]);
  const byId = new Map(people.map((p) => [p.id, p.displayName]));
  return { user: (id) => byId.get(id), key: (id) => keys.get(id) };
}

const USER = /^user:(\d+)$/;
const KEY = /^key:(\d+)$/;

/** The person an assignee names (`user:<id>`), or null for a key's label or nobody. */
export function assignedUserId(assignee: string | null): number | null {
  const m = assignee ? USER.exec(assignee) : null;
  return m ? Number(m[1]) : null;
}

/** Who acted, as a sentence's subject: the person's name, the key's label, the command line, the service. */
export function actorWords(lang: Lang, actor: string, names: Names): string {
  const user = USER.exec(actor);
  if (user) {
    const id = Number(user[1]);
    return names.user(id) ?? translate(lang, "case.actor.former_user", { id });
  }
  const key = KEY.exec(actor);
  if (key) {
    const id = Number(key[1]);
    const label = names.key(id);
    return label === undefined
      ? translate(lang, "case.actor.former_key", { id })
      : translate(lang, "case.actor.key", { label });
  }
  if (actor === "cli") return translate(lang, "case.actor.cli");
  if (actor === "system") return translate(lang, "case.actor.system");
  return actor;
}

/** Whom an alert is assigned to, in words: the person's name, else the stored label as it was typed. */
export function assigneeWords(lang: Lang, assignee: string, names: Names): string {
  const id = assignedUserId(assignee);
  if (id === null) return assignee;
  return names.user(id) ?? translate(lang, "case.actor.former_user", { id });
}
