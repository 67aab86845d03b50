// GET /projects/{projectId}/addresses/scan-risk (docs/api.md, "Risk analysis"): the latest stored scan
// result of each listed address for this project (on one chain when chainId is given, at any depth).

import type { Static } from "@sinclair/typebox";
import { normalizeEvmAddress } from "../chains/address/index.ts";
import type { AnalysisContext } from "./context.ts";
import type { StoredResponse } from "./schemas.ts";
import { latestCompleted } from "./store.ts";

export type StoredScans = Static<typeof StoredResponse>;
export type StoredScanItem = StoredScans["results"][number];

export async function storedScans(
  ctx: AnalysisContext,
  projectId: number,
  addresses: string[],
  chainId: number | undefined,
): Promise<StoredScans> {
  // Answered in request order, each address once, EVM addresses in lowercase.
  const wanted = [...new Set(addresses.map((a) => normalizeEvmAddress(a) ?? a.trim()))];
  const latest = await latestCompleted(ctx.db, { projectId, chainId, addresses: wanted });
  const results: StoredScanItem[] = [];
  const missingAddresses: string[] = [];
  for (const address of wanted) {
    const a = latest.get(address);
    if (!a?.result) {
      missingAddresses.push(address);
      continue;
    }
    const r = a.result;
    results.push({
      analysisId: a.id,
      address,
      chainId: String(a.chainId),
      riskScore: r.riskScore,
      riskLevel: r.riskLevel,
      riskReason: r.riskReason,
      suspiciousActivity: r.suspiciousActivity,
      patternsDetected: r.patterns.length,
      patterns: r.patterns,
      transactionsAnalyzed: r.analysisEvidence.transactionsAnalyzed,
      completedAt: (a.completedAt ?? a.updatedAt).toISOString(),
      maxDepth: a.maxDepth,
    });
  }
  return { total: wanted.length, missing: missingAddresses.length, results, missingAddresses };
}
