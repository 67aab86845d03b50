// The parameters of the operation rules (docs/api.md "Exchange operations"), a part of GET/PATCH /projects/{id}:
// `operation_rules`, per rule, what the project sets; the rest keeps the defaults below, the one place they live.
// The defaults follow the typologies the rules are drawn from (mule accounts feeding one client within days, value
// passed through within a day, deposits kept within a tenth under the reporting threshold), and are meant to be
// tuned by each officer on her own population.
import { type Static, Type } from "@sinclair/typebox";
import type { Kysely } from "kysely";
import { StringEnum } from "../platform/http/schemas.ts";
import type { SettingsPart } from "../projects/index.ts";
import type { DB } from "../schema.ts";

const Hours = Type.Number({ minimum: 0.25, maximum: 24 * 90 });
const Level = StringEnum(["medium", "high", "critical"]);

const RuleSchemas = {
  fan_in: Type.Object({
    enabled: Type.Boolean(),
    minPayers: Type.Integer({ minimum: 2, maximum: 1000, description: "distinct third-party payers" }),
    windowHours: Hours,
  }),
  pass_through: Type.Object({
    enabled: Type.Boolean(),
    windowHours: Hours,
    minRatio: Type.Number({ minimum: 0.5, maximum: 1, description: "the smaller side over the larger" }),
    minUsd: Type.Number({ minimum: 0 }),
  }),
  fiat_structuring: Type.Object({
    enabled: Type.Boolean(),
    band: Type.Number({
      minimum: 0.01,
      maximum: 0.5,
      description: "how far under the threshold, as a share",
    }),
    minCount: Type.Integer({ minimum: 2, maximum: 100 }),
    windowDays: Type.Number({ minimum: 1, maximum: 90 }),
  }),
  third_party_funding: Type.Object({ enabled: Type.Boolean() }),
  withdrawal_to_risk: Type.Object({
    enabled: Type.Boolean(),
    minLevel: Level,
    fundingHours: Type.Number({
      minimum: 1,
      maximum: 24 * 90,
      description: "how far back the fiat is named",
    }),
  }),
};

export type OperationRuleId = keyof typeof RuleSchemas;
export const OPERATION_RULES = Object.keys(RuleSchemas) as OperationRuleId[];
export type RuleParameters = { [K in OperationRuleId]: Static<(typeof RuleSchemas)[K]> };

export const DEFAULT_RULE_PARAMETERS: RuleParameters = {
  fan_in: { enabled: true, minPayers: 5, windowHours: 72 },
  pass_through: { enabled: true, windowHours: 24, minRatio: 0.8, minUsd: 1_000 },
  fiat_structuring: { enabled: true, band: 0.1, minCount: 3, windowDays: 7 },
  third_party_funding: { enabled: true },
  withdrawal_to_risk: { enabled: true, minLevel: "high", fundingHours: 72 },
};

const View = Type.Object(RuleSchemas);
const Patch = Type.Object(
  Object.fromEntries(
    Object.entries(RuleSchemas).map(([k, s]) => [
      k,
      Type.Optional(Type.Union([Type.Partial(s), Type.Null()])),
    ]),
  ),
  {
    additionalProperties: false,
    description: "per rule, the parameters to change; `null` puts a rule back on the service's defaults",
  },
);

/** The parameters a project's rules run with: its own where it set them, the defaults elsewhere. */
export async function ruleParametersOf(db: Kysely<DB>, projectId: number): Promise<RuleParameters> {
  const row = await db
    .selectFrom("exchange_operation_settings")
    .select("rules")
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  const own = (row?.rules ?? {}) as Partial<Record<OperationRuleId, Record<string, unknown>>>;
  return Object.fromEntries(
    OPERATION_RULES.map((k) => [k, { ...DEFAULT_RULE_PARAMETERS[k], ...(own[k] ?? {}) }]),
  ) as RuleParameters;
}

export function operationRuleSettings(): SettingsPart {
  return {
    view: { operation_rules: View },
    patch: { operation_rules: Type.Optional(Patch) },
    async read(db, projectId) {
      return { operation_rules: await ruleParametersOf(db, projectId) };
    },
    async apply(trx, projectId, patch) {
      const change = patch.operation_rules as Record<string, Record<string, unknown> | null> | undefined;
      if (change === undefined) return {};
      const before = await trx
        .selectFrom("exchange_operation_settings")
        .select("rules")
        .where("project_id", "=", projectId)
        .executeTakeFirst();
      const own: Record<string, Record<string, unknown>> = { ...(before?.rules ?? {}) };
      for (const [k, v] of Object.entries(change)) {
        if (v === null) delete own[k];
        else if (v) own[k] = { ...(own[k] ?? {}), ...v };
      }
      await trx
        .insertInto("exchange_operation_settings")
        .values({ project_id: projectId, rules: JSON.stringify(own) })
        .onConflict((c) => c.column("project_id").doUpdateSet({ rules: JSON.stringify(own) }))
        .execute();
      return { operation_rules: { from: before?.rules ?? {}, to: own } };
    },
  };
}
