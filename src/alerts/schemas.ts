// The alerts' HTTP schemas (docs/api.md, "Alerts"); the row and view types derive from them.
import { type Static, Type } from "@sinclair/typebox";
import { CoverageSchema } from "../ledger/index.ts";
import { StringEnum } from "../platform/http/schemas.ts";

export const STATUSES = ["open", "in_review", "escalated", "closed"] as const;
export const RESOLUTIONS = ["false_positive", "no_action", "reported"] as const;
export type AlertStatus = (typeof STATUSES)[number];

/** Where each state may go (a closed alert stays closed: a new occurrence opens a new alert). */
export const TRANSITIONS: Record<AlertStatus, readonly AlertStatus[]> = {
  open: ["in_review", "escalated", "closed"],
  in_review: ["open", "escalated", "closed"],
  escalated: ["in_review", "closed"],
  closed: [],
};

const Transfer = Type.Object({
  txHash: Type.String(),
  logIndex: Type.Integer(),
  at: Type.String({ format: "date-time" }),
  usd: Type.Union([Type.Number(), Type.Null()]),
  direction: Type.String(),
  counterparty: Type.Union([Type.String(), Type.Null()]),
});
const Law = Type.Object({
  id: Type.String(),
  name: Type.String(),
  source: Type.String(),
  risk: Type.String(),
  country: Type.String(),
  countryCode: Type.String(),
});

const LabelUsed = Type.Object({
  address: Type.String(),
  label: Type.String(),
  category: Type.String(),
  source: Type.Union([Type.String(), Type.Null()]),
});

const Analysis = Type.Object({
  analysisId: Type.String(),
  kind: Type.String({ description: "`scan`, `risk_job` or `investigation`" }),
  at: Type.String({ format: "date-time" }),
  riskScore: Type.Integer(),
  riskLevel: Type.String(),
  riskReason: Type.String(),
  modelVersion: Type.Union([Type.String(), Type.Null()]),
  findings: Type.Array(
    Type.Object({
      pattern: Type.String(),
      message: Type.String(),
      wallets: Type.Array(Type.String()),
      txs: Type.Array(Type.String()),
      usd: Type.Number(),
    }),
  ),
  exposure: Type.Array(
    Type.Object({
      category: Type.String(),
      direction: Type.String(),
      hops: Type.Integer(),
      usd: Type.Number(),
      share: Type.Number(),
      counterparties: Type.Array(Type.String()),
      via: Type.Array(Type.String()),
      txs: Type.Array(Type.String()),
      unsolicited: Type.Optional(Type.Boolean()),
      /** Bitcoin: the address of the subject's cluster whose exposure this is (same owner by common inputs) */
      sameOwnerAs: Type.Optional(Type.Object({ address: Type.String(), clusterSize: Type.Integer() })),
    }),
  ),
  coverage: Type.Optional(CoverageSchema),
});

/** A client's (or its representative's, or beneficial owner's) candidate on a list of persons (src/screening). */
const PersonCandidate = Type.Object({
  /** who in the client's profile was screened: the client, its representative, a beneficial owner */
  subject: Type.String(),
  role: Type.String(),
  list: Type.String(),
  listVersion: Type.String(),
  entryId: Type.String(),
  matchedName: Type.String(),
  score: Type.Number(),
  verdict: Type.String(),
  matchedFields: Type.Array(Type.String()),
  notes: Type.Array(Type.String()),
  entry: Type.Object({
    type: Type.String(),
    names: Type.Array(Type.String()),
    dates: Type.Array(Type.String()),
    countries: Type.Array(Type.String()),
    programs: Type.Array(Type.String()),
  }),
  screenedAt: Type.String({ format: "date-time" }),
  /** the profile's person as screened (its name, dates, nationality, identifiers); absent on older alerts */
  person: Type.Optional(
    Type.Object({
      name: Type.String(),
      type: Type.Optional(Type.String()),
      birthdate: Type.Optional(Type.String()),
      incorporationDate: Type.Optional(Type.String()),
      nationality: Type.Optional(Type.String()),
      identifiers: Type.Optional(
        Type.Array(
          Type.Object({ kind: Type.String(), value: Type.String(), country: Type.Optional(Type.String()) }),
        ),
      ),
    }),
  ),
});

