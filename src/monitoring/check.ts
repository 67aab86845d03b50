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
// The messages (handed to the integrator room's outbox), the laws kept and the valuations they were judged at commit
// with the transfer's `evaluated` mark, and only while this worker holds the transfer's lease (claim.ts): a transfer
// is judged once, by one worker, and a dead worker's transfers are taken over when its lease runs out. Each worker
// checks several users at once (`slots`), each user's transfers in order; a project has at most `perProject` users
// being checked at once, so that a project whose integrator is slow delays only itself.

import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Kysely } from "kysely";
import type pino from "pino";
import { raiseLawAlerts } from "../alerts/index.ts";
import { type AddressCodec, presentAddresses } from "../chains/address/index.ts";
import type { ChainRegistry } from "../chains/index.ts";
import {
  enqueue,
  inflictedLawsOf,
  type NewMessage,
  type ProfileReader,
  type ProfileResult,
  residenceOf,
} from "../integrator/index.ts";
import {
  filingJurisdictions,
  governingJurisdiction,
  type Jurisdiction,
  jurisdiction,
  type Profile,
  ruleBooksOf,
} from "../jurisdictions/index.ts";
import { configDefault } from "../platform/config.ts";
import { zonedDay } from "../platform/time-zone.ts";
import { WorkPump } from "../platform/work-pump.ts";
import { type Compliance, projectCompliance } from "../projects/index.ts";
import {
  type ClientOperation,
  evaluate,
  type InflictedLaw,
  type RuleBook,
  sameOperation,
  usdIn,
  versionOn,
} from "../regulation/index.ts";
import type { DB } from "../schema.ts";
import { claimUsers, renewLeases, type UserClaim } from "./claim.ts";
import { isVasp, type PendingTransfer, readPending, type TransferKey } from "./facts.ts";
import { type BookClock, readClientOperations } from "./operations.ts";

export interface CheckerOptions {
  db: Kysely<DB>;
  registry: ChainRegistry;
  profiles: ProfileReader;
  now: () => number;
  /** users checked at once by this worker */
  slots: number;
  /** users of one project checked at once, by every worker together */
  perProject: number;
  /** transfers of one user claimed at once (checked in order) */
  perUser: number;
  /** how long a claim lasts; renewed while its transfers are checked */
  leaseMs: number;
  pollMs: number;
  /** this worker's name on its leases (host, process and a random part by default) */
  owner: string;
  /** whether a project's transfers wait (its outbox holds its cap of messages) */
  held?: (projectId: number) => Promise<boolean>;
  /** told when messages were handed to the outbox (the deliverer of this process looks at once) */
  onMessages?: () => void;
  log?: pino.Logger;
  /** counts a rule that could not be judged (vigia_rules_unjudged_total), by rule book */
  countUnjudged?: (book: string) => void;
  /** counts a step of the loop that failed (vigia_worker_step_failures_total) */
  countLoopFailure?: (loop: string) => void;
  /** told of each transfer this worker judged and marked (vigia_monitored_transfers_checked_total) */
  onChecked?: (transfer: TransferKey) => void;
  /**
   * the lists of persons the transfer's client is a `match` on (src/screening, wired by the composition root),
   * screening its profile, read through `readProfile`, when it never was; or why it could not be screened
   */
  clientListings?: (
    client: CheckedClient,
    readProfile: () => Promise<ProfileResult>,
  ) => Promise<{ matchedLists: readonly string[] } | { unscreened: string }>;
  /** counts a client that could not be screened (vigia_clients_unscreened_total) */
  countUnscreened?: () => void;
  /** told of a profile read for the laws, so that a client whose profile changed is screened again */
  onProfile?: (client: CheckedClient, profile: Profile) => Promise<void>;
  /**
   * the client's operations inside the exchange of the same months (src/exchange-operations, wired by the
   * composition root): an accumulation adds them with its transfers
   */
  exchangeHistory?: (q: {
    projectId: number;
    userId: string;
    from: Date;
    to: Date;
    books: readonly BookClock[];
  }) => Promise<ClientOperation[]>;
}

