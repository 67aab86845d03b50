// The verdict on an address that other rooms cite (a wallet report, src/narratives): the project's latest analysis
// of it of any kind (a scan, a risk job, an investigation; an investigation still running by its latest completed
// layer, provisional), or a quick check made on the spot. One shape for all of them, with the evidence the stored
// result keeps (findings, exposure entries as paths, what drives the score), so that a reader cites the analysis
// and never recomputes it.

import type { Kysely } from "kysely";
import type { Coverage } from "../ledger/index.ts";
import {
  analyseGraph,
  type Finding,
  type RiskAnalysis,
  type RiskConfig,
  type RiskLevel,
  type Severity,
} from "../risk/index.ts";
import type { DB } from "../schema.ts";
import type { AnalysisContext } from "./context.ts";
import { type ExposurePath, exposurePaths } from "./exposure-entries.ts";
import { layerExposure, layerFinding } from "./layer-finding.ts";
import type { CompletedLayer } from "./layered/layer-result.ts";
import { getLayeredAnalysis, readLayerBody } from "./layered/store.ts";
import { quickExpansion, quickRisk } from "./quick.ts";
import type { StoredResult } from "./result.ts";
import type { QuickRiskResponse } from "./schemas.ts";
import { getAnalysis, latestVerdictMark, type VerdictMark } from "./store.ts";
import { riskConfigFor } from "./thresholds.ts";

export type VerdictSource = "scan" | "job" | "investigation" | "quick";

/** A finding of the verdict (the address takes part in it), with its evidence. */
export interface VerdictFinding {
  pattern: string;
  severity: Severity;
  /** null where the analysis did not keep it (a quick check's answer) */
  confidence: number | null;
  subject: string;
  wallets: string[];
  /** the wallets that perform it; null where the analysis did not keep them (a layer's patterns) */
  actors: string[] | null;
  txs: string[];
  usdAmount: number;
  thresholds: Record<string, number | string>;
  /** the risk core's sentence (English, as the API gives it) */
  message: string;
}

/** An exposure entry as a path (exposure-entries.ts). */
export type VerdictExposure = ExposurePath;

/** What adds to the score, largest first (the risk core's contributions of a point or more). */
export interface VerdictDriver {
  kind: "exposure" | "pattern";
  /** the exposure's category or the pattern's name */
  name: string;
  /** index into the verdict's exposure (kind exposure) or findings (kind pattern); -1 when not kept */
  ref: number;
  /** the address performs the pattern itself (kind pattern) */
  direct: boolean;
  /** the exchange discount was applied */
  discounted: boolean;
}

export interface WalletVerdict {
  source: VerdictSource;
  /** null for a quick check (it is not stored) */
  analysisId: string | null;
  chainId: number;
  /** hops the analysis reached */
  maxDepth: number;
  /** when the analysis completed (a running investigation's latest layer); a quick check's own time */
  at: Date;
  /** a risk job's date window */
  window: { from: Date | null; to: Date | null };
  /** an investigation still running: its completed layers of all; the verdict is provisional */
  layers: { completed: number; total: number } | null;
  /** null: a quick check that withheld its verdict (GET /risk/quick's answer without a score) */
  score: number | null;
  level: RiskLevel | null;
  /** the risk core's reason, as the API gives it (English) */
  reason: string;
  findings: VerdictFinding[];
  exposure: VerdictExposure[];
  /** the address's own totals in the graph (kept by full analyses; not by a layer) */
  totals: {
    incomingUsd: number;
    outgoingUsd: number;
    incomingTransfers: number;
    outgoingTransfers: number;
    counterparties: number;
    maxHops: number;
  } | null;
  /** null where the analysis did not keep them (a layer) */
  drivers: VerdictDriver[] | null;
  /** a quick check of a busy address read only its newest transfers each way: how many */
  newestTransfersOnly: number | null;
  /** the quick check as GET /risk/quick answers it (quick checks only) */
  quick: QuickRiskResponse | null;
  /** what the verdict rests on (null: an analysis stored before verdicts carried it) */
  coverage: Coverage | null;
}

export { latestVerdictMark, type VerdictMark };