/** An operation a person tried to carry out (or an onboarding), as the integrator described it when screening them. */
const Attempt = Type.Object({
  kind: Type.String({ description: "`attempt` (not carried out) or `onboarding`" }),
  amount: Type.Optional(Type.String()),
  asset: Type.Optional(Type.String()),
  at: Type.String({ format: "date-time", description: "when the person tried it" }),
  screenedAt: Type.String({ format: "date-time", description: "when the provider learned of it" }),
});

/** An exchange operation behind an alert of the operation rules (src/exchange-operations), as the integrator sent it. */
const OperationEvidence = Type.Object({
  operationId: Type.String(),
  kind: Type.String(),
  at: Type.String({ format: "date-time" }),
  amount: Type.String(),
  /** the fiat currency, or the virtual asset's symbol */
  unit: Type.String(),
  usd: Type.Union([Type.Number(), Type.Null()]),
  rail: Type.Optional(Type.String()),
  counterparty: Type.Optional(Type.String()),
  taxId: Type.Optional(Type.String()),
  account: Type.Optional(Type.String()),
  reference: Type.Optional(Type.String()),
  chainId: Type.Optional(Type.Integer()),
  address: Type.Optional(Type.String()),
  txHash: Type.Optional(Type.String()),
});

/** The operation rule met, with the project's parameters and the figures of each time it was met. */
const OperationRuleEvidence = Type.Object({
  rule: Type.String(),
  parameters: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Boolean()])),
  hits: Type.Array(Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()]))),
});

export const EvidenceSchema = Type.Object({
  transfers: Type.Array(Transfer),
  laws: Type.Array(Law),
  wallets: Type.Array(Type.String()),
  analyses: Type.Optional(Type.Array(Analysis)),
  /** the labels of the counterparties as they stood when the alert was raised or extended, with their sources */
  labels: Type.Optional(Type.Array(LabelUsed)),
  /** `person_match` alerts: the list entries the client's profile was matched to, each time it was screened */
  persons: Type.Optional(Type.Array(PersonCandidate)),
  /** `attempt` alerts: the operations the person tried, each time they tried one */
  attempts: Type.Optional(Type.Array(Attempt)),
  /** alerts of the operation rules: the exchange's operations behind them, oldest first */
  operations: Type.Optional(Type.Array(OperationEvidence)),
  operationRule: Type.Optional(OperationRuleEvidence),
});
/**
 * The evidence as an alert's reader sees it: each analysis with its reason in the answer's language (written on read,
 * never stored; the stored `riskReason` is the risk core's English sentence).
 */
const EvidenceViewSchema = Type.Composite([
  Type.Omit(EvidenceSchema, ["analyses"]),
  Type.Object({
    analyses: Type.Optional(
      Type.Array(
        Type.Composite([
          Analysis,
          Type.Object({
            reasonText: Type.String({
              description:
                "the verdict's reason in the answer's language (Content-Language): in English the risk core's sentence; in Spanish the patterns found and the largest exposure",
            }),
          }),
        ]),
      ),
    ),
  }),
]);
export type AttemptEvidence = Static<typeof Attempt>;
export type OperationEvidenceItem = Static<typeof OperationEvidence>;
export type PersonCandidateEvidence = Static<typeof PersonCandidate>;
export type AlertEvidence = Static<typeof EvidenceSchema>;
export type AnalysisEvidence = Static<typeof Analysis>;
export type LabelUsed = Static<typeof LabelUsed>;

