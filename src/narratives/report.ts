// GET /wallets/{wallet}/report's verb: the cached report of a project, address, chain scope and language while it
// has not expired (24 h by default) and no newer analysis of the address has completed than the one its risk rests
// on; otherwise the facts are gathered and written, by the LLM when one is configured and the project is under its
// hourly limit of LLM generations (a slot reserved before the call, so that the limit holds under concurrency),
// else (or when the LLM fails, times out or its answer does not pass check-answer.ts) by the deterministic writer.
// Either report carries the same "What to do" section, written by the service. Requests for the same report while
// it is being written wait for that one generation. Every generation is logged with its writer, model, language,
// the hash of its facts and what its risk rests on.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { type AnalysisContext, latestVerdict, latestVerdictMark } from "../analysis/index.ts";
import type { ParsedAddress } from "../chains/address/index.ts";
import type { ChainRegistry } from "../chains/index.ts";
import { capLock } from "../platform/db/advisory.ts";
import type { DB } from "../schema.ts";
import { checkAnswer } from "./check-answer.ts";
import { deterministicReport, sectionsOf, whatToDoSection } from "./deterministic.ts";
import { gatherReportFacts, type RiskBasis, storedAddressOf, type WalletFacts } from "./facts.ts";
import { heldOn, outrun } from "./freshness.ts";
import type { LlmWriter } from "./llm.ts";
import type { ReportLanguage, ReportWriter, RiskSource, WalletReportsTable } from "./tables.ts";

export interface NarrativesLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface NarrativesContext {
  db: Kysely<DB>;
  registry: ChainRegistry;
  /** the analyses a report cites, and the quick check it makes when the project has none */
  analysis: AnalysisContext;
  llm: LlmWriter | undefined;
  now: () => number;
  ttlMs: number;
  llmPerHour: number;
  log: NarrativesLog;
}

export interface ReportRequest {
  projectId: number;
  parsed: ParsedAddress;
  chainId: number | undefined;
  lang: ReportLanguage;
  recreate: boolean;
  /** the role of the key asking for recreate=true (logged with the generation) */
  refreshRole?: string | undefined;
}

export interface WalletReport {
  markdown: string;
  writer: ReportWriter;
  model: string | null;
  lang: ReportLanguage;
  factsSha256: string;
  createdAt: Date;
  cached: boolean;
  /** what its risk rests on: the project's analysis of that kind, a quick check made for it, or nothing */
  riskSource: RiskSource;
  analysisId: string | null;
  /** when that analysis completed (null: a quick check made for the report, or none) */
  analysisAt: Date | null;
}

/** A stable hash of the facts (their asOf day excluded: the same facts on another day are the same facts). */
export function factsHash(facts: WalletFacts): string {
  const { asOf: _, ...rest } = facts;
  return crypto.createHash("sha256").update(JSON.stringify(rest)).digest("hex");
}

export class WalletReports {
  readonly #inFlight = new Map<string, Promise<WalletReport>>();

  constructor(private readonly ctx: NarrativesContext) {}

