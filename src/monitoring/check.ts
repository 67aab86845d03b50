// Checks the recorded transfers of monitored addresses (watch.ts) against the rule books of their project: each
// enabled jurisdiction's and the international rules (src/jurisdictions, judged by src/regulation's one loop), with
// the client's earlier operations for the accumulations. Then:
//  - the country laws kept are those of the jurisdiction that governs the client (the address's `jurisdiction`,
//    else the profile's country: src/jurisdictions/governing.ts); while the profile can't be read, those of every
//    enabled jurisdiction;
//  - a transfer that infringes any law is always notified (`type: notification` with its `inflictedLaws`), whether
//    or not the profile could be read;
//  - a profile that can't be read, or lacks what the governing jurisdiction's files need, also sends its own
//    `type: error` naming the user, the field and the files it blocks.
// The messages, the laws kept and the valuations they were judged at commit with the transfer's `evaluated` mark;
// the outbox holds one message of each type per address and transfer, so two checkers racing make one of each.
import type { Kysely } from "kysely";
import type pino from "pino";
import type { ChainRegistry } from "../chains/index.ts";
import {
  governingJurisdiction,
  type Jurisdiction,
  jurisdiction,
  ruleBooksOf,
} from "../jurisdictions/index.ts";
import {
  type Compliance,
  type Integration,
  type KeysContext,
  projectCompliance,
  projectIntegration,
} from "../keys/index.ts";
import { enqueue, type NewMessage } from "../notifications/index.ts";
import { PollingLoop } from "../platform/polling.ts";
import { zonedDay } from "../platform/time-zone.ts";
import {
  type ClientOperation,
  evaluate,
  type InflictedLaw,
  type RuleBook,
  sameOperation,
  usdIn,
} from "../regulation/index.ts";
import type { DB } from "../schema.ts";
import { isVasp, type PendingTransfer, readPending } from "./facts.ts";
import { readClientOperations } from "./operations.ts";
import type { ProfileReader, ProfileResult } from "./profile-reader.ts";

interface ProjectSettings {
  compliance: Compliance;
  integration: Integration;
}

export interface CheckerOptions {
  db: Kysely<DB>;
  keys: KeysContext;
  registry: ChainRegistry;
  profiles: ProfileReader;
  now: () => number;
  batch: number;
  pollMs: number;
  log?: pino.Logger;
  /** counts a rule that could not be judged (vigia_rules_unjudged_total), by rule book */
  countUnjudged?: (book: string) => void;
}

/** How far back a client's history is read: the longest accumulation (Mexico's six months), with a month to spare. */
const HISTORY_MONTHS = 7;

export class TransferChecker {
  readonly #o: CheckerOptions;
  readonly #loop: PollingLoop;

