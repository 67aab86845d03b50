// A client's operation as the law rules and the reports see it: one transfer of a monitored address, with what it
// was worth where each jurisdiction values it. A jurisdiction values an operation on the operation's own day in its
// time zone (an operation at 23:30 on 31 May in Mexico City is a May operation at 31 May's price and rate, though
// it is 1 June in UTC), in US dollars and in its own currency; the valuation used is recorded with the operation,
// so that a report cites what the checker judged.

export interface Valuation {
  /** the operation's day (YYYY-MM-DD) in the jurisdiction's time zone */
  day: string;
  /** USD per whole token on that day, when known */
  priceUsd: number | null;
  /** the jurisdiction's currency (ISO 4217) */
  currency: string;
  /** units of that currency per USD on that day (or the nearest earlier day with a rate), when known; 1 for USD */
  perUsd: number | null;
}

/**
 * The type of act of an operation, as the AVI's blocks name them: a transfer sent or received on chain, or one of
 * the exchange's own operations (a buy, a sale, a swap, fiat deposited or withdrawn, a fee).
 */
export type OperationAct =
  | "envio"
  | "recepcion"
  | "compra"
  | "venta"
  | "intercambio"
  | "fondos_depositados"
  | "fondos_retirados"
  | "comision";

/** What an exchange operation adds to a client operation: the integrator's ids and the parts its blocks report. */
export interface ExchangeDetail {
  operationId: string;
  kind: string;
  /** the operation a fee was charged on */
  of?: string;
  /** the virtual asset and its amount (a trade's, a swap's given side, a crypto movement's) */
  asset?: { symbol: string; amount: string };
  /** a swap's received side */
  received?: { symbol: string; amount: string };
  /** the fiat side: a trade's price paid or received, a fiat movement's amount */
  fiat?: { currency: string; amount: string };
  rail?: string;
  /** a crypto movement's chain */
  chainId?: number;
  counterparty?: { name: string; bank?: string; account?: string; taxId?: string; pixKey?: string };
  txHash?: string;
}

/**
 * What stands for an exchange operation's transaction hash where the law and the reports name a client operation
 * (its aviso's reference, a report's key): the integrator's id, marked so that no chain's hash can be taken for it.
 */
export const operationTxHash = (operationId: string) => `op:${operationId}`;

/** The integrator's id of an exchange operation from what stands for its hash, or undefined for a chain's hash. */
export const operationIdOfHash = (txHash: string): string | undefined =>
  txHash.startsWith("op:") ? txHash.slice("op:".length) : undefined;

export interface ClientOperation {
  addressId: number;
  chainId: number;
  txHash: string;
  logIndex: number;
  blockTime: Date;
  /** the integrator's user id */
  userId: string;
  /** the user's monitored address the transfer touched */
  address: string;
  direction: "in" | "out";
  counterparty: string;
  /** `native`, or the token contract */
  token: string;
  /** the asset's ticker (the chain's currency for native transfers), when known */
  symbol: string | null;
  /** the token's name, when known */
  tokenName: string | null;
  decimals: number | null;
  /** raw amount in the token's smallest unit */
  value: bigint;
  /** the law rules the operation infringed when it was checked; null while it waits to be checked */
  laws: string[] | null;
  /** the rules that could not be judged when it was checked (no price, no rate, no UMA for its day) */
  unjudged: string[] | null;
  /**
   * a movement between two monitored addresses of the same client: no operation with anyone else, so it meets no
   * rule and adds to no accumulation (one transfer seen from both ends would count twice)
   */
  internal: boolean;
  /** by jurisdiction code (and `XB` for the international rules) */
  valuations: Readonly<Record<string, Valuation>>;
  /** the jurisdiction the address was registered under (`jurisdiction` on registration), if any */
  addressJurisdiction: string | null;
  /** the type of act; absent on a transfer, whose act is its direction (`recepcion`, `envio`) */
  act?: OperationAct;
  /** one of the exchange's own operations (src/exchange-operations) rather than a transfer seen on chain */
  exchange?: ExchangeDetail;
}

