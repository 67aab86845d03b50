// CoinJoin fingerprints: which implementation's round a Bitcoin transaction is, from its shape alone, with a
// confidence and a reason. Each rule is the implementation's own (its coordinator's or client's source) or a
// published detector's where the source leaves it open:
//
// - Whirlpool (Samourai) mix: as many inputs as outputs, 5 to 8 (5 until the 2023 "surge cycles"), every output
//   exactly a pool's denomination (100,000, 1,000,000, 5,000,000 or 50,000,000 sats; Ashigaru's 2,500,000 and
//   25,000,000 since 2025), 1 to 4 inputs entering with the denomination plus at most 110,000 sats of miner-fee
//   allowance and the others remixing at exactly the denomination (Stockinger et al., "Pinpointing and measuring
//   Wasabi and Samourai CoinJoins", arXiv 2109.10229; nopara73/Dumplings Scanner.cs; graphsense-lib
//   heuristics_service.py). High.
// - Whirlpool tx0: the premix transaction. N equal outputs of a denomination plus that allowance, one fee output,
//   one OP_RETURN carrying the fee payload, and change (whirlpool-client Tx0Service: "nbPremix + 2"). Not a mix:
//   its inputs are one wallet's. Medium.
// - WabiSabi (Wasabi 2): at least 21 inputs (WalletWasabi SmartTransaction.IsWasabi2Cj, 50 before December 2024),
//   inputs P2WPKH or P2TR, more than 80 % of outputs in the standard denominations (DenominationBuilder: 2^k, 3^k,
//   2·3^k, 10^k, 2·10^k, 5·10^k from 5,000 sats), inputs and outputs sorted largest first as the coordinator signs
//   them (SigningState.cs). High; a round of 10-20 inputs with at least 10 outputs, medium. Without the order,
//   graphsense-lib's shape rule (at least 20 inputs, no input
//   address holding more than a tenth of them, outputs of at least 5,000 sats at distinct addresses, at least 3
//   values repeated, those outputs at least half, and one output that is not one of them). Medium.
// - Wasabi 1.x (ZeroLink): all P2WPKH, at least 10 equal outputs of about 0.1 BTC (the round's denomination is
//   the configured 0.1 BTC less fees: within 0.08-0.12 BTC, and never a round 0.08, 0.09, 0.10, 0.11 or 0.12, which
//   are payouts), at least as many inputs, and at least 2 outputs of unique value (change, coordinator fee)
//   (WalletWasabi CoordinatorRound.cs before its 2023 removal; Dumplings); fewer than 20 in exactly JoinMarket's
//   shape read as JoinMarket. High.
// - JoinMarket: n equal outputs (the makers and the taker, n of at least 3), n or n - 1 change outputs, at least n
//   inputs from at least n addresses, one script type throughout, no OP_RETURN, at most 100 inputs or outputs and
//   at most 4 inputs per output (joinmarket-clientserver taker.py and configure.py; BlockSci's
//   tx_identification, which graphsense-lib's `is_coinjoin` ports; the CROCS defaults). Medium: a payout can
//   take the shape.
// - Stonewall: 3 or 4 outputs at distinct addresses, at least 2 inputs, exactly one value paid twice (above 5,000
//   sats) and the rest different (docs.samourai.io, spend tools). One wallet's Stonewall and two wallets' Stonewall
//   X2 look the same on chain: not a mix, but its inputs may not be one owner's. Medium, as a veto.
//
// A transaction that spends from a labelled service (an exchange batching its payouts) is never read as Wasabi
// 1.x or JoinMarket (graphsense-lib drops those hits the same way). Pure: no I/O.
import type { CoinJoinVerdict, UtxoPart, UtxoTx } from "./types.ts";

const BTC = 100_000_000n;
const WHIRLPOOL_POOLS = [100_000n, 1_000_000n, 5_000_000n, 50_000_000n, 2_500_000n, 25_000_000n];
/** The most a Whirlpool premix carries over its pool's denomination: the miner-fee allowance. */
const WHIRLPOOL_ALLOWANCE = 110_000n;

/** WabiSabi's standard denominations (DenominationBuilder), from 5,000 sats to 137,438,953,472. */
export const WABISABI_DENOMINATIONS: ReadonlySet<bigint> = (() => {
  const out = new Set<bigint>();
  const min = 5_000n;
  const max = 137_438_953_472n;
  const add = (v: bigint) => {
    if (v >= min && v <= max) out.add(v);
  };
  for (let v = 1n; v <= max; v *= 2n) add(v);
  for (let v = 1n; v <= max; v *= 3n) {
    add(v);
    add(2n * v);
  }
  for (let v = 1n; v <= max; v *= 10n) {
    add(v);
    add(2n * v);
    add(5n * v);
  }
  return out;
})();

const btc = (sats: bigint) => {
  const whole = sats / BTC;
  const frac = (sats % BTC).toString().padStart(8, "0").replace(/0+$/, "");
  return `${whole}${frac ? `.${frac}` : ""} BTC`;
};