  constructor(
    options: Partial<CheckerOptions> & Pick<CheckerOptions, "db" | "keys" | "registry" | "profiles">,
  ) {
    this.#o = { now: Date.now, batch: 50, pollMs: 1_000, ...options };
    this.#loop = new PollingLoop(
      () => this.runOnce(),
      this.#o.batch,
      this.#o.pollMs,
      (error) => this.#o.log?.error({ err: error }, `transfer checker: ${(error as Error).message}`),
    );
  }

  /** Checks one batch of recorded transfers; how many were checked. */
  async runOnce(): Promise<number> {
    const pending = await readPending(this.#o.db, this.#o.batch);
    // A batch is mostly one project's transfers: its settings and integration are read once.
    const projects = new Map<number, Promise<ProjectSettings>>();
    const settingsOf = (projectId: number) => {
      let found = projects.get(projectId);
      if (!found) {
        found = Promise.all([
          projectCompliance(this.#o.db, projectId),
          projectIntegration(this.#o.keys, projectId, new Date(this.#o.now())),
        ]).then(([compliance, integration]) => ({ compliance, integration }));
        projects.set(projectId, found);
      }
      return found;
    };
    for (const transfer of pending) await this.#check(transfer, settingsOf);
    return pending.length;
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** The transfer as a client operation, and the client's other operations of the months an accumulation reaches. */
  async #operations(
    t: PendingTransfer,
    books: readonly RuleBook[],
  ): Promise<{ current: ClientOperation; history: ClientOperation[] }> {
    const since = new Date(t.blockTime);
    since.setUTCMonth(since.getUTCMonth() - HISTORY_MONTHS);
    const operations = await readClientOperations(this.#o.db, this.#o.registry, {
      projectId: t.projectId,
      userId: t.foreignUserId,
      from: since,
      to: new Date(t.blockTime.getTime() + 1),
      status: "recorded",
      books: books.map(({ code, timeZone, currency }) => ({ code, timeZone, currency })),
    });
    const current = operations.find(
      (op) =>
        op.addressId === t.addressId &&
        op.chainId === t.chainId &&
        op.txHash === t.txHash &&
        op.logIndex === t.logIndex,
    );
    if (!current) throw new Error(`transfer ${t.txHash} of address ${t.addressId} is not readable`);
    return { current, history: operations.filter((op) => !sameOperation(op, current)) };
  }

  async #check(
    t: PendingTransfer,
    settingsOf: (projectId: number) => Promise<ProjectSettings>,
  ): Promise<void> {
    const { db } = this.#o;
    const { compliance, integration } = await settingsOf(t.projectId);
    // 1. The operation and the client's history, valued by every rule book of the project.
    const books: RuleBook[] = ruleBooksOf(compliance.jurisdictions);
    const { current, history } = await this.#operations(t, books);
    const counterparty = { category: t.counterpartyCategory, vasp: await isVasp(db, t) };
    // 2. Every book's verdict.
    // A movement between two of the client's own addresses is no operation with anyone: it meets no rule. Each
    // book adds up the client's operations it may govern (not those of an address registered under another).
    const verdicts = current.internal
      ? []
      : books.map((book) => ({
          book,
          ...evaluate(
            book,
            current,
            history.filter((op) => op.addressJurisdiction === null || op.addressJurisdiction === book.code),
            counterparty,
            compliance.settings[book.code],
          ),
        }));
    const unjudged = verdicts.flatMap((v) => v.unjudged);
    for (const v of verdicts)
      for (const u of v.unjudged) {
        this.#o.countUnjudged?.(v.book.code);
        this.#o.log?.warn(
          { projectId: t.projectId, txHash: t.txHash, rule: u.id },
          `rule ${u.id} not judged: ${u.reason}`,
        );
      }

    // 3. Which jurisdiction's laws apply needs the profile, when a country law was met.
    const countryHits = verdicts.filter((v) => v.book.countryCode !== null && v.laws.length > 0);
    // Read even without an integration_url: the reader says it has none, and the error waits in the outbox.
    const profile: ProfileResult | undefined =
      countryHits.length > 0
        ? await this.#o.profiles.read(t.projectId, integration, t.foreignUserId)
        : undefined;
    const governing = profile?.ok
      ? governingJurisdiction(
          compliance.jurisdictions,
          compliance.clientJurisdiction,
          profile.profile,
          current.addressJurisdiction,
        )
      : current.addressJurisdiction !== null
        ? governingJurisdiction(compliance.jurisdictions, null, undefined, current.addressJurisdiction)
        : undefined;
    const kept = verdicts.filter(
      (v) => v.book.countryCode === null || governing === undefined || v.book.code === governing,
    );
    const laws = kept.flatMap((v) => v.laws);

    // 4. The messages: every law hit, and every profile problem.
    const messages: NewMessage[] = [];
    if (laws.length > 0) messages.push(notificationOf(t, current, this.#o.registry, laws));
    // The files at stake: the governing jurisdiction's; where none governs, those the laws met would have made.
    const blocked = blockedFiles(
      governing === null ? countryHits : kept.filter((v) => v.book.countryCode !== null && v.laws.length > 0),
      current,
    );
    const problem = profileProblem(profile, governing, kept);
    if (problem && blocked) {
      messages.push(errorOf(t, `${problem}. It blocks ${blocked}`));
      this.#o.log?.warn(
        { projectId: t.projectId, userId: t.foreignUserId, txHash: t.txHash },
        `profile of user ${t.foreignUserId}: ${problem}; it blocks ${blocked}`,
      );
    }

    // 5. The messages, the laws kept and the valuations, with the transfer's mark, at once.
    await db.transaction().execute(async (trx) => {
      const ids: number[] = [];
      for (const message of messages) {
        const id = await enqueue(trx, message, new Date(this.#o.now()));
        if (id !== undefined) ids.push(id);
      }
      await trx
        .updateTable("monitored_transfers")
        .set({
          status: "evaluated",
          evaluated_at: new Date(this.#o.now()),
          // what the reports cite (src/reports): the rules infringed, at these valuations
          laws: laws.map((l) => l.id),
          unjudged: unjudged.length > 0 ? unjudged.map((u) => u.id) : null,
          valuations: JSON.stringify(current.valuations),
          ...(ids[0] !== undefined ? { notification_id: String(ids[0]) } : {}),
        })
        .where("address_id", "=", String(t.addressId))
        .where("chain_id", "=", t.chainId)
        .where("tx_hash", "=", t.txHash)
        .where("log_index", "=", t.logIndex)
        .where("status", "=", "pending")
        .execute();
    });
  }
}

/** Why the profile keeps the governing jurisdiction's files from being built, naming the field; or undefined. */
function profileProblem(
  profile: ProfileResult | undefined,
  governing: string | null | undefined,
  kept: { book: RuleBook; laws: InflictedLaw[] }[],
): string | undefined {
  if (profile === undefined) return undefined;
  if (!profile.ok) return `the user's profile could not be read (${profile.reason})`;
  if (governing === null)
    return "no jurisdiction of the project governs the client (profile fields `address.country` and `nationality` name none of them, and the project sets no `client_jurisdiction.otherwise`): its operations are reported nowhere. Complete the profile, or register the address with `jurisdiction`";
  const j = governing ? jurisdiction(governing) : undefined;
  if (!j || !kept.some((v) => v.book.code === j.code && v.laws.length > 0)) return undefined;
  const gap = j.profileGap(profile.profile);
  return gap ? `profile field \`${gap.field ?? "profile"}\`: ${gap.reason}` : undefined;
}

/** The files a profile problem blocks, as a person reads them: "México's files of 2026-05 (MX-AVISO)". */
function blockedFiles(
  hits: { book: RuleBook; laws: InflictedLaw[] }[],
  op: ClientOperation,
): string | undefined {
  if (hits.length === 0) return undefined;
  return hits
    .map(({ book, laws }) => {
      const j = book as Jurisdiction;
      const period = zonedDay(op.blockTime, j.timeZone).slice(0, 7);
      return `${j.name}'s files of ${period} (${laws.map((l) => l.id).join(", ")})`;
    })
    .join("; ");
}

/** The notification body of the Events contract, with a few fields beyond it (direction, counterparty, decimal). */
function notificationOf(
  t: PendingTransfer,
  op: ClientOperation,
  registry: ChainRegistry,
  laws: InflictedLaw[],
): NewMessage {
  const chain = registry.get(t.chainId);
  const native = op.token === "native";
  const usd = usdIn(op, "XB");
  return {
    projectId: t.projectId,
    type: "notification",
    transfer: { addressId: t.addressId, chainId: t.chainId, txHash: t.txHash, logIndex: t.logIndex },
    body: {
      type: "notification",
      data: {
        projectId: t.projectId,
        chainId: t.chainId,
        address: { id: t.addressId, userId: t.foreignUserId, address: t.address, description: t.description },
        txHash: t.txHash,
        timestamp: t.blockTime.toISOString(),
        // A wei amount overflows a JSON number's precision: `valueDecimal` carries it exactly.
        amount: {
          value: Number(op.value),
          valueDecimal: op.value.toString(),
          usd: usd === null ? null : Math.round(usd * 100) / 100,
        },
        token: {
          name: native ? (chain?.currency_symbol ?? "ETH") : op.tokenName,
          symbol: op.symbol,
          decimals: op.decimals,
          address: native ? null : op.token,
        },
        inflictedLaws: laws.map((l) => ({
          name: l.name,
          description: l.description,
          source: l.source,
          risk: l.risk,
          country: l.country,
          countryCode: l.countryCode,
          id: l.id,
          verified: l.verified,
        })),
        direction: op.direction,
        counterparty: op.counterparty,
      },
    },
  };
}

function errorOf(t: PendingTransfer, reason: string): NewMessage {
  return {
    projectId: t.projectId,
    type: "error",
    transfer: { addressId: t.addressId, chainId: t.chainId, txHash: t.txHash, logIndex: t.logIndex },
    body: {
      type: "error",
      data: `User ${t.foreignUserId} (address ${t.address}, address id ${t.addressId}), transaction ${t.txHash} on chain ${t.chainId}: ${reason}`,
    },
  };
}