/** The project's latest verdict on the address (any kind of analysis), or undefined when it has none. */
export async function latestVerdict(
  db: Kysely<DB>,
  q: { projectId: number; address: string; chainId?: number | undefined },
): Promise<{ mark: VerdictMark; verdict: WalletVerdict } | undefined> {
  const mark = await latestVerdictMark(db, q);
  if (!mark) return undefined;
  const verdict =
    mark.layers === null
      ? await completedVerdict(db, q.projectId, mark)
      : await layerVerdict(db, q.projectId, mark);
  return verdict ? { mark, verdict } : undefined;
}

async function completedVerdict(
  db: Kysely<DB>,
  projectId: number,
  mark: VerdictMark,
): Promise<WalletVerdict | undefined> {
  const a = await getAnalysis(db, projectId, mark.id);
  if (!a?.result || a.kind === "quick") return undefined;
  return {
    ...fromAnalysis(a.address, a.result as StoredResult, a.maxDepth),
    source: a.kind,
    analysisId: a.id,
    chainId: a.chainId,
    at: mark.at,
    window: { from: a.windowFrom, to: a.windowTo },
    layers: null,
  };
}

async function layerVerdict(
  db: Kysely<DB>,
  projectId: number,
  mark: VerdictMark,
): Promise<WalletVerdict | undefined> {
  const a = await getLayeredAnalysis(db, projectId, mark.id);
  const body = a && mark.layers ? await readLayerBody(db, mark.id, mark.layers - 1) : undefined;
  if (!a || !body || !mark.layers) return undefined;
  const layer = JSON.parse(body) as CompletedLayer;
  const root = a.address;
  return {
    source: "investigation",
    analysisId: a.id,
    chainId: a.chainId,
    maxDepth: a.maxDepth,
    at: mark.at,
    window: { from: null, to: null },
    layers: { completed: mark.layers, total: a.maxDepth },
    score: layer.riskScore,
    level: layer.riskLevel,
    reason: layer.riskReason,
    // As a stored result keeps them: the findings the address takes part in.
    findings: layer.detectedPatterns
      .filter((p) => p.evidence.wallets.includes(root) || p.subject === root)
      .map(layerFinding),
    exposure: (layer.exposure ?? []).map(layerExposure),
    totals: null,
    drivers: null,
    newestTransfersOnly: null,
    quick: null,
    coverage: layer.coverage ?? null,
  };
}

type Analysed = Pick<
  WalletVerdict,
  "maxDepth" | "score" | "level" | "reason" | "findings" | "exposure" | "totals" | "drivers"
> &
  Pick<WalletVerdict, "newestTransfersOnly" | "quick" | "coverage">;

/** A stored result (a scan's, a job's, a finished investigation's) as a verdict. */
export function fromAnalysis(root: string, r: StoredResult, maxDepth: number): Analysed {
  const findings = r.findings.map(finding);
  const contributions = r.contributions ?? [];
  const drivers = contributions
    .filter((c) => c.points >= 1)
    .map((c) => ({
      kind: c.kind,
      name: c.name,
      // A stored result keeps only the findings the address takes part in, so a pattern's `ref` (an index into
      // every finding of the graph) is found again by its pattern: the strongest one of the address's role.
      ref: c.kind === "exposure" ? c.ref : strongestOf(findings, c.name, root, c.direct),
      direct: c.direct,
      discounted: c.discounted,
    }));
  return {
    maxDepth,
    score: r.riskScore,
    level: r.riskLevel,
    reason: r.riskReason,
    findings,
    exposure: exposurePaths(r.exposure, contributions),
    totals: r.exposure ? totalsOf(r.exposure) : null,
    drivers: r.contributions ? drivers : null,
    newestTransfersOnly: null,
    quick: null,
    coverage: r.coverage ?? null,
  };
}

const totalsOf = (e: RiskAnalysis["exposure"]) => ({
  incomingUsd: e.incomingUsd,
  outgoingUsd: e.outgoingUsd,
  incomingTransfers: e.incomingTransfers,
  outgoingTransfers: e.outgoingTransfers,
  counterparties: e.counterparties,
  maxHops: e.maxHops,
});

const finding = (f: Finding): VerdictFinding => ({
  pattern: f.pattern,
  severity: f.severity,
  confidence: f.confidence,
  subject: f.subject,
  wallets: f.wallets,
  actors: f.actors ?? null,
  txs: f.txs,
  usdAmount: f.usdAmount,
  thresholds: f.thresholds,
  message: f.message,
});

