// The exchange's operations as the law engine and the reports see a client's operations (src/regulation's
// ClientOperation): each valued by every rule book asked for on its own day in the book's time zone (its unit's USD
// value that day: a fiat currency at the day's rate, an asset at its symbol's price or a stablecoin's peg; and the
// book's currency rate), its type of act (a buy is a `compra`, fiat in `fondos_depositados`...), and what the AVI's
// blocks need of it (`exchange`). An operation already judged carries the valuations it was judged at, which win, so
// that a report cites what was judged. Custody snapshots are no operations; a crypto deposit or withdrawal that the
// chain monitoring also recorded (the same transaction, a monitored address of the client) is that transfer, judged
// once as the transfer.
import type { Kysely } from "kysely";
import { usdPerUnit } from "../ledger/index.ts";
import { type CheckedTransfer, monitoredTxHashes, RATE_DAYS } from "../monitoring/index.ts";
import { zonedDay } from "../platform/time-zone.ts";
import {
  type ClientOperation,
  type ExchangeDetail,
  type OperationAct,
  operationTxHash,
  type Valuation,
} from "../regulation/index.ts";
import type { DB } from "../schema.ts";
import type { OperationItem } from "./schemas.ts";
import { type HeldQuery, heldForLaw, operationsMeeting } from "./store.ts";
import { unitOf } from "./units.ts";

export interface LawBook {
  code: string;
  timeZone: string;
  currency: string;
}

export interface HeldForLaw {
  id: string;
  item: OperationItem;
  laws: string[] | null;
  unjudged: string[] | null;
  valuations: Record<string, Valuation> | null;
}

const ACTS: Partial<Record<OperationItem["kind"], { act: OperationAct; direction: "in" | "out" }>> = {
  buy: { act: "compra", direction: "in" },
  sell: { act: "venta", direction: "out" },
  swap: { act: "intercambio", direction: "out" },
  fiat_deposit: { act: "fondos_depositados", direction: "in" },
  fiat_withdrawal: { act: "fondos_retirados", direction: "out" },
  crypto_deposit: { act: "recepcion", direction: "in" },
  crypto_withdrawal: { act: "envio", direction: "out" },
  fee: { act: "comision", direction: "out" },
};

/** A decimal string as an integer in its smallest unit, and the decimals. */
function scaled(amount: string): { value: bigint; decimals: number } {
  const [whole, fraction = ""] = amount.split(".");
  return { value: BigInt(`${whole}${fraction}` || "0"), decimals: fraction.length };
}

function detailOf(o: OperationItem): ExchangeDetail {
  const base = { operationId: o.operationId, kind: o.kind };
  switch (o.kind) {
    case "buy":
    case "sell":
      return {
        ...base,
        asset: { symbol: o.asset, amount: o.amount },
        fiat: { currency: o.currency, amount: o.fiatAmount },
      };
    case "swap":
      return {
        ...base,
        asset: { symbol: o.asset, amount: o.amount },
        received: { symbol: o.assetReceived, amount: o.amountReceived },
      };
    case "fiat_deposit":
    case "fiat_withdrawal":
      return {
        ...base,
        fiat: { currency: o.currency, amount: o.amount },
        rail: o.rail,
        ...(o.counterparty ? { counterparty: o.counterparty } : {}),
      };
    case "crypto_deposit":
    case "crypto_withdrawal":
      return {
        ...base,
        asset: { symbol: o.asset, amount: o.amount },
        // the chain the address is read on: its labels say who the other party is (a sanctioned destination)
        chainId: o.chainId,
        ...(o.txHash ? { txHash: o.txHash } : {}),
      };
    case "fee":
      return {
        ...base,
        of: o.of,
        ...(o.currency ? { fiat: { currency: o.currency, amount: o.amount } } : {}),
        ...(o.asset ? { asset: { symbol: o.asset, amount: o.amount } } : {}),
      };
    case "custody_snapshot":
      return base;
  }
}

