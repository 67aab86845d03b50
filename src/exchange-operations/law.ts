// The exchange's new operations judged by the law, as the transfer checker judges a transfer (src/monitoring):
// each by every rule book of the project (its jurisdictions' and the international one) with the client's other
// operations of the months an accumulation reaches, on chain and off; the country laws kept are those of the
// jurisdiction that governs the client (its profile), or, while the profile cannot be read, those of every enabled
// jurisdiction. Each operation's laws, unjudged rules and valuations are recorded with it (the reports cite them);
// an operation that met a law is notified to the integrator (`type: notification`, with `operation` in place of a
// transfer) and raises the officer's alerts as a transfer's would. All in the caller's transaction: an operation is
// judged once.
import type { Kysely } from "kysely";
import type pino from "pino";
import { type CheckedTransferAlerts, raiseClientLawAlerts } from "../alerts/index.ts";
import type { ChainRegistry } from "../chains/index.ts";
import { enqueue, inflictedLawsOf, type ProfileResult, residenceOf } from "../integrator/index.ts";
import { filingJurisdictions, governingJurisdiction, ruleBooksOf } from "../jurisdictions/index.ts";
import { labelCategoriesOf } from "../ledger/index.ts";
import { readClientOperations } from "../monitoring/index.ts";
import type { Compliance } from "../projects/index.ts";
import {
  type ClientOperation,
  evaluate,
  type InflictedLaw,
  type RuleBook,
  sameOperation,
  usdIn,
  wholeTokens,
} from "../regulation/index.ts";
import type { DB } from "../schema.ts";
import { asClientOperations } from "./law-operations.ts";
import { heldForLaw, type LawVerdictRow, recordLaws } from "./store.ts";

/** How far back a client's history is read: the longest accumulation (Mexico's six months), with a month to spare. */
const HISTORY_MONTHS = 7;

export interface LawStep {
  registry: ChainRegistry;
  natives: ReadonlyMap<string, readonly number[]>;
  log?: pino.Logger;
}

export interface LawOutcome {
  /** operations that met a law */
  met: number;
  /** messages handed to the outbox */
  messages: number;
  /** rules that could not be judged, by rule book, once per operation */
  unjudged: { book: string; rule: string }[];
  /** the alerts the laws met call for, raised by raiseLawHits once everything else is written */
  alerts: CheckedTransferAlerts[];
}

