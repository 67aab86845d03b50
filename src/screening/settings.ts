// The project's screening thresholds (a part of GET/PATCH /projects/{id}, src/projects/settings-part.ts):
// `screening_thresholds`, per list, the score from which a candidate is to be reviewed and from which it is a match.
// A list the project does not set keeps the defaults of match/thresholds.ts, chosen on the person-screening eval
// (docs/benchmarks.md).
import { type Static, Type } from "@sinclair/typebox";
import type { Kysely } from "kysely";
import { AppError, MESSAGES } from "../platform/errors.ts";
import type { SettingsPart } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { LIST_KINDS, type ListKind } from "./entry.ts";
import { DEFAULT_THRESHOLDS, type Thresholds } from "./match/thresholds.ts";

export type ListThresholds = Record<ListKind, Thresholds>;

const Score = Type.Number({ minimum: 0, maximum: 1 });
const Pair = Type.Object(
  { review: Score, match: Score },
  { description: "a candidate scoring at least `review` is to be reviewed; at least `match`, a match" },
);
const ViewThresholds = Type.Object(
  Object.fromEntries(LIST_KINDS.map((k) => [k, Pair])) as Record<ListKind, typeof Pair>,
);
const PatchThresholds = Type.Object(
  Object.fromEntries(
    LIST_KINDS.map((k) => [
      k,
      Type.Optional(Type.Union([Type.Object({ review: Score, match: Score }), Type.Null()])),
    ]),
  ),
  {
    additionalProperties: false,
    description: "per list kind; `null` puts a list back on the service's defaults",
  },
);
type Patch = Static<typeof PatchThresholds>;

/** The thresholds a project screens with: its own where it set them, the defaults elsewhere. */
export async function thresholdsOf(db: Kysely<DB>, projectId: number): Promise<ListThresholds> {
  const row = await db
    .selectFrom("screening_settings")
    .select("thresholds")
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  const own = (row?.thresholds ?? {}) as Partial<ListThresholds>;
  return Object.fromEntries(LIST_KINDS.map((k) => [k, own[k] ?? DEFAULT_THRESHOLDS[k]])) as ListThresholds;
}

export function screeningSettings(): SettingsPart {
  return {
    view: { screening_thresholds: ViewThresholds },
    patch: { screening_thresholds: Type.Optional(PatchThresholds) },
    async read(db, projectId) {
      return { screening_thresholds: await thresholdsOf(db, projectId) };
    },
    async apply(trx, projectId, patch) {
      const change = patch.screening_thresholds as Patch | undefined;
      if (change === undefined) return {};
      const wrong = Object.entries(change).filter(([, t]) => t && t.review > t.match);
      if (wrong.length > 0)
        throw new AppError("invalid_request", MESSAGES.invalidBody, {
          details: wrong.map(([k]) => ({
            path: `/screening_thresholds/${k}`,
            message: "`review` must not be above `match`",
          })),
        });
      const before = await trx
        .selectFrom("screening_settings")
        .select("thresholds")
        .where("project_id", "=", projectId)
        .executeTakeFirst();
      const own: Record<string, Thresholds> = {
        ...((before?.thresholds ?? {}) as Record<string, Thresholds>),
      };
      for (const [k, t] of Object.entries(change)) {
        if (t === null) delete own[k];
        else if (t) own[k] = t;
      }
      await trx
        .insertInto("screening_settings")
        .values({ project_id: projectId, thresholds: JSON.stringify(own) })
        .onConflict((oc) => oc.column("project_id").doUpdateSet({ thresholds: JSON.stringify(own) }))
        .execute();
      // The project's monitored clients are screened again at the new thresholds (rescreen-loop.ts).
      await trx
        .updateTable("client_screenings")
        .set({ lists_key: "" })
        .where("project_id", "=", projectId)
        .execute();
      return { screening_thresholds: { from: before?.thresholds ?? {}, to: own } };
    },
  };
}
