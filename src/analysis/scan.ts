// POST /projects/{projectId}/addresses/scan-risk (docs/api.md, "Risk analysis"): 1-50 addresses, each on
// its chain, at one depth. Per chain, the addresses to analyse are expanded together (multi-root) and scored
// once; skipExisting returns an address's stored result of the same project, chain and depth as `skipped`; an
// unknown chain, a non-EVM address or a failing data source fails that address only. Every analysis (completed
// or failed) is stored with its analysisId.
import type { Static } from "@sinclair/typebox";
import { normalizeStoredAddress } from "../chains/address/index.ts";
import type { AnalysisContext } from "./context.ts";
import { NO_DATA, noDataReason, withheld } from "./coverage.ts";
import { OUT_OF_TIME, requestDeadline } from "./deadline.ts";
import { failedResult, publicResult, type ScanResult, type StoredResult, scanResultOf } from "./result.ts";
import { runAnalysis } from "./run.ts";
import type { ScanResponse } from "./schemas.ts";
import { insertFinished, latestCompleted, newAnalysisId } from "./store.ts";
import { fromAnalysis } from "./verdict.ts";
import { tellVerdict } from "./verdicts.ts";
import { reasonEs } from "./words.ts";

export interface ScanRequest {
  projectId: number;
  addresses: { address: string; chainId: string }[];
  maxDepth: number;
  skipExisting: boolean;
  /** The language of the answer's reasons (docs/api.md "Languages"); English, the risk core's, when absent. */
  lang?: string;
}

/**
 * A stored result as answered: in Spanish its reason is written from its evidence (words.ts); in English it is the
 * risk core's, as stored.
 */
export function answeredResult(
  stored: StoredResult,
  maxDepth: number,
  lang: string | undefined,
  status?: ScanResult["status"],
): ScanResult {
  const answer = publicResult(stored, status);
  if (lang !== "es") return answer;
  return { ...answer, riskReason: reasonEs(fromAnalysis(stored.address, stored, maxDepth), stored.address) };
}

export type ScanSummary = Static<typeof ScanResponse>["summary"];

export async function scanRisk(
  ctx: AnalysisContext,
  req: ScanRequest,
): Promise<{ summary: ScanSummary; results: ScanResult[] }> {
  const started = performance.now();
  const deadline = requestDeadline(ctx);
  const results: (ScanResult | undefined)[] = req.addresses.map(() => undefined);
  // chainId -> address -> positions in the request (an address may be listed twice)
  const byChain = new Map<number, Map<string, number[]>>();
  const failures: { i: number; address: string; chainId: string; error: string }[] = [];

  req.addresses.forEach(({ address, chainId }, i) => {
    const chain = /^[1-9][0-9]{0,15}$/.test(chainId) ? ctx.registry.get(Number(chainId)) : undefined;
    if (!chain?.enabled) {
      failures.push({ i, address, chainId, error: `Unknown chain ${chainId}` });
      return;
    }
    const parsed = ctx.registry.parseAddress(chain.id, address);
    if ("error" in parsed) {
      const error =
        (chain.kind ?? "evm") === "evm"
          ? "Not an EVM address (0x followed by 40 hex digits)"
          : `The address ${parsed.error}`;
      failures.push({ i, address, chainId, error });
    } else {
      const roots = byChain.get(chain.id) ?? new Map<string, number[]>();
      roots.set(parsed.address, [...(roots.get(parsed.address) ?? []), i]);
      byChain.set(chain.id, roots);
    }
  });

  for (const [chainId, roots] of byChain) {
    if (req.skipExisting) {
      const stored = await latestCompleted(ctx.db, {
        projectId: req.projectId,
        chainId,
        addresses: [...roots.keys()],
        maxDepth: req.maxDepth,
      });
      for (const [address, analysis] of stored) {
        if (!analysis.result) continue;
        for (const i of roots.get(address) ?? [])
          results[i] = answeredResult(analysis.result, req.maxDepth, req.lang, "skipped");
        roots.delete(address);
      }
    }
    if (roots.size === 0) continue;
    await analyseChain(ctx, req, chainId, roots, results, failures, deadline);
  }

  for (const f of failures) {
    const id = newAnalysisId();
    const stored = normalizeStoredAddress(f.address);
    const chain = /^[1-9][0-9]{0,15}$/.test(f.chainId) ? Number(f.chainId) : undefined;
    // Stored when it can be keyed (a known chain number); an unparseable chain id is answered only.
    if (chain !== undefined && chain <= 2147483647) {
      await insertFinished(
        ctx.db,
        {
          id,
          projectId: req.projectId,
          chainId: chain,
          address: stored ?? f.address,
          kind: "scan",
          maxDepth: req.maxDepth,
        },
        { error: f.error, durationMs: 0 },
      );
    }
    results[f.i] = failedResult(stored ?? f.address, f.chainId, req.maxDepth, id, f.error);
  }

  const final = results as ScanResult[];
  ctx.observeDuration?.("scan", (performance.now() - started) / 1000);
  return {
    summary: {
      total: final.length,
      completed: final.filter((r) => r.status === "completed").length,
      skipped: final.filter((r) => r.status === "skipped").length,
      failed: final.filter((r) => r.status === "failed").length,
      duration: Math.round(performance.now() - started),
    },
    results: final,
  };
}

