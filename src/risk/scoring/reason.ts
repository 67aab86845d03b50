// riskReason (docs/risk-model.md): one or two sentences naming the main drivers with their figures, e.g. "Received
// USD 12,000 (100% of its incoming funds) directly from a sanctioned address (OFAC SDN: ...). Peel chain: ...".
// Unsolicited dust (docs/decisions/0030) is always named, with the word "unsolicited", even when it adds less than
// a point: the reader must not take "no exposure" for an address a sanctioned address dusted.
import type { Exposure } from "../exposure.ts";
import { hops, usd } from "../format.ts";
import { exposureText, type ScoreContribution } from "./contributions.ts";

export function riskReason(input: {
  contributions: readonly ScoreContribution[];
  exposure: Exposure;
  exchangeDiscount: number;
}): string {
  const drivers = input.contributions.filter((c) => c.points >= 1);
  const dust = input.exposure.entries.find((e) => e.unsolicited);
  if (drivers.length === 0 && dust) {
    const e = input.exposure;
    return (
      `${exposureText(dust)}. No other risk indicators: ${e.incomingTransfers + e.outgoingTransfers} transfers ` +
      `(${usd(e.incomingUsd)} in, ${usd(e.outgoingUsd)} out) with ${e.counterparties} counterparties and no ` +
      `suspicious pattern it takes part in within ${hops(e.maxHops)}.`
    );
  }
  if (drivers.length === 0) {
    const e = input.exposure;
    return (
      `No risk indicators: ${e.incomingTransfers + e.outgoingTransfers} transfers (${usd(e.incomingUsd)} in, ` +
      `${usd(e.outgoingUsd)} out) with ${e.counterparties} counterparties, no exposure to sanctioned, illicit ` +
      `or mixer addresses and no suspicious pattern it takes part in within ${hops(e.maxHops)}.`
    );
  }
  const [first, second] = drivers;
  const extra = drivers.length - 2;
  const discounted = drivers.some((c) => c.discounted);
  const tail = [
    extra > 0 ? `${extra} more indicator${extra === 1 ? "" : "s"}` : "",
    discounted
      ? `patterns discounted ${Math.round(input.exchangeDiscount * 100)}% for a labelled exchange`
      : "",
  ]
    .filter(Boolean)
    .join("; ");
  const sentences = [first, second].flatMap((c) => (c ? [c.text] : []));
  const last = sentences.length - 1;
  if (tail) sentences[last] = `${sentences[last]} (${tail})`;
  const named = [first, second].some(
    (c) => c?.kind === "exposure" && input.exposure.entries[c.ref]?.unsolicited,
  );
  if (dust && !named) sentences.push(exposureText(dust));
  return sentences.map((s) => `${s}.`).join(" ");
}
