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
