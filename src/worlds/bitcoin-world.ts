// A synthetic Bitcoin world: coins, the transactions that spend them, wallets that keep change on fresh addresses
// as Bitcoin wallets do, exchanges that reuse their labelled hot wallet and sweep per-customer deposit addresses,
// labels, daily BTC prices and the cases injected into it. The account worlds (world.ts) move balances between
// addresses; here every payment spends whole coins and returns the rest as change, so a pattern has the shape it
// has on Bitcoin (a peel hop is one transaction with a peel and a fresh change output). Rendered as a bitcoin-etl
// export by render/bitcoin-etl.ts. Amounts are satoshis; times are unix seconds; everything derives from names
// and the caller's seed, so a world is the same on every machine.
import crypto from "node:crypto";
import { bech32 } from "@scure/base";
import type { Case } from "./world.ts";
import { DAY } from "./world.ts";

export const SATS_PER_BTC = 100_000_000n;

export interface BtcCoin {
  txid: string;
  vout: number;
  address: string;
  value: bigint;
}

export interface BtcOutput {
  address: string;
  value: bigint;
}

export interface BtcWorldTx {
  txid: string;
  at: number;
  coinbase: boolean;
  /** the coins it spends */
  inputs: BtcCoin[];
  outputs: BtcOutput[];
}

/** The USD price of one BTC on the day of `at`: about USD 60,000, drifting 5% either way, deterministically. */
export function btcPriceOn(at: number): number {
  const day = Math.floor(at / DAY);
  return Math.round(60_000 * (1 + 0.05 * Math.sin(day / 9)) * 100) / 100;
}

/** The satoshis worth `usd` on the day of `at`. */
export function satsForUsd(usd: number, at: number): bigint {
  return BigInt(Math.round((usd / btcPriceOn(at)) * 1e8));
}

export class BitcoinWorld {
  readonly txs: BtcWorldTx[] = [];
  readonly labels = new Map<string, { label: string; category: string }>();
  readonly cases: Case[] = [];
  readonly #owners = new Map<string, BtcWallet>();
  readonly #agenda: { at: number; run: () => void }[] = [];

  /** `hrp`: the bech32 prefix of the network the world is written for (bcrt: regtest, bc: mainnet). */
  constructor(
    readonly namespace: string,
    readonly hrp: string,
  ) {}

  /** The P2WPKH address of `name`: the same name always gives the same address within a namespace. */
  address(name: string): string {
    const program = crypto.createHash("sha256").update(`${this.namespace}:${name}`).digest().subarray(0, 20);
    return bech32.encode(this.hrp, [0, ...bech32.toWords(program)]);
  }

  label(address: string, label: string, category: string): void {
    this.labels.set(address, { label, category });
  }

  wallet(name: string): BtcWallet {
    return new BtcWallet(this, name);
  }

  /** Makes `wallet` the keeper of the coins paid to `address`. */
  own(address: string, wallet: BtcWallet): void {
    this.#owners.set(address, wallet);
  }

  ownerOf(address: string): BtcWallet | undefined {
    return this.#owners.get(address);
  }

  /** New coins to `address` (a block reward). */
  mine(at: number, address: string, value: bigint): BtcWorldTx {
    return this.transact(at, [], [{ address, value }], true);
  }

  /**
   * A transaction spending `inputs` into `outputs` at `at` (the fee is what the outputs leave); each output becomes
   * a coin of the wallet owning its address.
   */
  transact(at: number, inputs: BtcCoin[], outputs: BtcOutput[], coinbase = false): BtcWorldTx {
    const spent = inputs.reduce((n, c) => n + c.value, 0n);
    const paid = outputs.reduce((n, o) => n + o.value, 0n);
    if (!coinbase && paid > spent) throw new Error(`a transaction pays ${paid} sats from ${spent}`);
    if (outputs.some((o) => o.value <= 0n)) throw new Error("a transaction output of no value");
    const txid = crypto
      .createHash("sha256")
      .update(`${this.namespace}:${this.txs.length}:${at}`)
      .update(JSON.stringify(outputs, (_k, v) => (typeof v === "bigint" ? v.toString() : v)))
      .digest("hex");
    const tx: BtcWorldTx = { txid, at: Math.floor(at), coinbase, inputs, outputs };
    this.txs.push(tx);
    outputs.forEach((o, vout) => {
      this.#owners.get(o.address)?.receive({ txid, vout, address: o.address, value: o.value });
    });
    return tx;
  }

  /**
   * Puts a step on the agenda at its time. Generators lay out their steps in any order; play() runs them in time
   * order, so a coin is always spent after the transaction that made it and each day's sweep takes that day's
   * deposits.
   */
  schedule(at: number, run: () => void): void {
    this.#agenda.push({ at, run });
  }