  async get(req: ReportRequest): Promise<WalletReport> {
    const scope = req.chainId ?? 0;
    const key = `${req.projectId}\n${req.parsed.address}\n${scope}\n${req.lang}`;
    const pending = this.#inFlight.get(key);
    if (pending) return pending;
    if (!req.recreate) {
      const cached = await this.ctx.db
        .selectFrom("wallet_reports")
        .selectAll()
        .where("project_id", "=", req.projectId)
        .where("address", "=", req.parsed.address)
        .where("chain_scope", "=", scope)
        .where("lang", "=", req.lang)
        .where("expires_at", ">", new Date(this.ctx.now()))
        .executeTakeFirst();
      if (cached && !(await this.#outdated(req, cached)))
        return {
          markdown: cached.markdown,
          writer: cached.writer,
          model: cached.model,
          lang: cached.lang,
          factsSha256: cached.facts_sha256,
          createdAt: new Date(cached.created_at),
          cached: true,
          riskSource: cached.risk_source,
          analysisId: cached.analysis_id,
          analysisAt: cached.analysis_at === null ? null : new Date(cached.analysis_at),
        };
    }
    // Checked again: another request may have started the generation while this one read the cache.
    const started = this.#inFlight.get(key) ?? this.#generate(req, scope);
    this.#inFlight.set(key, started);
    try {
      return await started;
    } finally {
      if (this.#inFlight.get(key) === started) this.#inFlight.delete(key);
    }
  }

  /**
   * Whether a newer analysis of the address has completed than the one the cached report rests on (or one at all,
   * for a report written from a quick check), or a running investigation it rests on has completed more layers.
   */
  async #outdated(
    req: ReportRequest,
    cached: Pick<WalletReportsTable, "analysis_id" | "analysis_layers"> & {
      analysis_at: Date | string | null;
    },
  ): Promise<boolean> {
    if (req.parsed.family !== "evm" && req.parsed.family !== "tron") return false;
    const mark = await latestVerdictMark(this.ctx.db, {
      projectId: req.projectId,
      address: storedAddressOf(req.parsed),
      chainId: req.chainId,
    });
    if (!mark) return false;
    if (cached.analysis_id !== mark.id || cached.analysis_at === null) return true;
    if (
      new Date(cached.analysis_at).getTime() < mark.at.getTime() ||
      (cached.analysis_layers ?? null) !== mark.layers
    )
      return true;
    // The analysis it rests on is the latest, but the service now holds a later transfer of the address than it
    // read (freshness.ts): the report is written again, from an analysis made now.
    const latest = await latestVerdict(this.ctx.db, {
      projectId: req.projectId,
      address: storedAddressOf(req.parsed),
      chainId: req.chainId,
    });
    return (
      latest !== undefined &&
      outrun(latest.verdict, await heldOn(this.ctx.db, storedAddressOf(req.parsed), latest.verdict.chainId))
    );
  }

  /**
   * Takes one of the project's LLM calls of the last hour (VIGIA_LLM_REPORTS_PER_HOUR) before the call is made:
   * counted and inserted under the project's lock, so that reports written at once, in any process, cannot all pass
   * the cap. False when none is left. The slot is kept whatever the call's outcome: the call was made, and a failing
   * or slow endpoint is not called past the cap either.
   */
  async #reserveLlmCall(projectId: number): Promise<boolean> {
    if (!this.ctx.llm || this.ctx.llmPerHour <= 0) return false;
    const now = new Date(this.ctx.now());
    const since = new Date(now.getTime() - 3600_000);
    return this.ctx.db.transaction().execute(async (trx) => {
      await capLock("wallet_report_llm_slots", projectId).execute(trx);
      await trx
        .deleteFrom("wallet_report_llm_slots")
        .where("project_id", "=", projectId)
        .where("reserved_at", "<=", since)
        .execute();
      const row = await trx
        .selectFrom("wallet_report_llm_slots")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("project_id", "=", projectId)
        .executeTakeFirstOrThrow();
      if (Number(row.n) >= this.ctx.llmPerHour) return false;
      await trx
        .insertInto("wallet_report_llm_slots")
        .values({ project_id: projectId, reserved_at: now })
        .execute();
      return true;
    });
  }

  async #generate(req: ReportRequest, scope: number): Promise<WalletReport> {
    const started = performance.now();
    const now = new Date(this.ctx.now());
    const { facts, basis } = await gatherReportFacts(this.ctx.analysis, {
      projectId: req.projectId,
      parsed: req.parsed,
      chainId: req.chainId,
      now,
    });
    const hash = factsHash(facts);
    let markdown = deterministicReport(facts, req.lang);
    let writer: ReportWriter = "deterministic";
    let model: string | null = null;
    let fallback: string | null = null;
    const llm = this.ctx.llm;
    const llmCalled = llm !== undefined && (await this.#reserveLlmCall(req.projectId));
    if (llm && !llmCalled)
      fallback = `the project reached its limit of ${this.ctx.llmPerHour} LLM reports per hour`;
    if (llm && llmCalled) {
      try {
        const answer = await llm.write(facts, req.lang, sectionsOf(req.lang, false));
        const check = checkAnswer(answer, facts, this.#allowedLinks());
        if (check.ok) {
          markdown = withWhatToDo(answer, whatToDoSection(facts, req.lang));
          writer = "llm";
          model = llm.model;
        } else fallback = check.reason;
      } catch (error) {
        fallback = `the LLM call failed: ${(error as Error).message.slice(0, 300)}`;
      }
    }
    if (fallback)
      this.ctx.log.warn(
        { projectId: req.projectId, address: req.parsed.address, reason: fallback },
        "wallet report: the deterministic report is served",
      );
    const createdAt = new Date(this.ctx.now());
    const row = {
      project_id: req.projectId,
      address: req.parsed.address,
      chain_scope: scope,
      lang: req.lang,
      markdown,
      writer,
      model,
      facts_sha256: hash,
      created_at: createdAt,
      expires_at: new Date(createdAt.getTime() + this.ctx.ttlMs),
      ...basisColumns(basis),
    };
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("wallet_reports")
        .values(row)
        .onConflict((oc) =>
          oc.columns(["project_id", "address", "chain_scope", "lang"]).doUpdateSet({
            markdown: row.markdown,
            writer: row.writer,
            model: row.model,
            facts_sha256: row.facts_sha256,
            created_at: row.created_at,
            expires_at: row.expires_at,
            risk_source: row.risk_source,
            analysis_id: row.analysis_id,
            analysis_at: row.analysis_at,
            analysis_layers: row.analysis_layers,
          }),
        )
        .execute();
      await trx
        .insertInto("wallet_report_generations")
        .values({
          project_id: req.projectId,
          address: req.parsed.address,
          chain_scope: scope,
          lang: req.lang,
          writer,
          model,
          facts_sha256: hash,
          llm_called: llmCalled,
          fallback_reason: fallback,
          duration_ms: Math.round(performance.now() - started),
          created_at: createdAt,
          risk_source: basis.source,
          analysis_id: basis.analysisId,
          refresh_role: req.recreate ? (req.refreshRole ?? null) : null,
        })
        .execute();
    });
    return {
      markdown,
      writer,
      model,
      lang: req.lang,
      factsSha256: hash,
      createdAt,
      cached: false,
      riskSource: basis.source,
      analysisId: basis.analysisId,
      analysisAt: basis.at,
    };
  }

  /** Links an LLM's report may carry: the configured chains' explorers. */
  #allowedLinks(): string[] {
    return this.ctx.registry
      .enabled()
      .map((c) => c.explorer_url)
      .filter((u): u is string => typeof u === "string" && u.length > 0)
      .map((u) => u.replace(/\/*$/, "/"));
  }
}

const basisColumns = (b: RiskBasis) => ({
  risk_source: b.source,
  analysis_id: b.analysisId,
  analysis_at: b.at,
  analysis_layers: b.layers,
});

/**
 * An LLM's report with the service's "What to do" section put after its summary (before its second level-2
 * heading), or at its end when it has no second one.
 */
export function withWhatToDo(answer: string, section: string): string {
  const lines = answer.trimEnd().split("\n");
  const headings = lines.flatMap((l, i) => (l.startsWith("## ") ? [i] : []));
  const at = headings[1];
  if (at === undefined) return `${lines.join("\n")}\n\n${section}`;
  return `${[...lines.slice(0, at), ...section.split("\n"), ...lines.slice(at)].join("\n").trimEnd()}\n`;
}
