// A synthetic world of accounts, labels, token transfers and daily prices, built in memory by the pattern
// generators. The devnet plays a world on a real chain; the detection benchmark writes one as an ethereum-etl
// export. Amounts are exact integers in the token's smallest unit; times are unix seconds.
import crypto from "node:crypto";

export type TokenSymbol = "ETH" | "USDV" | "TKN";

export interface TokenSpec {
  symbol: TokenSymbol;
  name: string;
  decimals: number;
  /** USD price; stable for USDV, drifting for the others (see priceOn). */
  basePriceUsd: number;
}

export const TOKENS: Record<TokenSymbol, TokenSpec> = {
  ETH: { symbol: "ETH", name: "Ether", decimals: 18, basePriceUsd: 2500 },
  USDV: { symbol: "USDV", name: "Vigía Dollar", decimals: 6, basePriceUsd: 1 },
  TKN: { symbol: "TKN", name: "Demo Token", decimals: 18, basePriceUsd: 4 },
};

export interface Account {
  name: string;
  address: string;
  /** Present for labelled services and listed addresses. */
  label?: { label: string; category: string };
  /** A contract (written to the export's contracts.csv): pools, routers, payroll and game contracts. */
  contract?: true;
}

export interface PlannedTransfer {
  from: string;
  to: string;
  token: TokenSymbol;
  amount: bigint;
  at: number;
  /**
   * Transfers with the same `tx` are one transaction (a swap through a router and a pool), in the order given:
   * at most one ETH leg (the transaction's own value, sent by its sender), the others token transfers in log order.
   * Absent: a transaction of its own.
   */
  tx?: number;
}

/** A contract event a transaction emits besides its token transfers' (a bridge's deposit or fill), as a log. */
export interface WorldEvent {
  address: string;
  topics: string[];
  data: string;
}

/** What a generator injected and what a detector should (or should not) find there. */
export interface Case {
  id: string;
  pattern: string;
  /** true: the pattern must be reported for `subject`; false: a false friend that must not be. */
  positive: boolean;
  subject: string;
  involved: string[];
  note: string;
  /** Which variant of the generator made it (the benchmark reports recall and false alarms per variant). */
  variant?: string;
  /**
   * Background users: hops to the nearest sanctioned, illicit or mixer address along transfers that follow each
   * other in time, in either direction, not through services (eval/world/distance.ts; undefined: farther than 4)
   */
  distance?: number;
}

export const DAY = 86_400;
export const HOUR = 3_600;

/** The USD price of a token on a day: ETH and TKN drift a little, deterministically; USDV is 1. */
export function priceOn(token: TokenSymbol, at: number): number {
  const spec = TOKENS[token];
  if (token === "USDV") return 1;
  const day = Math.floor(at / DAY);
  return Math.round(spec.basePriceUsd * (1 + 0.05 * Math.sin(day / 9)) * 100) / 100;
}

/** Smallest units worth `usd` dollars of `token` on that day. */
export function unitsForUsd(token: TokenSymbol, usd: number, at: number): bigint {
  const spec = TOKENS[token];
  const units = (usd / priceOn(token, at)) * 10 ** Math.min(spec.decimals, 12);
  return BigInt(Math.round(units)) * 10n ** BigInt(Math.max(0, spec.decimals - 12));
}

/** An exchange's deposit address: which exchange, and the labelled wallet its deposits are swept to. */
export interface DepositOf {
  exchange: string;
  sweepTo: Account;
}

export class World {
  readonly accounts = new Map<string, Account>();
  readonly transfers: PlannedTransfer[] = [];
  readonly cases: Case[] = [];
  /**
   * Exchange deposit addresses by address. They carry no label, as in real label sets (the service must infer
   * them); this is the ground truth the inference is measured against.
   */
  readonly deposits = new Map<string, DepositOf>();
  /** Events of transactions (by their `tx`), logged after the transaction's token transfers, in this order. */
  readonly events = new Map<number, WorldEvent[]>();
  #transactions = 0;

  constructor(readonly namespace: string) {}

  /** The same name always gives the same address within a namespace. */
  account(name: string, label?: { label: string; category: string }): Account {
    const existing = this.accounts.get(name);
    if (existing) return existing;
    const digest = crypto.createHash("sha256").update(`${this.namespace}:${name}`).digest("hex");
    const account: Account = { name, address: `0x${digest.slice(0, 40)}`, ...(label ? { label } : {}) };
    this.accounts.set(name, account);
    return account;
  }

  /** Like account(), for a contract address. */
  contract(name: string, label?: { label: string; category: string }): Account {
    const account = this.account(name, label);
    account.contract = true;
    return account;
  }

  /** Makes `account` a deposit address of `exchange`: what it receives is swept to `sweepTo`. */
  registerDeposit(account: Account, exchange: string, sweepTo: Account): void {
    this.deposits.set(account.address, { exchange, sweepTo });
  }

