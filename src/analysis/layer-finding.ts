// A layered analysis's detected pattern as a verdict's finding: the one shape the wallet report, the Spanish texts
// and the stored verdicts read, whichever kind of analysis the finding came from.
import type { CompletedLayer } from "./layered/layer-result.ts";
import type { VerdictFinding } from "./verdict.ts";

type LayerPattern = CompletedLayer["detectedPatterns"][number];

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
