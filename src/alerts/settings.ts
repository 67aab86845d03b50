// The project's alert settings (a part of GET/PATCH /projects/{id}, src/projects/settings-part.ts):
// `alert_warn_rules`, the `warn` rules whose infringement raises an alert too (`illegal` ones always do).
import { Type } from "@sinclair/typebox";
import type { Kysely } from "kysely";
import { INTERNATIONAL, JURISDICTIONS } from "../jurisdictions/index.ts";
import { AppError, MESSAGES } from "../platform/errors.ts";
import type { SettingsPart } from "../projects/index.ts";
import type { DB } from "../schema.ts";

export async function warnRulesOf(db: Kysely<DB>, projectId: number): Promise<string[]> {
  const row = await db
    .selectFrom("alert_settings")
    .select("warn_rules")
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  return row?.warn_rules ?? [];
}

/** Every `warn` rule of every jurisdiction and of the international rules. */
const WARN_RULES = new Set(
  [INTERNATIONAL, ...JURISDICTIONS].flatMap((book) =>
    book.rules.filter((r) => r.risk === "warn").map((r) => r.id),
  ),
);

const WarnRules = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: 200,
  uniqueItems: true,
  description:
    "ids of `warn` law rules (e.g. `CO-TX-450`, `XB-MIXER`) whose infringement by a monitored transfer raises an alert; `illegal` rules always do",
});

export function alertSettings(): SettingsPart {
  return {
    view: { alert_warn_rules: WarnRules },
    patch: { alert_warn_rules: Type.Optional(WarnRules) },
    async read(db, projectId) {
      return { alert_warn_rules: await warnRulesOf(db, projectId) };
    },
    async apply(trx, projectId, patch) {
      const rules = patch.alert_warn_rules as string[] | undefined;
      if (rules === undefined) return {};
      const unknown = rules.filter((id) => !WARN_RULES.has(id));
      if (unknown.length > 0)
        throw new AppError("invalid_request", MESSAGES.invalidBody, {
          details: [
            {
              path: "/alert_warn_rules",
              message: `not a \`warn\` rule: ${unknown.join(", ")}; the warn rules are ${[...WARN_RULES].sort().join(", ")}`,
            },
          ],
        });
      const before = await warnRulesOf(trx, projectId);
      await trx
        .insertInto("alert_settings")
        .values({ project_id: projectId, warn_rules: JSON.stringify(rules) })
        .onConflict((oc) => oc.column("project_id").doUpdateSet({ warn_rules: JSON.stringify(rules) }))
        .execute();
      return { alert_warn_rules: { from: before, to: rules } };
    },
  };
}
