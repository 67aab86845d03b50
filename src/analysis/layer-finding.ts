// A layered analysis's detected pattern and exposure entry as a verdict's finding and exposure: the one shape the wallet report, the Spanish texts
// and the stored verdicts read, whichever kind of analysis the finding came from.
import type { CompletedLayer } from "./layered/layer-result.ts";
import type { VerdictExposure, VerdictFinding } from "./verdict.ts";

type LayerPattern = CompletedLayer["detectedPatterns"][number];
type LayerExposure = NonNullable<CompletedLayer["exposure"]>[number];

/** A layer's exposure entry as a verdict's (its transactions named `txs`). */
export const layerExposure = (e: LayerExposure): VerdictExposure => ({
  category: e.category,
  direction: e.direction,
  hops: e.hops,
  usd: e.usd,
  share: e.share,
  counterparties: e.counterparties,
  via: e.via,
  txs: e.txHashes,
  drivesScore: e.drivesScore,
  ...(e.sameOwnerAs ? { sameOwnerAs: e.sameOwnerAs } : {}),
});

export const layerFinding = (p: LayerPattern): VerdictFinding => ({
  pattern: p.patternType,
  severity: p.severity,
  confidence: p.confidence,
  subject: p.subject,
  wallets: p.evidence.wallets,
  actors: null,
  txs: p.evidence.txHashes,
  usdAmount: p.evidence.usdAmount,
  thresholds: p.evidence.thresholds,
  message: p.description,
});