/** The type of act of an operation: its own, or a transfer's by its direction. */
export const actOf = (op: ClientOperation): OperationAct =>
  op.act ?? (op.direction === "in" ? "recepcion" : "envio");

/** What the checker knows of the counterparty of the operation being judged. */
export interface Counterparty {
  /** its riskiest label category (sanctioned, mixer, exchange, ...), if it has one */
  category: string | undefined;
  /** a virtual-asset service provider: a labelled exchange, or an address inferred to be an exchange's deposit address */
  vasp: boolean;
  /**
   * the lists of persons the client is a `match` on (src/screening): not of the counterparty, but of the other party
   * to the operation, judged with it. A string says why the client could not be screened (its profile could not be
   * read): rules on the client's lists are then not judged. Absent: no screening is wired, and no client is listed.
   */
  clientLists?: readonly string[] | string;
  /**
   * where the client resides, from its profile (`address.country`, upper case; null when it gives none), for rules on
   * high-risk jurisdictions; a string says why the profile could not be read. Absent: nobody asked.
   */
  clientResidence?: { country: string | null } | string;
}

/** Whole tokens of a raw amount as a number (whole and fractional parts apart, keeping an 18-decimal amount's precision). */
function wholeNumber(value: bigint, decimals: number): number {
  const unit = 10n ** BigInt(decimals);
  return Number(value / unit) + Number(value % unit) / Number(unit);
}

/** The USD value of an operation in a jurisdiction's valuation, or null without its price or decimals. */
export function usdIn(op: ClientOperation, code: string): number | null {
  const v = op.valuations[code];
  if (!v || v.priceUsd === null || op.decimals === null) return null;
  return wholeNumber(op.value, op.decimals) * v.priceUsd;
}

/** The value in the jurisdiction's own currency, or null without a price or a rate. */
export function localIn(op: ClientOperation, code: string): number | null {
  const usd = usdIn(op, code);
  const rate = op.valuations[code]?.perUsd ?? null;
  return usd === null || rate === null ? null : usd * rate;
}

/** The amount in whole tokens as a decimal string, exact (no floating point), or null without decimals. */
export function wholeTokens(value: bigint, decimals: number | null): string | null {
  if (decimals === null) return null;
  const unit = 10n ** BigInt(decimals);
  const fraction = (value % unit).toString().padStart(decimals, "0").replace(/0+$/, "");
  return fraction ? `${value / unit}.${fraction}` : `${value / unit}`;
}

/**
 * Whether an operation can add to an accumulation: a movement with someone else, of a value above zero; never a fee
 * (Mexico's RCG Art. 24 Bis 5: fees are judged one by one and not accumulated).
 */
export const accumulates = (op: ClientOperation): boolean =>
  !op.internal && op.value > 0n && op.act !== "comision";

/** Orders operations as they happened: by time, then transaction, log index and address. */
export function byTime(a: ClientOperation, b: ClientOperation): number {
  return (
    a.blockTime.getTime() - b.blockTime.getTime() ||
    (a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : 0) ||
    a.logIndex - b.logIndex ||
    a.addressId - b.addressId
  );
}

/** The same operation (one transfer seen from one monitored address). */
export const sameOperation = (a: ClientOperation, b: ClientOperation): boolean =>
  a.addressId === b.addressId &&
  a.chainId === b.chainId &&
  a.txHash === b.txHash &&
  a.logIndex === b.logIndex;

/** The operations grouped by user, users in order of their id (each user's operations keep their order). */
export function byUser(operations: readonly ClientOperation[]): [string, ClientOperation[]][] {
  const groups = new Map<string, ClientOperation[]>();
  for (const op of operations) {
    const list = groups.get(op.userId);
    if (list) list.push(op);
    else groups.set(op.userId, [op]);
  }
  return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