/** The client of a checked transfer, and the monitored address it was seen on. */
export interface CheckedClient {
  projectId: number;
  userId: string;
  chainId: number;
  address: string;
  addressId: number;
}

/** The limits of the configuration table (VIGIA_CHECKS_PER_PROCESS, VIGIA_CHECKS_PER_PROJECT), and the lease. */
export const DEFAULT_CHECKER = {
  slots: configDefault("VIGIA_CHECKS_PER_PROCESS"),
  perProject: configDefault("VIGIA_CHECKS_PER_PROJECT"),
  perUser: 20,
  leaseMs: 60_000,
  pollMs: 1_000,
};

/** How far back a client's history is read: the longest accumulation (Mexico's six months), with a month to spare. */
const HISTORY_MONTHS = 7;

/** How often a user that cannot be screened is logged. */
const UNSCREENED_LOG_MS = 3600_000;

/** The transfer was taken over by another worker (this one's lease ran out): nothing of its check is kept. */
class LeaseLost extends Error {}

export class TransferChecker {
  readonly #o: CheckerOptions;
  readonly #pump: WorkPump<UserClaim>;
  /** when each unscreened user was last logged */
  readonly #unscreenedLogged = new Map<string, number>();

  constructor(options: Partial<CheckerOptions> & Pick<CheckerOptions, "db" | "registry" | "profiles">) {
    this.#o = {
      now: Date.now,
      owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      ...DEFAULT_CHECKER,
      ...options,
    };
    this.#pump = new WorkPump({
      slots: this.#o.slots,
      pollMs: this.#o.pollMs,
      claim: (free) => this.#claim(free),
      run: async (claim) => {
        await this.#checkUser(claim);
      },
      onError: (step, error) => {
        this.#o.log?.error(
          { err: error, step },
          `transfer checker: ${step === "claim" ? "the claim of pending transfers" : "a user's check"} failed: ${(error as Error).message}`,
        );
        this.#o.countLoopFailure?.("checker");
      },
    });
  }

  #claim(free: number): Promise<UserClaim[]> {
    const o = this.#o;
    return claimUsers(o.db, new Date(o.now()), {
      users: free,
      perProject: o.perProject,
      perUser: o.perUser,
      leaseMs: o.leaseMs,
      owner: o.owner,
      ...(o.held ? { held: o.held } : {}),
    });
  }

  /** Claims what it may now and checks it, waiting for every user: how many transfers were checked. */
  async runOnce(): Promise<number> {
    const claims = await this.#claim(this.#o.slots);
    const checked = await Promise.all(claims.map((claim) => this.#checkUser(claim)));
    return checked.reduce((a, b) => a + b, 0);
  }

  /** Checks until stopped, each user as soon as a slot is free. */
  start(): void {
    this.#pump.start();
  }

  /** Looks for pending transfers now. */
  wake(): void {
    this.#pump.wake();
  }

  stop(): Promise<void> {
    return this.#pump.stop();
  }

  /** Checks a user's claimed transfers in order; how many were checked. */
  async #checkUser(claim: UserClaim): Promise<number> {
    const o = this.#o;
    const compliance = await projectCompliance(o.db, claim.projectId);
    const pending = await readPending(o.db, claim.transfers);
    let leaseFrom = o.now();
    let checked = 0;
    for (const [i, transfer] of pending.entries()) {
      // The lease is renewed once half of it has passed: a slow profile read must not let it run out.
      if (o.now() - leaseFrom > o.leaseMs / 2) {
        leaseFrom = o.now();
        const rest = pending.slice(i);
        if ((await renewLeases(o.db, rest, o.owner, new Date(leaseFrom + o.leaseMs))) === 0) break;
      }
      try {
        await this.#check(transfer, compliance);
        checked++;
      } catch (error) {
        if (!(error instanceof LeaseLost)) throw error;
        o.log?.warn(
          { projectId: transfer.projectId, txHash: transfer.txHash, owner: o.owner },
          "transfer checker: the lease of a transfer ran out and another worker took it over; this check is dropped",
        );
        break;
      }
    }
    return checked;
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
    const exchange =
      (await this.#o.exchangeHistory?.({
        projectId: t.projectId,
        userId: t.foreignUserId,
        from: since,
        to: new Date(t.blockTime.getTime() + 1),
        books: books.map(({ code, timeZone, currency }) => ({ code, timeZone, currency })),
      })) ?? [];
    return { current, history: [...operations.filter((op) => !sameOperation(op, current)), ...exchange] };
  }

  /**
   * The lists the client is a match on; or, when it could not be screened, why (logged and counted): the rules on
   * the client's lists are then left unjudged, never taken as not met.
   */
  async #clientLists(
    t: PendingTransfer,
    client: CheckedClient,
    readProfile: () => Promise<ProfileResult>,
  ): Promise<readonly string[] | string | undefined> {
    if (!this.#o.clientListings) return undefined;
    const listed = await this.#o.clientListings(client, readProfile);
    if ("matchedLists" in listed) return listed.matchedLists;
    this.#o.countUnscreened?.();
    // Counted every time, logged once an hour per user: a project without an integrator would fill the log.
    const who = `${t.projectId}:${t.foreignUserId}`;
    const now = this.#o.now();
    if ((this.#unscreenedLogged.get(who) ?? 0) < now - UNSCREENED_LOG_MS) {
      if (this.#unscreenedLogged.size >= 10_000) this.#unscreenedLogged.clear();
      this.#unscreenedLogged.set(who, now);
      this.#o.log?.warn(
        { projectId: t.projectId, userId: t.foreignUserId, txHash: t.txHash },
        `user ${t.foreignUserId} was not screened against the lists of persons: ${listed.unscreened}; rules on the client's lists are left unjudged, and the user is tried again at its next transfer`,
      );
    }
    return listed.unscreened;
  }

  async #check(t: PendingTransfer, compliance: Compliance): Promise<void> {
    const { db } = this.#o;
    // 1. The operation and the client's history, valued by every rule book of the project.
    const books: RuleBook[] = ruleBooksOf(compliance.jurisdictions);
    const { current, history } = await this.#operations(t, books);
    // The profile is read at most once per transfer: for the screening of a client never screened, and for the
    // governing jurisdiction below.
    let read: Promise<ProfileResult> | undefined;
    const readProfile = () => {
      read ??= this.#o.profiles.read(t.projectId, t.foreignUserId);
      return read;
    };
    const client: CheckedClient = {
      projectId: t.projectId,
      userId: t.foreignUserId,
      chainId: t.chainId,
      address: t.address,
      addressId: t.addressId,
    };
    // A movement between the client's own addresses is judged by no rule: its client is not screened for it.
    const clientLists = current.internal ? undefined : await this.#clientLists(t, client, readProfile);
    // Where the client lives, only for a book with a rule on it (Mexico's high-risk jurisdictions): the profile is
    // then read, as for the governing jurisdiction.
    const clientResidence =
      current.internal || !books.some((b) => judgesResidence(b, current.valuations[b.code]?.day))
        ? undefined
        : residenceOf(await readProfile());
    const counterparty = {
      category: t.counterpartyCategory,
      vasp: await isVasp(db, t),
      ...(clientLists === undefined ? {} : { clientLists }),
      ...(clientResidence === undefined ? {} : { clientResidence }),
    };
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
    const profile: ProfileResult | undefined = countryHits.length > 0 ? await readProfile() : undefined;
    if (profile?.ok && this.#o.onProfile) await this.#o.onProfile(client, profile.profile);
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
    // Those filing the client by nationality too (`alsoByNationality`) keep their laws beside the governing one's.
    const filing = profile?.ok
      ? filingJurisdictions(
          compliance.jurisdictions,
          compliance.clientJurisdiction,
          profile.profile,
          current.addressJurisdiction,
        )
      : governing
        ? [governing]
        : [];
    const kept = verdicts.filter(
      (v) => v.book.countryCode === null || governing === undefined || filing.includes(v.book.code),
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
      messages.push(errorOf(t, `${problem}. It blocks ${blocked}`, this.#o.registry.codec(t.chainId)));
      this.#o.log?.warn(
        { projectId: t.projectId, userId: t.foreignUserId, txHash: t.txHash },
        `profile of user ${t.foreignUserId}: ${problem}; it blocks ${blocked}`,
      );
    }

    // 5. The messages, the laws kept and the valuations, with the transfer's mark, at once, under this worker's
    // lease: a transfer another worker took over is not marked twice, nor notified twice.
    await db.transaction().execute(async (trx) => {
      const mark = await trx
        .updateTable("monitored_transfers")
        .set({
          status: "evaluated",
          evaluated_at: new Date(this.#o.now()),
          // what the reports cite (src/reports): the rules infringed, at these valuations
          laws: laws.map((l) => l.id),
          unjudged: unjudged.length > 0 ? unjudged.map((u) => u.id) : null,
          valuations: JSON.stringify(current.valuations),
          lease_until: null,
        })
        .where("address_id", "=", String(t.addressId))
        .where("chain_id", "=", t.chainId)
        .where("tx_hash", "=", t.txHash)
        .where("log_index", "=", t.logIndex)
        .where("status", "=", "pending")
        .where("lease_owner", "=", this.#o.owner)
        .executeTakeFirst();
      if (Number(mark.numUpdatedRows) === 0) throw new LeaseLost();
      const ids: number[] = [];
      for (const message of messages) {
        const id = await enqueue(trx, message, new Date(this.#o.now()));
        if (id !== undefined) ids.push(id);
      }
      if (ids[0] !== undefined)
        await trx
          .updateTable("monitored_transfers")
          .set({ notification_id: String(ids[0]) })
          .where("address_id", "=", String(t.addressId))
          .where("chain_id", "=", t.chainId)
          .where("tx_hash", "=", t.txHash)
          .where("log_index", "=", t.logIndex)
          .execute();
      // The officer's alerts (src/alerts): illegal hits, and the warn rules the project lists.
      if (laws.length > 0) await raiseLawAlerts(trx, alertInput(t, current, laws, ids[0], this.#o.now()));
    });
    this.#o.onChecked?.(t);
    if (messages.length > 0) this.#o.onMessages?.();
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
    // The integrator reads addresses as the chain writes them (Tron: base58check), as in every API answer.
    body: presentAddresses(
      {
        type: "notification",
        data: {
          projectId: t.projectId,
          chainId: t.chainId,
          address: {
            id: t.addressId,
            userId: t.foreignUserId,
            address: t.address,
            description: t.description,
          },
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
          inflictedLaws: inflictedLawsOf(laws),
          direction: op.direction,
          counterparty: op.counterparty,
        },
      },
      (id) => registry.codec(id),
      registry.codec(t.chainId),
    ) as NewMessage["body"],
  };
}

/** What the alerts room needs of a checked transfer and its law hits. */
function alertInput(
  t: PendingTransfer,
  op: ClientOperation,
  laws: InflictedLaw[],
  notificationId: number | undefined,
  now: number,
) {
  const usd = usdIn(op, "XB");
  return {
    projectId: t.projectId,
    chainId: t.chainId,
    address: t.address,
    addressId: t.addressId,
    userId: t.foreignUserId,
    notificationId: notificationId ?? null,
    transfer: {
      txHash: t.txHash,
      logIndex: t.logIndex,
      at: t.blockTime.toISOString(),
      usd: usd === null ? null : Math.round(usd * 100) / 100,
      direction: op.direction,
      counterparty: op.counterparty,
    },
    laws,
    now: new Date(now),
  };
}

function errorOf(t: PendingTransfer, reason: string, codec: AddressCodec): NewMessage {
  return {
    projectId: t.projectId,
    type: "error",
    transfer: { addressId: t.addressId, chainId: t.chainId, txHash: t.txHash, logIndex: t.logIndex },
    body: {
      type: "error",
      data: `User ${t.foreignUserId} (address ${codec.present(t.address)}, address id ${t.addressId}), transaction ${t.txHash} on chain ${t.chainId}: ${reason}`,
    },
  };
}

/** Whether a rule book has a rule on the client's country of residence in force on the operation's day there. */
const judgesResidence = (book: RuleBook, day: string | undefined) =>
  day !== undefined && book.rules.some((r) => versionOn(r, day)?.check.kind === "high-risk-residence");
