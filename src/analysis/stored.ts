// GET /projects/{projectId}/addresses/scan-risk (docs/api.md, "Risk analysis"): the latest stored result of each
// listed address for this project (on one chain when chainId is given, at any depth): its newest completed analysis
// of any kind (a scan, a risk job, an investigation; the rule of the wallet report's verdict, src/analysis/store.ts
// latestStored). An address without one is `pending` while an analysis of it is queued or running, or its first
// scan waits for a place (src/analysis/first-scans.ts), and `missing` otherwise. A failed analysis, a verdict
// withheld for want of current data (no_data) included, is never a stored result.

import type { Static } from "@sinclair/typebox";
import { normalizeEvmAddress, normalizeStoredAddress, parseTronAddress } from "../chains/address/index.ts";
import type { AnalysisContext } from "./context.ts";
import { deferredOf } from "./first-scans.ts";
import type { StoredResponse } from "./schemas.ts";
import { latestStored, unfinishedOf } from "./store.ts";
import { fromAnalysis } from "./verdict.ts";
import { reasonEs } from "./words.ts";

export type StoredScans = Static<typeof StoredResponse>;
export type StoredScanItem = StoredScans["results"][number];

export async function storedScans(
  ctx: AnalysisContext,
  projectId: number,
  addresses: string[],
  chainId: number | undefined,
  lang?: string,
): Promise<StoredScans> {
  // Answered in request order, each address once, in the stored form (EVM in lowercase, Tron in hex: the
  // HTTP edge writes them back as the chain does). Without a chain, a base58 Tron address is read as Tron's.
  const storedForm = (a: string) => {
    if (chainId !== undefined) {
      const parsed = ctx.registry.parseAddress(chainId, a);
      return "address" in parsed ? parsed.address : a.trim();
    }
    const tron = parseTronAddress(a);
    return (
      normalizeEvmAddress(a) ??
      ("address" in tron && a.trim().startsWith("T") ? tron.address : (normalizeStoredAddress(a) ?? a.trim()))
    );
  };
  const wanted = [...new Set(addresses.map(storedForm))];
  const latest = await latestStored(ctx.db, { projectId, chainId, addresses: wanted });
  const unanswered = wanted.filter((address) => !latest.get(address)?.result);
  const q = { projectId, chainId, addresses: unanswered };
  const [running, waiting] = await Promise.all([unfinishedOf(ctx.db, q), deferredOf(ctx.db, q)]);
  const results: StoredScanItem[] = [];
  const missingAddresses: string[] = [];
  const pendingAddresses: string[] = [];
  for (const address of wanted) {
    const a = latest.get(address);
    if (!a?.result) {
      if (running.has(address) || waiting.has(address)) pendingAddresses.push(address);
      else missingAddresses.push(address);
      continue;
    }
    const r = a.result;
    results.push({
      analysisId: a.id,
      address,
      chainId: String(a.chainId),
      riskScore: r.riskScore,
      riskLevel: r.riskLevel,
      // In Spanish, written from the result's evidence (words.ts); in English, the risk core's as stored.
      riskReason: lang === "es" ? reasonEs(fromAnalysis(address, r, a.maxDepth), address) : r.riskReason,
      suspiciousActivity: r.suspiciousActivity,
      patternsDetected: r.patterns.length,
      patterns: r.patterns,
      transactionsAnalyzed: r.analysisEvidence.transactionsAnalyzed,
      completedAt: (a.completedAt ?? a.updatedAt).toISOString(),
      maxDepth: a.maxDepth,
      // latestStored reads scans, risk jobs and investigations only.
      source: a.kind as StoredScanItem["source"],
      fromDate: a.windowFrom?.toISOString() ?? null,
      toDate: a.windowTo?.toISOString() ?? null,
    });
  }
  return {
    total: wanted.length,
    missing: missingAddresses.length,
    pending: pendingAddresses.length,
    results,
    missingAddresses,
    pendingAddresses,
  };
}