/** Values by how many outputs pay them, most frequent first (ties: the lower value first). */
function valueCounts(parts: readonly UtxoPart[]): { value: bigint; count: number }[] {
  const counts = new Map<bigint, number>();
  for (const p of parts) counts.set(p.value, (counts.get(p.value) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

const distinctAddresses = (parts: readonly UtxoPart[]) =>
  new Set(parts.map((p) => p.address).filter((a) => a !== null)).size;
const allDistinctAddresses = (parts: readonly UtxoPart[]) =>
  parts.every((p) => p.address !== null) && distinctAddresses(parts) === parts.length;
const sortedDescending = (parts: readonly UtxoPart[]) =>
  parts.every((p, i) => i === 0 || (parts[i - 1] as UtxoPart).value >= p.value);

function whirlpoolMix(tx: UtxoTx): CoinJoinVerdict | undefined {
  const n = tx.outputs.length;
  if (n < 5 || n > 8 || tx.inputs.length !== n) return undefined;
  const pool = tx.outputs[0]?.value;
  if (pool === undefined || !WHIRLPOOL_POOLS.includes(pool)) return undefined;
  if (!tx.outputs.every((o) => o.value === pool) || !allDistinctAddresses(tx.outputs)) return undefined;
  const remixes = tx.inputs.filter((i) => i.value === pool).length;
  const entering = tx.inputs.filter((i) => i.value > pool && i.value <= pool + WHIRLPOOL_ALLOWANCE).length;
  if (remixes < 1 || entering < 1 || entering > 4 || remixes + entering !== n) return undefined;
  return {
    kind: "whirlpool",
    confidence: "high",
    reason:
      `${n} inputs and ${n} outputs of exactly ${btc(pool)} (a Whirlpool pool): ${entering} coins entering with ` +
      `the miner-fee allowance, ${remixes} remixing`,
  };
}

function whirlpoolTx0(tx: UtxoTx): CoinJoinVerdict | undefined {
  const opReturns = tx.outputs.filter((o) => o.script === "op_return").length;
  if (opReturns !== 1) return undefined;
  const paying = tx.outputs.filter((o) => o.script !== "op_return");
  const [top] = valueCounts(paying);
  if (!top || top.count < 2) return undefined;
  const pool = WHIRLPOOL_POOLS.find((p) => top.value > p && top.value <= p + WHIRLPOOL_ALLOWANCE);
  if (pool === undefined) return undefined;
  // The premixes, the fee (or its return to the user's deposit wallet) and, unless swept, change.
  const others = paying.length - top.count;
  if (others < 1 || others > 2) return undefined;
  return {
    kind: "whirlpool-tx0",
    confidence: "medium",
    reason:
      `${top.count} premix outputs of ${btc(top.value)} for Whirlpool's ${btc(pool)} pool, with an OP_RETURN ` +
      `and ${others === 2 ? "a fee output and change" : "a fee output"}`,
  };
}

function wabiSabiOrdered(tx: UtxoTx): CoinJoinVerdict | undefined {
  const inputs = tx.inputs.length;
  const outputs = tx.outputs.length;
  // Wasabi's own recognizer asks 21 inputs; a small coordinator's round of 10-20, in the same order and
  // denominations with at least 10 outputs, reads with medium confidence.
  if (inputs < 10 || outputs < 2 || (inputs < 21 && outputs < 10)) return undefined;
  if (!tx.inputs.every((i) => i.script === "p2wpkh" || i.script === "p2tr")) return undefined;
  const standard = tx.outputs.filter((o) => WABISABI_DENOMINATIONS.has(o.value)).length;
  if (standard * 5 <= outputs * 4 || !sortedDescending(tx.outputs) || !sortedDescending(tx.inputs)) {
    return undefined;
  }
  return {
    kind: "wabisabi",
    confidence: inputs >= 21 ? "high" : "medium",
    reason:
      `${inputs} inputs and ${outputs} outputs, ${standard} of them in WabiSabi's standard denominations, inputs ` +
      `and outputs ordered largest first as its coordinator signs them${inputs < 21 ? " (a small round)" : ""}`,
  };
}

/** WabiSabi's shape without its order (graphsense-lib's rule). */
function wabiSabiShape(tx: UtxoTx): CoinJoinVerdict | undefined {
  const inputs = tx.inputs.length;
  const outputs = tx.outputs.length;
  if (inputs < 20 || outputs < 2) return undefined;
  if (!tx.inputs.every((i) => i.script === "p2wpkh" || i.script === "p2tr")) return undefined;
  const perAddress = new Map<string | null, number>();
  for (const i of tx.inputs) perAddress.set(i.address, (perAddress.get(i.address) ?? 0) + 1);
  if (Math.max(...perAddress.values()) * 10 > inputs) return undefined;
  if (tx.outputs.some((o) => o.value < 5_000n) || !allDistinctAddresses(tx.outputs)) return undefined;
  const repeated = valueCounts(tx.outputs).filter((v) => v.count >= 2);
  const inRepeated = repeated.reduce((n, v) => n + v.count, 0);
  if (repeated.length < 3 || inRepeated * 2 < outputs - 1 || inRepeated === outputs) return undefined;
  return {
    kind: "wabisabi",
    confidence: "medium",
    reason:
      `${inputs} inputs from distinct addresses and ${outputs} outputs, ${inRepeated} of them paying ` +
      `${repeated.length} values each more than once (the shape of a WabiSabi round)`,
  };
}

function wasabi1(tx: UtxoTx): CoinJoinVerdict | undefined {
  if (![...tx.inputs, ...tx.outputs].every((p) => p.script === "p2wpkh")) return undefined;
  const low = (8n * BTC) / 100n;
  const high = (12n * BTC) / 100n;
  const [top] = valueCounts(tx.outputs.filter((o) => o.value >= low && o.value <= high));
  if (!top || top.count < 10 || tx.inputs.length < top.count) return undefined;
  if (top.value % (BTC / 100n) === 0n) return undefined; // a round 0.08-0.12 BTC: payouts, not a round's base
  const unique = valueCounts(tx.outputs).filter((v) => v.count === 1).length;
  if (unique < 2) return undefined;
  // Fewer than 20 equal outputs in exactly JoinMarket's shape (n equal, n or n - 1 others) is a JoinMarket round
  // at about 0.1 BTC: Wasabi 1's rounds gathered far more (its coordinator's default anonymity set was 100).
  const others = tx.outputs.length - top.count;
  if (top.count < 20 && (others === top.count || others === top.count - 1)) return undefined;
  return {
    kind: "wasabi-1",
    confidence: "high",
    reason:
      `${top.count} outputs of ${btc(top.value)} (Wasabi 1's denomination of about 0.1 BTC) from ` +
      `${tx.inputs.length} inputs, all native segwit, with change and a coordinator fee`,
  };
}

function joinMarket(tx: UtxoTx): CoinJoinVerdict | undefined {
  const inputs = tx.inputs.length;
  const outputs = tx.outputs.length;
  if (inputs < 2 || outputs < 3 || inputs > 100 || outputs > 100 || inputs > 4 * outputs) return undefined;
  if (tx.outputs.some((o) => o.script === "op_return")) return undefined;
  const [top] = valueCounts(tx.outputs);
  if (!top || top.count < 3 || top.value === 546n || top.value === 2_730n) return undefined;
  const n = top.count;
  if (outputs !== 2 * n && outputs !== 2 * n - 1) return undefined;
  // Outputs may repeat an address (a maker's reused change): BlockSci's rule does not ask them distinct.
  if (inputs < n || distinctAddresses(tx.inputs) < n) return undefined;
  const kinds = new Set(tx.outputs.map((o) => o.script));
  if (kinds.size !== 1) return undefined;
  return {
    kind: "joinmarket",
    confidence: "medium",
    reason:
      `${n} outputs of ${btc(top.value)} and ${outputs - n} change outputs from ${inputs} inputs of at least ` +
      `${n} addresses, one script type throughout (a JoinMarket round of ${n - 1} makers and a taker)`,
  };
}

function stonewall(tx: UtxoTx): CoinJoinVerdict | undefined {
  const outputs = tx.outputs.length;
  if ((outputs !== 3 && outputs !== 4) || tx.inputs.length < 2 || !allDistinctAddresses(tx.outputs)) {
    return undefined;
  }
  const counts = valueCounts(tx.outputs);
  const pairs = counts.filter((v) => v.count === 2);
  if (
    pairs.length !== 1 ||
    counts.some((v) => v.count > 2) ||
    (pairs[0] as { value: bigint }).value <= 5_000n
  ) {
    return undefined;
  }
  return {
    kind: "stonewall",
    confidence: "medium",
    reason:
      `${outputs} outputs, two of them ${btc((pairs[0] as { value: bigint }).value)}: Stonewall's shape, which one ` +
      "wallet or two (Stonewall X2) make alike, so its inputs are not taken as one owner's",
  };
}

/**
 * Which CoinJoin (or Stonewall) a transaction is, or undefined. `isService` names labelled services (exchanges):
 * a transaction spending from one is never read as Wasabi 1.x or JoinMarket.
 */
export function detectCoinJoin(
  tx: UtxoTx,
  isService: (address: string) => boolean = () => false,
): CoinJoinVerdict | undefined {
  const fromService = tx.inputs.some((i) => i.address !== null && isService(i.address));
  return (
    whirlpoolMix(tx) ??
    wabiSabiOrdered(tx) ??
    (fromService ? undefined : wasabi1(tx)) ??
    wabiSabiShape(tx) ??
    whirlpoolTx0(tx) ??
    (fromService ? undefined : joinMarket(tx)) ??
    stonewall(tx)
  );
}