async function analyseChain(
  ctx: AnalysisContext,
  req: ScanRequest,
  chainId: number,
  roots: Map<string, number[]>,
  results: (ScanResult | undefined)[],
  failures: { i: number; address: string; chainId: string; error: string }[],
  deadline: AbortSignal,
): Promise<void> {
  let outcomes: Awaited<ReturnType<typeof runAnalysis>>;
  try {
    outcomes = await runAnalysis(ctx, {
      projectId: req.projectId,
      chainId,
      roots: [...roots.keys()],
      maxDepth: req.maxDepth,
      signal: deadline,
    });
  } catch (error) {
    const reason = deadline.aborted ? OUT_OF_TIME : DATA_SOURCE_FAILED;
    // The detail (a driver message, an upstream host or body) is for the operator's log, never for the client.
    ctx.log?.warn({ err: error, chainId, roots: roots.size }, "scan: the analysis failed");
    for (const [address, positions] of roots) {
      for (const i of positions) failures.push({ i, address, chainId: String(chainId), error: reason });
    }
    return;
  }
  for (const [address, positions] of roots) {
    const outcome = outcomes.get(address);
    const id = newAnalysisId();
    if (!outcome) {
      for (const i of positions)
        failures.push({ i, address, chainId: String(chainId), error: "No analysis produced" });
      continue;
    }
    if (withheld(outcome.coverage, outcome.analysis.level)) {
      // Stored as a failure (no result): a later skipExisting or wallet report never takes it for a verdict.
      const error = noDataReason(outcome.coverage);
      const failed = failedResult(address, String(chainId), req.maxDepth, id, error, {
        errorCode: NO_DATA,
        coverage: outcome.coverage,
      });
      await insertFinished(
        ctx.db,
        { id, projectId: req.projectId, chainId, address, kind: "scan", maxDepth: req.maxDepth },
        { error, durationMs: outcome.metrics.durationMs, failed },
      );
      for (const i of positions) results[i] = failed;
      continue;
    }
    const stored = scanResultOf(
      id,
      chainId,
      req.maxDepth,
      outcome.analysis,
      outcome.metrics,
      outcome.coverage,
    );
    await insertFinished(
      ctx.db,
      { id, projectId: req.projectId, chainId, address, kind: "scan", maxDepth: req.maxDepth },
      { result: stored, durationMs: outcome.metrics.durationMs },
    );
    await tellVerdict(ctx, { projectId: req.projectId, chainId, address, kind: "scan", result: stored });
    for (const i of positions) results[i] = answeredResult(stored, req.maxDepth, req.lang);
  }
}

/** The fixed reason a client gets when the analysis of a chain fails. */
export const DATA_SOURCE_FAILED = "Data source failed";