  /**
   * A transfer. One into a deposit address is swept on to its exchange's wallet whole, 10 minutes to 6 hours
   * later (a delay derived from the address and time, so the same world always has the same sweeps), as exchanges
   * do.
   */
  send(from: Account, to: Account, token: TokenSymbol, amount: bigint, at: number): void {
    if (amount <= 0n) throw new Error(`non-positive amount from ${from.name} to ${to.name}`);
    this.transfers.push({ from: from.address, to: to.address, token, amount, at: Math.floor(at) });
    const deposit = this.deposits.get(to.address);
    if (deposit && from.address !== deposit.sweepTo.address) {
      const digest = crypto
        .createHash("sha256")
        .update(`${to.address}:${Math.floor(at)}`)
        .digest();
      const delay = 600 + (digest.readUInt32BE(0) % (6 * 3_600 - 600));
      this.transfers.push({
        from: to.address,
        to: deposit.sweepTo.address,
        token,
        amount,
        at: Math.floor(at) + delay,
      });
    }
  }

  sendUsd(from: Account, to: Account, token: TokenSymbol, usd: number, at: number): void {
    this.send(from, to, token, unitsForUsd(token, usd, at), at);
  }

  /**
   * One transaction of several transfers, in log order. The first leg's sender sends the transaction; an ETH leg
   * is its value and must be that sender's (a chain's data holds no other native movement of a transaction).
   */
  transaction(
    legs: { from: Account; to: Account; token: TokenSymbol; amount: bigint }[],
    at: number,
    events: WorldEvent[] = [],
  ): void {
    const sender = legs[0]?.from;
    if (!sender) throw new Error("a transaction needs a transfer");
    const native = legs.filter((l) => l.token === "ETH");
    if (native.length > 1 || native.some((l) => l.from !== sender)) {
      throw new Error("a transaction's only native transfer is its value, from its sender");
    }
    const tx = ++this.#transactions;
    if (events.length > 0) this.events.set(tx, events);
    for (const l of legs) {
      if (l.amount <= 0n) throw new Error(`non-positive amount from ${l.from.name} to ${l.to.name}`);
      this.transfers.push({
        from: l.from.address,
        to: l.to.address,
        token: l.token,
        amount: l.amount,
        at: Math.floor(at),
        tx,
      });
    }
  }

  /**
   * A swap through a DEX: `payer` gives `usd` of `give` to the router (its sender), the pool pays `recipient` the
   * same value of `get` less the pool's 0.3% fee, in one transaction. Uniswap V2's shape for an ETH-in swap as the
   * chain's data holds it (the router's WETH to the pool is a token this world has not, and is left out).
   */
  swapUsd(
    payer: Account,
    recipient: Account,
    dex: { router: Account; pool: Account },
    give: TokenSymbol,
    get: TokenSymbol,
    usd: number,
    at: number,
  ): void {
    this.transaction(
      [
        {
          from: payer,
          to: give === "ETH" ? dex.router : dex.pool,
          token: give,
          amount: unitsForUsd(give, usd, at),
        },
        { from: dex.pool, to: recipient, token: get, amount: unitsForUsd(get, usd * 0.997, at) },
      ],
      at,
    );
  }

  addCase(c: Case): void {
    this.cases.push(c);
  }

  labelled(): Account[] {
    return [...this.accounts.values()].filter((a) => a.label);
  }

  contracts(): Account[] {
    return [...this.accounts.values()].filter((a) => a.contract);
  }

  /** Transfers in time order (ties keep insertion order), as a chain would carry them. */
  timeline(): PlannedTransfer[] {
    return this.transfers
      .map((t, i) => ({ t, i }))
      .sort((a, b) => a.t.at - b.t.at || a.i - b.i)
      .map(({ t }) => t);
  }
}

/**
 * The timeline's transfers with the transaction each belongs to: `hashIndex` is the timeline position of the
 * transaction's first transfer (a transaction's hash derives from it, as the writers of a world make them), and
 * `logIndex` -1 for the native value, else the token transfer's position in its transaction.
 */
export function transactionsOf(
  timeline: readonly PlannedTransfer[],
): { t: PlannedTransfer; hashIndex: number; logIndex: number }[] {
  const out: { t: PlannedTransfer; hashIndex: number; logIndex: number }[] = [];
  let open: { tx: number; hashIndex: number; logs: number } | undefined;
  timeline.forEach((t, i) => {
    if (t.tx === undefined) {
      open = undefined;
      out.push({ t, hashIndex: i, logIndex: t.token === "ETH" ? -1 : 0 });
      return;
    }
    if (open?.tx !== t.tx) open = { tx: t.tx, hashIndex: i, logs: 0 };
    out.push({ t, hashIndex: open.hashIndex, logIndex: t.token === "ETH" ? -1 : open.logs++ });
  });
  return out;
}
