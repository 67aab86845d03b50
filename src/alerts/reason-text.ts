// An alert's reason in the reader's language (`reasonText` of the API's alerts, the case and the evidence pack),
// written from the alert's cause, level and stored evidence through the catalog (src/messages/catalog/reasons.ts):
// a law alert by its rule's title and the transfer, a person match or an attempt from the candidate's fields, an
// analysis or re-screening alert from the stored verdict. The stored `reason` stays the English sentence written
// when the alert was raised (integrators and webhooks read it). The stored verdict keeps neither what drives its
// score nor the findings' thresholds, so a Spanish reason of an analysis names its level, score, the patterns found
// and the largest exposure, never the risk core's English sentence; English keeps that sentence. Pure.
import { categoryWord, causeWord, exposureEs, levelWord, patternWord } from "../analysis/index.ts";
import { ruleTitle } from "../jurisdictions/index.ts";
import { type Lang, LOCALE, type MessageId, type Params, translate } from "../messages/index.ts";
import { operationIdOfHash } from "../regulation/index.ts";
import type { AlertEvidence, AnalysisEvidence } from "./schemas.ts";

/** What the reason is written from: the alert's row as stored. */
export interface ReasonSource {
  cause: string;
  causeKey: string;
  level: string;
  address: string;
  userId: string | null;
  evidence: AlertEvidence;
}

const FIELDS = new Set(["name", "alias", "date", "country", "identifier"]);

function usd(lang: Lang, n: number): string {
  return new Intl.NumberFormat(LOCALE[lang], {
    style: "currency",
    currency: "USD",
    currencyDisplay: "code",
    minimumFractionDigits: 0,
    maximumFractionDigits: 2,
  })
    .format(n)
    .replace(/\u00a0/g, " ");
}