  /** Runs the agenda in time order (the order scheduled among steps of one second), and empties it. */
  play(): void {
    const steps = this.#agenda.splice(0).map((step, i) => ({ ...step, i }));
    for (const step of steps.sort((a, b) => a.at - b.at || a.i - b.i)) step.run();
  }

  /** The transactions in time order (the order made among those of one second), as blocks would hold them. */
  ordered(): BtcWorldTx[] {
    return this.txs
      .map((tx, i) => ({ tx, i }))
      .sort((a, b) => a.tx.at - b.tx.at || a.i - b.i)
      .map(({ tx }) => tx);
  }
}

export interface PayOptions {
  fee?: bigint;
  /** where change goes: a fresh address of the wallet by default (an exchange's hot wallet reuses its own) */
  changeTo?: string;
  /** spend these coins (all of them) instead of choosing */
  coins?: BtcCoin[];
}

/** A wallet: its coins, and fresh addresses for what it receives and its change. */
export class BtcWallet {
  readonly coins: BtcCoin[] = [];
  readonly addresses: string[] = [];

  constructor(
    readonly world: BitcoinWorld,
    readonly name: string,
  ) {}

  /** A new address of the wallet. */
  fresh(): string {
    const address = this.world.address(`${this.name}.${this.addresses.length}`);
    this.addresses.push(address);
    this.world.own(address, this);
    return address;
  }

  receive(coin: BtcCoin): void {
    this.coins.push(coin);
  }

  balance(): bigint {
    return this.coins.reduce((n, c) => n + c.value, 0n);
  }

  /**
   * Pays `outputs` at `at` from the wallet's largest coins (or `options.coins`), the change (above dust) to a fresh
   * address or `options.changeTo`. Outputs are written in the order given, change last.
   */
  pay(at: number, outputs: BtcOutput[], options: PayOptions = {}): BtcWorldTx {
    const fee = options.fee ?? 2_000n;
    const need = outputs.reduce((n, o) => n + o.value, 0n) + fee;
    const chosen = options.coins ?? this.#choose(need);
    const spent = chosen.reduce((n, c) => n + c.value, 0n);
    if (spent < need) throw new Error(`${this.name} holds ${spent} sats, needs ${need}`);
    for (const coin of chosen) this.coins.splice(this.coins.indexOf(coin), 1);
    const change = spent - need;
    const all =
      change > 1_000n ? [...outputs, { address: options.changeTo ?? this.fresh(), value: change }] : outputs;
    return this.world.transact(at, chosen, all);
  }

  /** Spends every coin of the wallet to `address` (less the fee): a sweep, or a payment of all one holds. */
  sendAll(at: number, address: string, fee = 2_000n): BtcWorldTx {
    const coins = [...this.coins];
    const value = coins.reduce((n, c) => n + c.value, 0n) - fee;
    return this.pay(at, [{ address, value }], { coins, fee });
  }

  #choose(need: bigint): BtcCoin[] {
    const chosen: BtcCoin[] = [];
    let sum = 0n;
    for (const coin of [...this.coins].sort((a, b) => (a.value < b.value ? 1 : a.value > b.value ? -1 : 0))) {
      if (sum >= need) break;
      chosen.push(coin);
      sum += coin.value;
    }
    return chosen;
  }
}

/** An exchange: a labelled hot wallet (one reused address) and a deposit address per customer, swept to it. */
export class BtcExchange {
  readonly hot: BtcWallet;
  readonly hotAddress: string;
  readonly #deposits: BtcWallet;
  readonly #depositOf = new Map<string, string>();

  constructor(
    world: BitcoinWorld,
    readonly name: string,
  ) {
    this.hot = world.wallet(`${name}.hot`);
    this.hotAddress = this.hot.fresh();
    world.label(this.hotAddress, `${name}: hot wallet`, "exchange");
    this.#deposits = world.wallet(`${name}.deposits`);
  }

  /** The customer's deposit address (unlabelled, as exchanges' deposit addresses are in real label sets). */
  depositFor(customer: string): string {
    const known = this.#depositOf.get(customer);
    if (known) return known;
    const address = this.#deposits.fresh();
    this.#depositOf.set(customer, address);
    return address;
  }

  /** Customers' withdrawals in one batch from the hot wallet, its change back to the hot wallet. */
  withdraw(at: number, payouts: BtcOutput[]): BtcWorldTx {
    return this.hot.pay(at, payouts, { changeTo: this.hotAddress, fee: 5_000n });
  }

  /** Every deposit waiting, consolidated into the hot wallet; nothing when none waits. */
  sweep(at: number): BtcWorldTx | undefined {
    if (this.#deposits.coins.length === 0) return undefined;
    return this.#deposits.sendAll(at, this.hotAddress, 1_000n * BigInt(this.#deposits.coins.length));
  }
}
