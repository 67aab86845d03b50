// The screening's HTTP schemas (docs/api.md, "Screening"); the verbs' types derive from them.
import { type Static, Type } from "@sinclair/typebox";
import { MaxDepthSchema, ScanBody, ScanResponse } from "../analysis/index.ts";
import { StringEnum } from "../platform/http/schemas.ts";
import { IdentifierSchema, LIST_KINDS } from "./entry.ts";
import { OUTCOME_CLASSES, VERDICTS } from "./outcomes.ts";

const Day = Type.String({
  pattern: "^\\d{4}(-\\d{2}(-\\d{2})?)?$",
  description: "YYYY-MM-DD (YYYY-MM or YYYY when only that is known)",
});

export const PersonSchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 300,
      description:
        "the full name as the client record holds it (any order: given names and surnames, or a company's name)",
    }),
    type: Type.Optional(
      StringEnum(["person", "entity"], {
        description: "`person` (default) or `entity` (a company, trust or organisation)",
      }),
    ),
    birthdate: Type.Optional(Day),
    incorporationDate: Type.Optional(Day),
    nationality: Type.Optional(
      Type.String({
        pattern: "^[A-Za-z]{2}$",
        description: "ISO 3166-1 alpha-2: a person's nationality, an entity's country",
      }),
    ),
    identifiers: Type.Optional(
      Type.Array(IdentifierSchema, {
        maxItems: 10,
        description: "RFC, CURP, passport, national id or tax id: the same number on an entry confirms it",
      }),
    ),
  },
  { additionalProperties: false },
);
export type PersonInput = Static<typeof PersonSchema>;

export const OperationSchema = Type.Object(
  {
    kind: StringEnum(["attempt", "onboarding"], {
      description:
        "`attempt`: the person tried an operation that was not carried out (refused, abandoned); `onboarding`: the person is applying to become a client",
    }),
    userId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          "the integrator's id of the person, when it has one: its profile (GET {integration_url}/users/{id}) is preferred to the data given here for the aviso's file; without it the person is `prospect-` and 12 hex characters of their data",
      }),
    ),
    amount: Type.Optional(
      Type.String({ pattern: "^\\d{1,30}(\\.\\d{1,18})?$", description: "the amount tried, as a decimal" }),
    ),
    asset: Type.Optional(
      Type.String({ minLength: 1, maxLength: 20, description: "what was tried: ETH, USDT, MXN…" }),
    ),
    at: Type.Optional(
      Type.String({ format: "date-time", description: "when the person tried it (default: now)" }),
    ),
  },
  { additionalProperties: false },
);
export type OperationInput = Static<typeof OperationSchema>;

export const OperationOutcomeSchema = Type.Object(
  {
    userId: Type.String({ description: "who tried it: the `userId` given, or the prospect's id" }),
    alertIds: Type.Array(Type.String(), { description: "the `attempt` alerts raised or extended" }),
    avisos: Type.Array(
      Type.Object({
        id: Type.String(),
        countryCode: Type.String(),
        basis: Type.String(),
        reference: Type.String(),
        deadline: Type.String({ format: "date-time" }),
      }),
      { description: "the avisos now due (GET /projects/{projectId}/avisos follows them to their files)" },
    ),
  },
  { description: "with an `operation`: what the screening recorded (nothing for a person who is `clear`)" },
);
export type OperationOutcome = Static<typeof OperationOutcomeSchema>;

export const PersonsBody = Type.Object(
  {
    persons: Type.Array(PersonSchema, { minItems: 1, maxItems: 100 }),
    operation: Type.Optional(OperationSchema),
  },
  { additionalProperties: false },
);

const Kind = StringEnum(LIST_KINDS);

export const ListVersionSchema = Type.Object({
  kind: Kind,
  version: Type.String(),
  listDate: Type.Union([Type.String(), Type.Null()]),
  entries: Type.Integer(),
  importedAt: Type.String({ format: "date-time" }),
});

/** How old a list is and how its last scheduled refresh ended (src/ingest keeps them; GET /screening/lists shows). */
export const ListFreshnessSchema = Type.Object({
  kind: Type.String({
    description: "a list of persons, or `sanctions`: OFAC's digital currency addresses (sanctioned labels)",
  }),
  ageSeconds: Type.Union([Type.Integer(), Type.Null()], {
    description: "seconds since its last completed import, by hand or by the schedule; null: never imported",
  }),
  stale: Type.Boolean({
    description: "older than VIGIA_LIST_MAX_AGE_HOURS, or never loaded though scheduled",
  }),
  lastRefresh: Type.Union([
    Type.Object({
      at: Type.String({ format: "date-time" }),
      outcome: StringEnum(["imported", "unchanged", "refused", "failed"]),
      error: Type.Union([Type.String(), Type.Null()]),
      failures: Type.Integer({ description: "refreshes failed or refused in a row" }),
    }),
    Type.Null(),
  ]),
});
export type ListFreshness = Static<typeof ListFreshnessSchema>;

