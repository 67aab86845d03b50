// The project's alert settings (a part of GET/PATCH /projects/{id}, src/projects/settings-part.ts):
// `alert_warn_rules`, the `warn` rules whose infringement raises an alert too (`illegal` ones always do), and
// `alert_level`, the risk level from which an analysis of a monitored address raises one (unset: the service's
// VIGIA_ALERT_LEVEL).
import { Type } from "@sinclair/typebox";
import type { Kysely } from "kysely";
import { INTERNATIONAL, JURISDICTIONS } from "../jurisdictions/index.ts";
import { AppError, MESSAGES } from "../platform/errors.ts";
import { StringEnum } from "../platform/http/schemas.ts";
import type { SettingsPart } from "../projects/index.ts";
import type { RiskLevel } from "../risk/index.ts";
import type { DB } from "../schema.ts";

export const ALERT_LEVELS = ["low", "medium", "high", "critical"] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];

interface ProjectAlertSettings {
  warnRules: string[];
  /** null: the service's default */
  level: AlertLevel | null;
}

async function settingsOf(db: Kysely<DB>, projectId: number): Promise<ProjectAlertSettings> {
  const row = await db
    .selectFrom("alert_settings")
    .select(["warn_rules", "alert_level"])
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  return { warnRules: row?.warn_rules ?? [], level: (row?.alert_level as AlertLevel | null) ?? null };
}

export async function warnRulesOf(db: Kysely<DB>, projectId: number): Promise<string[]> {
  return (await settingsOf(db, projectId)).warnRules;
}

/** The level from which an analysis of one of the project's monitored addresses raises an alert. */
export async function alertLevelOf(
  db: Kysely<DB>,
  projectId: number,
  serviceDefault: AlertLevel,
): Promise<RiskLevel> {
  return (await settingsOf(db, projectId)).level ?? serviceDefault;
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
const Level = StringEnum(ALERT_LEVELS, {
  description:
    "the risk level from which an analysis (scan, risk job, investigation, the scan on registration) of a monitored address raises an alert",
});

export function alertSettings(serviceDefault: AlertLevel): SettingsPart {
  return {
    view: { alert_warn_rules: WarnRules, alert_level: Level },
    patch: {
      alert_warn_rules: Type.Optional(WarnRules),
      alert_level: Type.Optional(
        Type.Union([Level, Type.Null()], {
          description: "`null`: the service's default (VIGIA_ALERT_LEVEL)",
        }),
      ),
    },
    async read(db, projectId) {
      const s = await settingsOf(db, projectId);
      return { alert_warn_rules: s.warnRules, alert_level: s.level ?? serviceDefault };
    },
    async apply(trx, projectId, patch) {
      const rules = patch.alert_warn_rules as string[] | undefined;
      const level = patch.alert_level as AlertLevel | null | undefined;
      if (rules === undefined && level === undefined) return {};
      const unknown = (rules ?? []).filter((id) => !WARN_RULES.has(id));
      if (unknown.length > 0)
        throw new AppError("invalid_request", MESSAGES.invalidBody, {
          details: [
            {
              path: "/alert_warn_rules",
              message: `not a \`warn\` rule: ${unknown.join(", ")}; the warn rules are ${[...WARN_RULES].sort().join(", ")}`,
            },
          ],
        });
      const before = await settingsOf(trx, projectId);
      const after = {
        warnRules: rules ?? before.warnRules,
        level: level === undefined ? before.level : level,
      };
      const values = { warn_rules: JSON.stringify(after.warnRules), alert_level: after.level };
      await trx
        .insertInto("alert_settings")
        .values({ project_id: projectId, ...values })
        .onConflict((oc) => oc.column("project_id").doUpdateSet(values))
        .execute();
      return {
        ...(rules !== undefined ? { alert_warn_rules: { from: before.warnRules, to: rules } } : {}),
        ...(level !== undefined ? { alert_level: { from: before.level, to: level } } : {}),
      };
    },
  };
}
