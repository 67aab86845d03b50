// The case per client's HTTP schemas (docs/api.md, "Case per client"); its type derives from them.
import { type Static, Type } from "@sinclair/typebox";
import { AlertSchema } from "../alerts/index.ts";

const Time = Type.String({ format: "date-time" });
const NullableTime = Type.Union([Time, Type.Null()]);

export const CaseParams = Type.Object({
  projectId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  clientId: Type.String({
    minLength: 1,
    maxLength: 200,
    description: "the client's user id, as the integrator gave it when registering its addresses",
  }),
});

export const TimelineEntrySchema = Type.Object({
  at: Time,
  messageId: Type.String({ description: "the catalog's message (src/messages) the text was written from" }),
  params: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
  text: Type.String({ description: "the event in words, in the answer's language (Content-Language)" }),
});
export type TimelineEntry = Static<typeof TimelineEntrySchema>;

export const CaseSchema = Type.Object({
  clientId: Type.String(),
  profile: Type.Union(
    [
      Type.Object({
        readAt: Time,
        persons: Type.Array(Type.Unknown(), {
          description:
            "the persons of the client's profile as the service last read it from the integrator to screen it: the client, its representative or fiduciary delegate, its beneficial owners, each with role, names, dates, nationality and identifiers",
        }),
      }),
      Type.Null(),
    ],
    {
      description:
        "null: the service never read the client's profile (no list was imported yet, or it failed)",
    },
  ),
  screening: Type.Union([
    Type.Object({
      verdict: Type.String({ description: "`clear`, `review`, `pep`, `match`; `pending` while queued" }),
      screenedAt: Time,
      candidates: Type.Array(Type.Unknown(), { description: "the list entries found, as alerts carry them" }),
    }),
    Type.Null(),
  ]),
  alerts: Type.Object({
    total: Type.Integer({ description: "the client's alerts" }),
    overdue: Type.Integer(),
    groups: Type.Array(
      Type.Object({
        alertIds: Type.Array(Type.String()),
        alerts: Type.Array(AlertSchema),
      }),
      {
        description:
          "the client's alerts (at most 100: the overdue first, then the newest), linked ones together (the alerts of one transfer, or one list entry): a group per linked set",
      },
    ),
  }),
  addresses: Type.Array(
    Type.Object({
      id: Type.String(),
      chainId: Type.Union([Type.Integer(), Type.Null()], {
        description: "null: every chain the indexer follows",
      }),
      address: Type.String(),
      description: Type.Union([Type.String(), Type.Null()]),
      jurisdiction: Type.Union([Type.String(), Type.Null()]),
      registeredAt: Time,
      risk: Type.Union(
        [
          Type.Object({
            score: Type.Union([Type.Integer(), Type.Null()]),
            level: Type.Union([Type.String(), Type.Null()]),
            levelText: Type.Union([Type.String(), Type.Null()]),
            source: Type.String({ description: "`scan`, `job` or `investigation`" }),
            analysisId: Type.Union([Type.String(), Type.Null()]),
            at: Time,
          }),
          Type.Null(),
        ],
        { description: "the project's latest analysis of the address; null: none yet" },
      ),
    }),
  ),
  avisos: Type.Array(
    Type.Object({
      id: Type.String(),
      countryCode: Type.String(),
      reference: Type.String(),
      basis: Type.String(),
      origin: Type.String(),
      period: Type.String(),
      knownAt: Time,
      deadline: Time,
      settledAt: NullableTime,
      alertIds: Type.Array(Type.String()),
      txHashes: Type.Array(Type.String()),
    }),
  ),
  filings: Type.Array(
    Type.Object({
      path: Type.String(),
      name: Type.String(),
      countryCode: Type.String(),
      period: Type.String(),
      kind: Type.String({ description: "`monthly` or `urgent` (a 24-hour aviso)" }),
      version: Type.Integer(),
      status: Type.String({ description: "`draft` or `filed`" }),
      createdAt: Time,
      filedAt: NullableTime,
      folio: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  timeline: Type.Array(TimelineEntrySchema, {
    description:
      "what happened to the client, oldest first (the newest 300 events): addresses registered, screenings, each alert's history, avisos known and settled, files written and filed",
  }),
});
export type ClientCase = Static<typeof CaseSchema>;