/** One held operation as a client operation, with the valuations given. */
export function asClientOperation(
  held: HeldForLaw,
  valuations: Record<string, Valuation>,
): ClientOperation | undefined {
  const o = held.item;
  const act = ACTS[o.kind];
  const unit = unitOf(o);
  if (!act || !unit) return undefined;
  const { value, decimals } = scaled(unit.amount);
  const symbol = unit.unit.split(":")[1] as string;
  // The other party: a fiat movement's payer or payee, a withdrawal's destination. A crypto deposit names only the
  // client's own deposit address (its `address`): who sent it is not in the operation (the chain monitoring knows,
  // where the address is monitored), and the client's address is not its own counterparty.
  const counterparty =
    o.kind === "fiat_deposit" || o.kind === "fiat_withdrawal"
      ? (o.counterparty?.name ?? "")
      : o.kind === "crypto_withdrawal"
        ? o.address
        : "";
  return {
    // An exchange operation has no monitored address nor chain: its identity is the integrator's id, and its row's
    // id (unique across projects) stands where a transfer has its address's, so that an aviso's reference is unique.
    addressId: Number(held.id),
    chainId: 0,
    txHash: operationTxHash(o.operationId),
    logIndex: 0,
    blockTime: new Date(o.at),
    userId: o.userId,
    address: o.kind === "crypto_deposit" ? o.address : "",
    direction: act.direction,
    counterparty,
    token: unit.unit,
    symbol,
    tokenName: symbol,
    decimals,
    value,
    laws: held.laws,
    unjudged: held.unjudged,
    internal: false,
    valuations,
    addressJurisdiction: null,
    act: act.act,
    exchange: detailOf(o),
  };
}

/**
 * The held operations as client operations valued by `books` (their judged valuations kept where they have them),
 * oldest first; those that are no operation of value, or that the chain monitoring recorded as the client's
 * transfers, left out.
 */
export async function asClientOperations(
  db: Kysely<DB>,
  projectId: number,
  held: readonly HeldForLaw[],
  books: readonly LawBook[],
  natives: ReadonlyMap<string, readonly number[]> = new Map(),
  /** keep those the chain monitoring recorded too (an operation's own aviso, read by its id) */
  keepMonitored = false,
): Promise<ClientOperation[]> {
  const hashes = held.flatMap((h) =>
    (h.item.kind === "crypto_deposit" || h.item.kind === "crypto_withdrawal") && h.item.txHash
      ? [h.item.txHash]
      : [],
  );
  const seen = keepMonitored ? new Set<string>() : await monitoredTxHashes(db, projectId, hashes);
  const kept = held.filter(
    (h) =>
      !(
        (h.item.kind === "crypto_deposit" || h.item.kind === "crypto_withdrawal") &&
        h.item.txHash &&
        seen.has(`${h.item.userId}\n${h.item.txHash}`)
      ),
  );
  // Each operation's day in each book's zone, once; an operation judged already keeps the valuation it was judged
  // at, so only those without a complete one (the fresh ones, and those judged while a price was missing) ask for
  // the day's prices.
  const dayOf = (h: HeldForLaw, b: LawBook) =>
    h.valuations?.[b.code]?.day ?? zonedDay(new Date(h.item.at), b.timeZone);
  const complete = (h: HeldForLaw, b: LawBook) => {
    const v = h.valuations?.[b.code];
    return v !== undefined && v.priceUsd !== null && v.perUsd !== null;
  };
  const queries = kept.flatMap((h) => {
    const unit = unitOf(h.item);
    if (!unit) return [];
    return books.flatMap((b) => {
      if (complete(h, b)) return [];
      const day = dayOf(h, b);
      return [
        { unit: unit.unit, day },
        { unit: `fiat:${b.currency}`, day },
      ];
    });
  });
  const prices = queries.length > 0 ? await usdPerUnit(db, queries, natives, RATE_DAYS) : new Map();
  const out: ClientOperation[] = [];
  for (const h of kept) {
    const unit = unitOf(h.item);
    if (!unit) continue;
    const valuations: Record<string, Valuation> = {};
    for (const b of books) {
      const judged = h.valuations?.[b.code];
      if (judged && complete(h, b)) {
        valuations[b.code] = { ...judged, currency: b.currency };
        continue;
      }
      const day = dayOf(h, b);
      const price = prices.get(`${unit.unit}|${day}`) ?? null;
      const bookUsd = prices.get(`fiat:${b.currency}|${day}`) ?? null;
      valuations[b.code] = {
        day: judged?.day ?? day,
        priceUsd: judged?.priceUsd ?? price,
        currency: b.currency,
        perUsd: judged?.perUsd ?? (bookUsd ? 1 / bookUsd : null),
      };
    }
    const op = asClientOperation(h, valuations);
    if (op) out.push(op);
  }
  return out.sort((a, b) => a.blockTime.getTime() - b.blockTime.getTime() || (a.txHash < b.txHash ? -1 : 1));
}

