// The match review's HTTP schemas (docs/api.md, "Match review"); the view's type derives from them.
import { type Static, Type } from "@sinclair/typebox";
import { StringEnum } from "../../platform/http/schemas.ts";
import { IdentifierSchema } from "../entry.ts";

const Day = Type.Union([Type.String(), Type.Null()]);

const ReviewSchema = Type.Object({
  decision: StringEnum(["confirm", "discard"]),
  decisionText: Type.String({ description: "the decision in words, in the request's language" }),
  reason: Type.String(),
  by: Type.String({ description: "who decided, as the audit names them: `user:<id>`, `key:<id>`" }),
  byName: Type.String({ description: "who decided, in words: the person's name, the key's label" }),
  at: Type.String({ format: "date-time" }),
});

export const MatchViewSchema = Type.Object({
  alertId: Type.String(),
  status: Type.String(),
  level: Type.String({ description: "the candidate's verdict: `review`, `pep` or `match`" }),
  client: Type.Object(
    {
      userId: Type.String({ description: "the integrator's id of the client" }),
      role: Type.String({
        description:
          "who in the client's profile was screened: `client`, `representative`, `fiduciary_delegate`, `beneficial_owner`",
      }),
      roleText: Type.String({ description: "the role in words" }),
      type: Type.String({ description: "`person` or `entity`" }),
      names: Type.Array(Type.String(), { description: "the name as the profile gives it" }),
      nameAsRead: Type.Union([Type.String(), Type.Null()], {
        description: "the name as a reader sees it, when the profile's hides characters (what was compared)",
      }),
      birthDate: Day,
      incorporationDate: Day,
      nationality: Type.Union([Type.String(), Type.Null()]),
      identifiers: Type.Array(IdentifierSchema),
      profileChanged: Type.Boolean({
        description:
          "the client's profile holds this person differently now (a corrected date, a new identifier) or no longer names them: what is shown is the person as screened for this alert",
      }),
    },
    { description: "the profile's person as screened" },
  ),
  entry: Type.Object(
    {
      list: Type.String(),
      listVersion: Type.String({ description: "the version of the list the entry is shown at" }),
      listDate: Day,
      alertedVersion: Type.String({ description: "the version of the list the alert was raised on" }),
      source: StringEnum(["alerted", "current", "kept"], {
        description:
          "`alerted`: the entry as at the alert's version; `current`: that version was replaced, the current one is shown; `kept`: the entry left the list, what the alert kept is shown (without identifiers)",
      }),
      entryId: Type.String(),
      type: Type.String(),
      names: Type.Array(Type.String(), { description: "the primary name first, then the aliases" }),
      matchedName: Type.String({ description: "the entry's name that matched" }),
      birthDate: Day,
      birthDates: Type.Array(Type.String()),
      nationality: Type.Union([Type.String(), Type.Null()]),
      nationalities: Type.Array(Type.String()),
      identifiers: Type.Array(IdentifierSchema),
      programme: Type.Union([Type.String(), Type.Null()], { description: "the programmes, joined" }),
      programmes: Type.Array(Type.String()),
      remarks: Type.Union([Type.String(), Type.Null()]),
    },
    { description: "the list entry as listed" },
  ),
  score: Type.Number(),
  matchedFields: Type.Array(Type.String()),
  why: Type.Array(Type.String(), {
    description: "why the matcher found them alike, in the request's language",
  }),
  notes: Type.Array(Type.String(), { description: "the matcher's own notes, as it wrote them (English)" }),
  review: Type.Optional(ReviewSchema),
  earlierReview: Type.Optional(
    Type.Object(
      {
        ...ReviewSchema.properties,
        alertId: Type.String({ description: "the alert the earlier decision was taken on" }),
        changed: Type.Array(Type.String(), { description: "`entry`, `profile`: what changed since" }),
        text: Type.String({ description: "the earlier decision in a sentence, in the request's language" }),
      },
      {
        description:
          "a decision on the same client and entry taken before, which a change of the entry or the profile reopened",
      },
    ),
  ),
});
export type MatchView = Static<typeof MatchViewSchema>;

export const MatchReviewBody = Type.Object(
  {
    decision: StringEnum(["confirm", "discard"], {
      description:
        "`confirm`: the client is the listed person (the alert is escalated and kept for the aviso); `discard`: a namesake (the alert is closed as `false_positive`, and the pair raises no alert while the entry and the profile stay the same)",
    }),
    reason: Type.String({
      minLength: 3,
      maxLength: 2000,
      description: "why: what the officer checked (kept in the alert's history and the audit log)",
    }),
  },
  { additionalProperties: false },
);
export type MatchReviewInput = Static<typeof MatchReviewBody>;