/** Judges the client's fresh operations (ids) in order, in `trx`. */
export async function judgeLaws(
  trx: Kysely<DB>,
  step: LawStep,
  c: { projectId: number; userId: string },
  fresh: ReadonlySet<string>,
  /** when the fresh operations were concluded (the history read reaches seven months before the first) */
  freshTimes: readonly number[],
  compliance: Compliance,
  profile: ProfileResult | null,
  /** the lists the client is a match on, or why it could not be screened; undefined: no screening wired */
  clientLists: readonly string[] | string | undefined,
  now: Date,
): Promise<LawOutcome> {
  const outcome: LawOutcome = { met: 0, messages: 0, unjudged: [], alerts: [] };
  const books: RuleBook[] = ruleBooksOf(compliance.jurisdictions);
  const clocks = books.map(({ code, timeZone, currency }) => ({ code, timeZone, currency }));
  if (freshTimes.length === 0) return outcome;
  const since = new Date(Math.min(...freshTimes));
  since.setUTCMonth(since.getUTCMonth() - HISTORY_MONTHS);
  const until = new Date(Math.max(...freshTimes) + 1);
  const inWindow = await heldForLaw(trx, {
    projectId: c.projectId,
    userId: c.userId,
    from: since,
    to: until,
    status: "recorded",
  });
  const exchange = await asClientOperations(trx, c.projectId, inWindow, clocks, step.natives);
  const transfers = await readClientOperations(trx, step.registry, {
    projectId: c.projectId,
    userId: c.userId,
    from: since,
    to: until,
    status: "recorded",
    books: clocks,
  });
  const all = [...transfers, ...exchange];
  const idOf = new Map(inWindow.map((h) => [`op:${h.item.operationId}`, h.id]));
  const isFresh = (op: ClientOperation) => op.exchange !== undefined && fresh.has(idOf.get(op.txHash) ?? "");
  const governing = profile?.ok
    ? governingJurisdiction(compliance.jurisdictions, compliance.clientJurisdiction, profile.profile, null)
    : undefined;
  const filing = profile?.ok
    ? filingJurisdictions(compliance.jurisdictions, compliance.clientJurisdiction, profile.profile, null)
    : [];
  // In time order, each seeing the verdicts of those judged before it (an accumulation starts again after an aviso).
  const order = exchange.filter(isFresh).sort((a, b) => a.blockTime.getTime() - b.blockTime.getTime());
  // The crypto movements' other parties by their labels, read at once for the client's fresh operations.
  const categories = await labelCategoriesOf(
    trx,
    order.flatMap((op) =>
      op.exchange?.chainId !== undefined && op.counterparty
        ? [{ chainId: op.exchange.chainId, address: op.counterparty }]
        : [],
    ),
  );
  // The verdicts are written at once after the loop (each operation's judgement reads those before it from memory).
  const judged: LawVerdictRow[] = [];
  for (const current of order) {
    const history = all.filter((op) => !sameOperation(op, current));
    // What is known of the other party: a crypto movement's address by its labels (a sanctioned destination meets
    // the 24-hour rules as a transfer's would); the client's lists its screening's (a client that could not be
    // screened leaves those rules unjudged, never clear); its residence its profile's.
    const chainId = current.exchange?.chainId;
    const category =
      chainId !== undefined && current.counterparty
        ? categories.get(`${chainId}|${current.counterparty}`)
        : undefined;
    const counterparty = {
      category,
      vasp: category === "exchange",
      ...(clientLists === undefined ? {} : { clientLists }),
      clientResidence: residenceOf(profile),
    };
    const verdicts = books.map((book) => ({
      book,
      ...evaluate(
        book,
        current,
        history.filter((op) => op.addressJurisdiction === null || op.addressJurisdiction === book.code),
        counterparty,
        compliance.settings[book.code],
      ),
    }));
    const kept = verdicts.filter(
      (v) => v.book.countryCode === null || governing === undefined || filing.includes(v.book.code),
    );
    const laws = kept.flatMap((v) => v.laws);
    const unjudged = verdicts.flatMap((v) => v.unjudged.map((u) => ({ book: v.book.code, ...u })));
    for (const u of unjudged) {
      outcome.unjudged.push({ book: u.book, rule: u.id });
      step.log?.warn(
        { projectId: c.projectId, operationId: current.exchange?.operationId, rule: u.id },
        `rule ${u.id} not judged for operation ${current.exchange?.operationId}: ${u.reason}`,
      );
    }
    current.laws = laws.map((l) => l.id);
    current.unjudged = unjudged.length > 0 ? unjudged.map((u) => u.id) : null;
    const id = idOf.get(current.txHash) as string;
    judged.push({
      id,
      laws: current.laws,
      unjudged: unjudged.map((u) => u.id),
      valuations: { ...current.valuations },
    });
    if (laws.length === 0) continue;
    outcome.met += 1;
    const notificationId = await enqueue(trx, notificationOf(c.projectId, current, laws), now);
    if (notificationId !== undefined) outcome.messages += 1;
    outcome.alerts.push({
      projectId: c.projectId,
      chainId: 0,
      address: "",
      addressId: null,
      ofClient: true,
      userId: c.userId,
      notificationId: notificationId ?? null,
      transfer: {
        txHash: current.txHash,
        logIndex: 0,
        at: current.blockTime.toISOString(),
        usd: roundedUsd(current),
        direction: current.direction,
        counterparty: current.counterparty || null,
      },
      laws,
      now,
    });
  }
  await recordLaws(trx, judged);
  return outcome;
}

/**
 * Raises the alerts the laws call for, in the caller's transaction: last of its work, since raising an alert holds
 * the project's audit chain until the transaction ends.
 */
export async function raiseLawHits(trx: Kysely<DB>, outcome: LawOutcome): Promise<void> {
  // One client's operations: each rule met raises (or extends) its alert once, with every operation that met it.
  await raiseClientLawAlerts(trx, outcome.alerts);
}

const roundedUsd = (op: ClientOperation) => {
  const usd = usdIn(op, "XB");
  return usd === null ? null : Math.round(usd * 100) / 100;
};

/** The notification of an exchange operation that met laws: as a transfer's, with `operation` in place of it. */
function notificationOf(projectId: number, op: ClientOperation, laws: InflictedLaw[]) {
  const e = op.exchange;
  return {
    projectId,
    type: "notification" as const,
    body: {
      type: "notification",
      data: {
        projectId,
        operation: {
          operationId: e?.operationId,
          userId: op.userId,
          kind: e?.kind,
          at: op.blockTime.toISOString(),
          amount: {
            value: wholeTokens(op.value, op.decimals),
            unit: op.symbol,
            usd: roundedUsd(op),
          },
        },
        timestamp: op.blockTime.toISOString(),
        inflictedLaws: inflictedLawsOf(laws),
      },
    },
  };
}