/**
 * The project's exchange operations concluded in [from, to) as client operations valued by `books`, for the
 * reports: `recorded` (judged or waiting: a waiting one holds its month back) or `checked` only.
 */
export async function exchangeClientOperations(
  db: Kysely<DB>,
  q: HeldQuery & {
    books: readonly LawBook[];
    /** keep the crypto movements the chain monitoring recorded too (they are left out: judged as the transfers) */
    keepMonitored?: boolean;
  },
  natives: ReadonlyMap<string, readonly number[]> = new Map(),
): Promise<ClientOperation[]> {
  const held = await heldForLaw(db, q);
  return asClientOperations(db, q.projectId, held, q.books, natives, q.keepMonitored ?? false);
}

/**
 * The project's judged operations that met one of `rules` (judged since `checkedFrom`, or concluded in [from, to)),
 * oldest judged first, keyed as a checked transfer is (src/monitoring's CheckedTransfer): the row's id where a
 * transfer has its address's, chain 0, the operation's id as its hash. What the 24-hour avisos are written from.
 */
export async function exchangeOperationsMeeting(
  db: Kysely<DB>,
  q: { projectId: number; rules: readonly string[]; checkedFrom?: Date; from?: Date; to?: Date },
): Promise<CheckedTransfer[]> {
  const met = await operationsMeeting(db, q);
  // A crypto movement the chain monitoring recorded for the client since, and whose transfer met the same rules,
  // owes the transfer's aviso: one aviso for one movement. Where the transfer met none (its counterparty on chain is
  // the exchange's hot wallet, say), the operation's verdict stands and owes its own.
  const seen = await monitoredTxHashes(
    db,
    q.projectId,
    met.flatMap((o) => (o.chainTxHash ? [o.chainTxHash] : [])),
    q.rules,
  );
  return met
    .filter((o) => !(o.chainTxHash && seen.has(`${o.userId}\n${o.chainTxHash}`)))
    .map((o) => ({
      addressId: Number(o.id),
      chainId: 0,
      txHash: operationTxHash(o.operationId),
      logIndex: 0,
      userId: o.userId,
      blockTime: o.at,
      evaluatedAt: o.checkedAt,
      laws: o.laws,
    }));
}

/** A coin's symbol → the chains whose native coin it is (ETH, TRX…), to value operations in it by its chain's price. */
export function nativeCoins(registry: {
  enabled(): readonly { id: number; currency_symbol?: string | null }[];
}): Map<string, number[]> {
  const bySymbol = new Map<string, number[]>();
  for (const c of registry.enabled()) {
    const symbol = c.currency_symbol?.toUpperCase();
    if (symbol) bySymbol.set(symbol, [...(bySymbol.get(symbol) ?? []), c.id]);
  }
  return bySymbol;
}