/** An instant as the reader reads it, in `timeZone`, with the zone named. */
function when(lang: Lang, iso: string, timeZone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(LOCALE[lang], {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(d);
}

const list = (lang: Lang, items: readonly string[]) =>
  new Intl.ListFormat(LOCALE[lang], { type: "conjunction" }).format(items);

function lawReason(lang: Lang, a: ReasonSource, t: (id: MessageId, p?: Params) => string): string {
  const law = a.evidence.laws.find((l) => l.id === a.causeKey) ?? a.evidence.laws[0];
  const rule = law ? ruleTitle(lang, law.id, law.name) : ruleTitle(lang, a.causeKey, a.causeKey);
  const [first, ...rest] = a.evidence.transfers;
  // One of the exchange's own operations stands as a transfer whose hash is `op:` and the integrator's id.
  const operationId = first ? operationIdOfHash(first.txHash) : undefined;
  const parts = [
    a.userId ? t("reasons.client", { userId: a.userId }) : "",
    first && first.usd !== null ? t("reasons.amount", { usd: usd(lang, first.usd) }) : "",
    operationId && first?.counterparty ? t("reasons.counterparty", { counterparty: first.counterparty }) : "",
  ].filter(Boolean);
  const more =
    rest.length > 0
      ? `, ${t(operationId ? "reasons.moreOperations" : "reasons.more", { count: rest.length })}`
      : "";
  if (operationId)
    return t("reasons.lawOperation", {
      rule,
      operationId,
      detail: `${parts.length > 0 ? ` (${parts.join(", ")})` : ""}${more}`,
    });
  return t("reasons.law", {
    rule,
    txHash: first?.txHash ?? "—",
    address: a.address,
    detail: `${parts.length > 0 ? ` (${parts.join(", ")})` : ""}${more}`,
  });
}

function fieldsOf(lang: Lang, fields: readonly string[], t: (id: MessageId) => string): string {
  const known = [...new Set(fields)].filter((f) => FIELDS.has(f));
  if (known.length === 0) return t("reasons.field.none");
  return list(
    lang,
    known.map((f) => t(`reasons.field.${f}` as MessageId)),
  );
}

function personReason(lang: Lang, a: ReasonSource, t: (id: MessageId, p?: Params) => string): string {
  // The candidate the alert's level comes from (a later, stronger reading raises it), else the latest.
  const persons = a.evidence.persons ?? [];
  const c = [...persons].reverse().find((p) => p.verdict === a.level) ?? persons.at(-1);
  if (!c) return otherReason(lang, a);
  const programs = c.entry.programs.length > 0 ? ` (${c.entry.programs.slice(0, 3).join(", ")})` : "";
  return t("reasons.person", {
    subject: c.subject,
    role: c.role,
    userId: a.userId ?? "—",
    verdict: c.verdict,
    matchedName: c.matchedName,
    list: c.list,
    listVersion: c.listVersion,
    programs,
    entryId: c.entryId,
    score: c.score,
    fields: fieldsOf(lang, c.matchedFields, t),
  });
}

function attemptReason(
  lang: Lang,
  a: ReasonSource,
  timeZone: string,
  t: (id: MessageId, p?: Params) => string,
): string {
  const c = a.evidence.persons?.at(-1);
  const at = a.evidence.attempts?.[0];
  if (!c || !at) return otherReason(lang, a);
  const amount = at.amount ? ` (${at.amount}${at.asset ? ` ${at.asset}` : ""})` : "";
  return t("reasons.attempt", {
    subject: c.subject,
    userId: a.userId ?? "—",
    kind: at.kind,
    amount,
    at: when(lang, at.at, timeZone),
    verdict: c.verdict,
    matchedName: c.matchedName,
    list: c.list,
    listVersion: c.listVersion,
    entryId: c.entryId,
    score: c.score,
  });
}

/** The verdict the alert's level stands on: the latest at that level, else the latest. */
const verdictOf = (a: ReasonSource) =>
  [...(a.evidence.analyses ?? [])].reverse().find((v) => v.riskLevel === a.level) ??
  a.evidence.analyses?.at(-1);

/** After the frame: English keeps the risk core's sentence; Spanish names the patterns and the largest exposure. */
function verdictTail(
  lang: Lang,
  v: AnalysisEvidence,
  a: ReasonSource,
  t: (id: MessageId, p?: Params) => string,
) {
  if (lang === "en") return v.riskReason ? ` ${v.riskReason}` : "";
  const patterns = [...new Set(v.findings.map((f) => f.pattern))].map((p) => patternWord(lang, p));
  let tail = ` ${t("reasons.patterns", { count: patterns.length, patterns: list(lang, patterns) })}`;
  const largest = [...v.exposure].filter((e) => !e.unsolicited).sort((x, y) => y.usd - x.usd)[0];
  if (largest) {
    const labels = new Map((a.evidence.labels ?? []).map((l) => [l.address, l.label]));
    const text = exposureEs({
      category: largest.category,
      direction: largest.direction as "incoming" | "outgoing" | "self",
      hops: largest.hops,
      usd: largest.usd,
      share: largest.share,
      counterparties: largest.counterparties.map((address) => {
        const label = labels.get(address);
        return label === undefined ? { address } : { address, label };
      }),
      via: largest.via,
      txs: largest.txs,
      drivesScore: false,
      ...(largest.sameOwnerAs ? { sameOwnerAs: largest.sameOwnerAs } : {}),
    });
    tail += ` ${t("reasons.exposure", { text })}`;
  }
  return tail;
}

/**
 * One stored verdict's reason in `lang`, beside its level and score: English keeps the risk core's sentence; Spanish
 * names the patterns found and the largest exposure.
 */
export function verdictReason(lang: Lang, v: AnalysisEvidence, alert: ReasonSource): string {
  return verdictTail(lang, v, alert, (id, p) => translate(lang, id, p)).trim();
}

function analysisReason(lang: Lang, a: ReasonSource, t: (id: MessageId, p?: Params) => string): string {
  const v = verdictOf(a);
  if (!v) return otherReason(lang, a);
  const head = t("reasons.analysis", {
    kind: v.kind,
    address: a.address,
    userId: a.userId ?? "—",
    score: v.riskScore,
    level: levelWord(lang, v.riskLevel),
  });
  return head + verdictTail(lang, v, a, t);
}

function rescreenReason(lang: Lang, a: ReasonSource, t: (id: MessageId, p?: Params) => string): string {
  const v = verdictOf(a);
  if (!v) return otherReason(lang, a);
  const label = (a.evidence.labels ?? []).find((l) => a.causeKey === `${l.address}:${l.source}`);
  const level = levelWord(lang, v.riskLevel);
  const head = label
    ? t("reasons.rescreen", {
        labelAddress: label.address,
        label: label.label,
        category: categoryWord(lang, label.category),
        source: label.source ?? "—",
        level,
        score: v.riskScore,
      })
    : t("reasons.rescreen_plain", { level, score: v.riskScore });
  return head + verdictTail(lang, v, a, t);
}

const percent = (lang: Lang, share: number) =>
  new Intl.NumberFormat(LOCALE[lang], { style: "percent", maximumFractionDigits: 0 }).format(share);

/** An alert of the operation rules, from the figures of its latest hit and its operations. */
function operationReason(
  lang: Lang,
  a: ReasonSource,
  timeZone: string,
  t: (id: MessageId, p?: Params) => string,
): string {
  const facts = a.evidence.operationRule?.hits.at(-1);
  const ops = a.evidence.operations ?? [];
  if (!facts || ops.length === 0) return otherReason(lang, a);
  const f = (k: string) => facts[k] ?? "";
  const n = (k: string) => Number(facts[k] ?? 0);
  const userId = a.userId ?? "—";
  switch (a.cause) {
    case "fan_in":
      return t("reasons.fan_in", {
        userId,
        deposits: n("deposits"),
        payers: n("payers"),
        first: when(lang, String(f("first")), timeZone),
        last: when(lang, String(f("last")), timeZone),
        usd: usd(lang, n("depositsUsd")),
        unvalued: n("unvalued"),
        withdrawal: String(f("withdrawal")),
        destination: String(f("destination")),
        withdrawnAt: when(lang, String(f("withdrawnAt")), timeZone),
        minPayers: n("minPayers"),
        windowHours: n("windowHours"),
      });
    case "pass_through":
      return t("reasons.pass_through", {
        userId,
        direction: String(f("direction")),
        inUsd: usd(lang, n("inUsd")),
        outUsd: usd(lang, n("outUsd")),
        hours: n("hours"),
        ratio: percent(lang, n("ratio")),
        minRatio: percent(lang, n("minRatio")),
        windowHours: n("windowHours"),
      });
    case "fiat_structuring":
      return t("reasons.fiat_structuring", {
        userId,
        deposits: n("deposits"),
        windowDays: n("windowDays"),
        band: percent(lang, n("band")),
        threshold: `${f("currency")} ${new Intl.NumberFormat(LOCALE[lang]).format(n("threshold"))}`,
        thresholdName: String(f("thresholdName")),
      });
    case "third_party_funding": {
      // The deposit of the latest hit (its figures name it); older alerts kept only the operations.
      const o =
        ops.find((op) => op.operationId === facts.operationId) ?? (ops.at(-1) as (typeof ops)[number]);
      return t("reasons.third_party_funding", {
        userId,
        amount: `${o.unit} ${o.amount}`,
        at: when(lang, o.at, timeZone),
        payer: String(f("payer")),
        taxId: f("taxId") ? ` (${f("taxId")})` : "",
      });
    }
    case "withdrawal_to_risk":
      return t("reasons.withdrawal_to_risk", {
        userId,
        withdrawal: String(f("withdrawal")),
        destination: String(f("destination")),
        level: levelWord(lang, String(f("level"))),
        score: n("score"),
        funding: n("funding"),
        fundingHours: n("fundingHours"),
        fundingUsd: usd(lang, n("fundingUsd")),
        unvalued: n("unvalued"),
      });
    default:
      return otherReason(lang, a);
  }
}

function otherReason(lang: Lang, a: ReasonSource): string {
  return translate(lang, "reasons.other", {
    cause: causeWord(lang, a.cause),
    level: levelWord(lang, a.level),
  });
}

/**
 * The alert's reason in `lang`; `timeZone` is where the instants it names are read (the jurisdiction's, for an
 * alert with a deadline; UTC otherwise).
 */
export function reasonText(lang: Lang, alert: ReasonSource, timeZone = "UTC"): string {
  const t = (id: MessageId, p?: Params) => translate(lang, id, p);
  switch (alert.cause) {
    case "law":
      return lawReason(lang, alert, t);
    case "person_match":
      return personReason(lang, alert, t);
    case "attempt":
      return attemptReason(lang, alert, timeZone, t);
    case "analysis":
      return analysisReason(lang, alert, t);
    case "rescreen":
      return rescreenReason(lang, alert, t);
    case "fan_in":
    case "pass_through":
    case "fiat_structuring":
    case "third_party_funding":
    case "withdrawal_to_risk":
      return operationReason(lang, alert, timeZone, t);
    default:
      return otherReason(lang, alert);
  }
}