const ApprovalSchema = Type.Object({
  by: Type.String({ description: "the directivo (or equivalent) who approved operating with the person" }),
  at: Type.String({ format: "date-time" }),
  recordedBy: Type.String({ description: "`key:<id>`: the key that recorded it" }),
  note: Type.Optional(Type.String()),
});
export type Approval = Static<typeof ApprovalSchema>;

export const AlertSchema = Type.Object({
  id: Type.String(),
  subject: Type.Object({
    chainId: Type.Integer(),
    address: Type.String(),
    userId: Type.Union([Type.String(), Type.Null()]),
    addressId: Type.Union([Type.String(), Type.Null()]),
  }),
  cause: Type.String({
    description:
      "`law`: a monitored transfer infringed the rule `causeKey`; `analysis`: an analysis of the monitored address reached the project's `alert_level`; `rescreen`: a label learnt later (`causeKey`: its address and source) raised the address's level; `person_match`: the client's profile (the client, its representative or a beneficial owner) is a candidate on a list of persons (`causeKey`: the list and the entry's id), the subject being the client's monitored address; `attempt`: a person on a list of persons tried an operation that was not carried out, or to become a client (`causeKey`: the list and the entry's id; the subject is the wallet they named or the client's monitored address, otherwise chain 0 and an empty address); `fan_in`, `pass_through`, `fiat_structuring`, `third_party_funding`, `withdrawal_to_risk`: a rule over the exchange's own operations (docs/api.md, \"Exchange operations\"; `causeKey`: the client; the subject is the withdrawal's destination for `withdrawal_to_risk`, otherwise chain 0 and an empty address; `evidence.operations` names the operations and `evidence.operationRule` the parameters and figures)",
  }),
  causeKey: Type.String(),
  level: Type.String({
    description:
      "for `law` alerts, the rule's risk (`illegal`, or `warn` for listed rules); for `analysis` and `rescreen` alerts, the risk level (`low` … `critical`); for `person_match` and `attempt` alerts, the candidate's verdict (`review`, `pep`: a politically exposed person whose operations need a directivo's `approval`, or `match`)",
  }),
  reason: Type.String({
    description:
      "the reason as written when the alert was raised, in English; kept as stored (webhooks carry the same text)",
  }),
  reasonText: Type.String({
    description:
      "the reason in the answer's language (Content-Language), written from the cause, level and evidence: what a person reads",
  }),
  evidence: EvidenceViewSchema,
  deadline: Type.Union([
    Type.Object({
      at: Type.String({ format: "date-time" }),
      filing: Type.String(),
      source: Type.String(),
      overdue: Type.Boolean(),
      timeZone: Type.String({
        description:
          "the IANA time zone of the jurisdiction whose filing it is (`America/Mexico_City` for Mexico): the law's day and hour of `at` are read in it",
      }),
    }),
    Type.Null(),
  ]),
  links: Type.Object({
    notificationId: Type.Union([Type.String(), Type.Null()]),
    analysisId: Type.Union([Type.String(), Type.Null()]),
    address: Type.Union([Type.String(), Type.Null()]),
  }),
  status: StringEnum(STATUSES),
  transitions: Type.Array(StringEnum(STATUSES), {
    description: "the states it may move to now (an empty list: closed, it stays closed)",
  }),
  resolution: Type.Union([StringEnum(RESOLUTIONS), Type.Null()]),
  reference: Type.Union([Type.String(), Type.Null()]),
  assignee: Type.Union([Type.String(), Type.Null()], {
    description:
      "`user:<id>` for a person of the project (see `assigneeUser`); a key's label for an alert assigned the older way (deprecated)",
  }),
  assigneeUser: Type.Union([Type.Object({ id: Type.Integer(), displayName: Type.String() }), Type.Null()], {
    description: "the person the alert is assigned to, with the name they go by",
  }),
  linkedAlertIds: Type.Array(Type.String(), {
    description:
      "the other alerts raised by the same transfer (each rule it infringed is an alert of its own) or by the same client event (the same client and list entry), oldest first",
  }),
  approval: Type.Union([ApprovalSchema, Type.Null()], {
    description:
      "`person_match` alerts of level `pep`: the directivo's approval to operate with the politically exposed person (RCG Art. 23 Ter 5), recorded with PATCH `approval`",
  }),
  createdAt: Type.String({ format: "date-time" }),
  updatedAt: Type.String({ format: "date-time" }),
});
export type AlertView = Static<typeof AlertSchema>;