/** A list's current version with its age (GET /screening/lists). */
export const ListStateSchema = Type.Composite([
  ListVersionSchema,
  Type.Object({
    ageSeconds: Type.Union([Type.Integer(), Type.Null()]),
    stale: Type.Boolean({ description: "older than its VIGIA_LIST_MAX_AGE_HOURS (the UIF's LPB: 31 days)" }),
  }),
]);

export type { Verdict } from "./outcomes.ts";

const VerdictSchema = StringEnum(VERDICTS, {
  description:
    "`match`: a candidate on a sanctions or blocked-persons list (OFAC, UN, the UIF's LPB) reached its list's match threshold: do not operate; `review`: a candidate for the officer to check (any list's review threshold, and every SAT 69-B candidate); `pep`: a politically exposed person, to be watched with enhanced due diligence and a directivo's approval, never refused for that alone; `clear`",
});

export const CandidateSchema = Type.Object({
  list: Kind,
  listVersion: Type.String(),
  entryId: Type.String(),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  verdict: StringEnum(["review", "pep", "match"], {
    description:
      "what this candidate's score is at its list's thresholds, read by its class: `match` only on a sanctions list, `pep` for a PEP at the match threshold, `review` otherwise",
  }),
  class: StringEnum(OUTCOME_CLASSES, {
    description:
      "what the list's entries are: `sanctions` (OFAC, UN, the UIF's LPB, OpenSanctions entries that are not only PEPs), `pep` (an OpenSanctions PEP or a relative or close associate), `tax` (the SAT's Art. 69-B list)",
  }),
  matchedName: Type.String({ description: "the entry's name that matched, as the list writes it" }),
  matchedFields: Type.Array(Type.String(), {
    description: "`name` or `alias`, and `date`, `country`, `identifier` where they agree",
  }),
  notes: Type.Array(Type.String(), { description: "why the score was raised or lowered" }),
  entry: Type.Object({
    type: Type.String(),
    names: Type.Array(Type.String()),
    dates: Type.Array(Type.String()),
    countries: Type.Array(Type.String()),
    identifiers: Type.Array(IdentifierSchema),
    programs: Type.Array(Type.String()),
    remarks: Type.Optional(Type.String()),
  }),
});
export type CandidateView = Static<typeof CandidateSchema>;

export const NameAsReadSchema = Type.Object(
  {
    compared: Type.String({ description: "the name as a reader sees it: what was compared with the lists" }),
    hidden: Type.Array(
      Type.Object({
        kind: StringEnum(["invisible", "compatibility", "look-alike"], {
          description:
            "`invisible`: renders as nothing (zero-width space, soft hyphen, word joiner, U+FEFF, a variation selector); `compatibility`: a compatibility form of a letter (fullwidth, mathematical, a ligature); `look-alike`: a letter of another script confusable with a Latin one (Unicode TS #39)",
        }),
        character: Type.String({ description: 'the code point as stored, "U+200B"' }),
        at: Type.Integer({
          minimum: 0,
          description: "its position in `name` (composed, NFC), in code points",
        }),
        readsAs: Type.String({ description: 'what it was compared as ("" for an invisible one)' }),
      }),
    ),
    mixedScripts: Type.Boolean({ description: "the name's letters come from more than one script" }),
  },
  {
    description:
      "present when the name as stored differs from what a reader sees: the characters that hid it, and the form compared. `name` keeps the string as sent, for the evidence",
  },
);

export const PersonResultSchema = Type.Object({
  name: Type.String({ description: "the name as sent" }),
  nameAsRead: Type.Optional(NameAsReadSchema),
  verdict: VerdictSchema,
  candidates: Type.Array(CandidateSchema, { description: "best first, at most 10" }),
  ruledOut: Type.Array(
    Type.Object({
      list: Kind,
      entryId: Type.String(),
      matchedName: Type.String(),
      reason: Type.String(),
    }),
    { description: "namesakes a birthdate or an identifier showed to be someone else" },
  ),
  lists: Type.Array(ListVersionSchema, { description: "the lists screened against, each at its version" }),
  operation: Type.Optional(OperationOutcomeSchema),
});
export type PersonResult = Static<typeof PersonResultSchema>;

export const PersonsResponse = Type.Object({ results: Type.Array(PersonResultSchema) });

export const CombinedBody = Type.Object(
  {
    person: PersonSchema,
    addresses: Type.Array(ScanBody.properties.addresses.items, {
      maxItems: 50,
      description: "the person's wallets, each on its chain (as POST .../addresses/scan-risk takes them)",
    }),
    maxDepth: MaxDepthSchema,
    operation: Type.Optional(OperationSchema),
  },
  { additionalProperties: false },
);

export const CombinedResponse = Type.Object({
  verdict: VerdictSchema,
  reasons: Type.Array(Type.String(), {
    description: "what made the verdict: the person's best candidate, each wallet not clear",
  }),
  person: PersonResultSchema,
  wallets: ScanResponse,
});