function strongestOf(findings: VerdictFinding[], pattern: string, root: string, direct: boolean): number {
  let best = -1;
  findings.forEach((f, i) => {
    if (f.pattern !== pattern || (f.actors?.includes(root) ?? f.subject === root) !== direct) return;
    if (best < 0 || (f.confidence ?? 0) > ((findings[best] as VerdictFinding).confidence ?? 0)) best = i;
  });
  return best;
}

/**
 * Transfers the risk core's quick check examines in its round-trip search in all (src/risk/present.ts
 * QUICK_ROUND_TRIP_STEPS). Only the evidence run reads it; quickVerdict keeps that run's evidence only when it
 * agrees with GET /risk/quick's answer.
 */
const QUICK_ROUND_TRIP_STEPS = 50_000;

/** The quick check's configuration (src/risk/present.ts quickConfigOf): direct exposure, one-hop mixing. */
function quickConfig(config: RiskConfig): RiskConfig {
  return {
    ...config,
    exposure: { ...config.exposure, maxHops: 1 },
    detectors: {
      ...config.detectors,
      mixing: { ...config.detectors?.mixing, maxHops: 1 },
      round_tripping: { maxStepsTotal: QUICK_ROUND_TRIP_STEPS, ...config.detectors?.round_tripping },
    },
  };
}

/** The quick check's analysis with its evidence (GET /risk/quick keeps only the answer): the same graph and model. */
async function quickEvidence(
  ctx: AnalysisContext,
  projectId: number,
  address: string,
  chainId: number,
): Promise<{ analysis: RiskAnalysis; capped: number | null }> {
  const { graph, layers, perDirection } = await quickExpansion(ctx, address, chainId);
  const analysis = analyseGraph(
    graph,
    address,
    quickConfig((await riskConfigFor(ctx, projectId, graph)) ?? {}),
  );
  return { analysis, capped: layers[0]?.capped.includes(address) ? perDirection : null };
}

/**
 * A quick check made now: GET /risk/quick's answer (quickRisk, `quick`), which gives the score, level and reason,
 * with the evidence behind it (findings, exposure paths, what drives the score) from the same analysis of the
 * same one-hop graph. The evidence is kept only when it agrees with the answer (same score and level); otherwise,
 * and for a withheld verdict, the verdict has the answer's patterns and no exposure. Not stored.
 */
export async function quickVerdict(
  ctx: AnalysisContext,
  projectId: number,
  address: string,
  chainId: number,
): Promise<WalletVerdict> {
  const quick = await quickRisk(ctx, projectId, address, chainId);
  const base = {
    source: "quick" as const,
    analysisId: null,
    chainId,
    maxDepth: 1,
    at: new Date(),
    window: { from: null, to: null },
    layers: null,
    score: quick.risk,
    level: quick.level,
    reason: quick.reason,
    quick,
    coverage: quick.coverage ?? null,
  };
  const answered = {
    ...base,
    findings: quick.patterns.map((p) => ({
      pattern: p.name,
      severity: p.severity,
      confidence: null,
      subject: address,
      wallets: p.involvedWallets,
      actors: null,
      txs: p.involvedTxs,
      usdAmount: p.usdAmount,
      thresholds: {},
      message: p.message,
    })),
    exposure: [],
    totals: null,
    drivers: null,
    newestTransfersOnly: null,
  };
  if (quick.risk === null || quick.level === null) return answered;
  const { analysis, capped } = await quickEvidence(ctx, projectId, address, chainId);
  if (analysis.score !== quick.risk || analysis.level !== quick.level) return answered;
  const involved = analysis.findings.filter((f) => f.wallets.includes(address));
  const drivers = analysis.contributions
    .filter((c) => c.points >= 1)
    .map((c) => {
      const f = c.kind === "pattern" ? analysis.findings[c.ref] : undefined;
      return {
        kind: c.kind,
        name: c.name,
        ref: c.kind === "exposure" ? c.ref : f ? involved.indexOf(f) : -1,
        direct: c.direct,
        discounted: c.discounted,
      };
    });
  return {
    ...base,
    findings: involved.map(finding),
    exposure: exposurePaths(analysis.exposure, analysis.contributions),
    totals: totalsOf(analysis.exposure),
    drivers,
    newestTransfersOnly: capped,
  };
}