export const HistoryEntrySchema = Type.Object({
  at: Type.String({ format: "date-time" }),
  actor: Type.String({
    description:
      "`user:<id>` for a person, `key:<id>` for an API key, `cli` for the command line, `system` for the service",
  }),
  change: Type.Record(Type.String(), Type.Unknown()),
  text: Type.String({
    description: "the entry as a sentence in the answer's language (Content-Language), naming who acted",
  }),
});

const RecordedHistorySchema = Type.Object({
  at: Type.String({ format: "date-time" }),
  actor: Type.String(),
  change: Type.Unknown(),
});

export const HistoryAuditSchema = Type.Object(
  {
    verified: Type.Boolean({
      description:
        "every history entry matches the audit log's record of it, and none the audit recorded is missing",
    }),
    beforeAudit: Type.Integer({
      description: "entries written before alert histories were audited (not checked)",
    }),
    differences: Type.Array(
      Type.Object({
        historyId: Type.String(),
        index: Type.Union([Type.Integer(), Type.Null()], {
          description: "the entry's place in `history`; null for an entry no longer there",
        }),
        problem: StringEnum(["changed", "removed", "unrecorded", "audit_entry_changed"], {
          description:
            "`changed`: differs from the audit's record; `removed`: recorded by the audit, gone from the history; `unrecorded`: never recorded by the audit (written around the service); `audit_entry_changed`: the audit entry that recorded it was changed",
        }),
        recorded: Type.Optional(RecordedHistorySchema),
      }),
    ),
  },
  { description: 'the history checked against the project\'s audit log (docs/api.md, "Alerts")' },
);

export const AlertWithHistorySchema = Type.Intersect([
  AlertSchema,
  Type.Object({ history: Type.Array(HistoryEntrySchema), historyAudit: HistoryAuditSchema }),
]);

export const AlertParams = Type.Object({
  projectId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  alertId: Type.String({ pattern: "^[1-9][0-9]{0,17}$" }),
});

export const AlertQuery = Type.Object({
  status: Type.Optional(StringEnum(STATUSES)),
  level: Type.Optional(Type.String({ maxLength: 32 })),
  cause: Type.Optional(Type.String({ maxLength: 32 })),
  assignee: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        "a person's user id (digits); a key's label for alerts assigned the older way (deprecated)",
    }),
  ),
  client: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: "the client's user id (the integrator's)" }),
  ),
  dueBefore: Type.Optional(
    Type.String({ format: "date-time", description: "alerts with a deadline before this instant" }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});
export type AlertFilter = Static<typeof AlertQuery>;

export const AlertPatch = Type.Object(
  {
    status: Type.Optional(StringEnum(STATUSES)),
    resolution: Type.Optional(StringEnum(RESOLUTIONS)),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    assignee: Type.Optional(
      Type.Union(
        [
          Type.Integer({
            minimum: 1,
            maximum: 2147483647,
            description: "a person of the project: their user id",
          }),
          Type.String({
            minLength: 1,
            maxLength: 200,
            description: "deprecated: the label of one of the project's keys that is not revoked",
          }),
          Type.Null(),
        ],
        { description: "whom the alert is assigned to: a person's user id; null unassigns it" },
      ),
    ),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: 4000 })),
    approval: Type.Optional(
      Type.Object(
        {
          by: Type.String({
            minLength: 1,
            maxLength: 200,
            description:
              "the directivo (or equivalent) who approved operating with the politically exposed person",
          }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { minProperties: 1, additionalProperties: false },
);
export type AlertPatchBody = Static<typeof AlertPatch>;
