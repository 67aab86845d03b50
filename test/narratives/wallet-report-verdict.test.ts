// What a wallet report's risk rests on, on the real service (PGlite, or PostgreSQL with DATABASE_URL) over the
// devnet scenario: a quick check made for the report while the project has no analysis of the address, then the
// project's latest analysis of any kind (an investigation, a risk job, a newer scan, an investigation still running
// by its latest layer), each replacing the cached report as it completes; the evidence (the transfers along an
// exposure path, hop by hop, and those of a pattern); the "What to do" line by level, naming the project's FIU;
// the Spanish report with no English in it, reasons included; and a viewer key refreshing a report until the
// project's hourly limit, then 429 with Retry-After and when.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnalysisContext } from "../../src/analysis/index.ts";
import { runRiskJob } from "../../src/analysis/jobs.ts";
import { advanceAnalysis } from "../../src/analysis/layered/index.ts";
import { parseAddress } from "../../src/chains/address/index.ts";
import { whatToDo } from "../../src/narratives/guidance.ts";
import { gatherFacts, type WalletFacts } from "../../src/narratives/index.ts";
import { inert } from "../../src/narratives/markdown.ts";
import { devnetWorld, writeWorldToStore } from "../../src/worlds/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const world = devnetWorld();
const positive = (pattern: string) => world.cases.filter((c) => c.pattern === pattern && c.positive);
const sanctions = positive("sanctions_exposure").sort((a, b) => a.note.localeCompare(b.note));
/** 1 and 2 hops from a sanctioned address; the second received through the first */
const oneHop = sanctions[0]!;
const twoHops = sanctions[1]!;
const peel = positive("peel_chain")[0]!;
const structuring = positive("structuring")[0]!;
const mixer = positive("mixing")[0]!;
const NOW = Date.parse("2026-11-20T12:00:00Z");
const REFRESHES = 2;

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    env: { VIGIA_WALLET_REPORT_REFRESHES_PER_HOUR: String(REFRESHES) },
    service: { clock: () => NOW },
  });
  await writeWorldToStore(svc.database.db, world, 1);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
});

const analysisOf = (): AnalysisContext => ({ db: svc.database.db, registry: svc.registry, jobs: svc.jobs });

const report = (wallet: string, query = "", key = svc.project.keys.viewer) =>
  svc.app!.inject({ url: `/v1/wallets/${wallet}/report${query}`, headers: auth(key) });

const factsOf = (wallet: string, projectId = svc.project.id): Promise<WalletFacts> =>
  gatherFacts(analysisOf(), {
    projectId,
    parsed: parseAddress(wallet)!,
    chainId: undefined,
    now: new Date(NOW),
  });

async function post(url: string, payload: object, key = svc.project.keys.developer) {
  const res = await svc.app!.inject({ method: "POST", url, headers: auth(key), payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json().data;
}

const investigate = (wallet: string, incremental = false) =>
  post(`/v1/projects/${svc.project.id}/investigations`, {
    name: `case ${wallet.slice(0, 8)}`,
    wallet,
    chainId: 1,
    incremental,
    maxDepth: 3,
  }) as Promise<{ analysis_id: string }>;

const scan = async (addresses: string[], projectId = svc.project.id, key = svc.project.keys.developer) =>
  (
    (await post(
      `/v1/projects/${projectId}/addresses/scan-risk`,
      { addresses: addresses.map((address) => ({ address, chainId: "1" })), maxDepth: 3 },
      key,
    )) as { results: { address: string; analysisId: string }[] }
  ).results;

/** The "What to do" section's line. */
const whatToDoLine = (markdown: string, heading = "## What to do") =>
  markdown.split(`${heading}\n\n`)[1]?.split("\n")[0] ?? "";

describe("what the risk rests on", () => {
  it("a quick check made for the report while the project has no analysis; the investigation once it completes", async () => {
    const first = await report(twoHops.subject);
    expect(first.headers["x-report-risk-source"]).toBe("quick");
    expect(first.headers["x-report-analysis-id"]).toBe("none");
    expect(first.json().data).toContain(
      "from a quick check made for this report on 2026-11-20 (direct counterparties",
    );
    expect((await report(twoHops.subject)).headers["x-report-cached"]).toBe("true");

    const { analysis_id: id } = await investigate(twoHops.subject);
    const res = await report(twoHops.subject);
    expect(res.headers["x-report-cached"]).toBe("false");
    expect(res.headers["x-report-risk-source"]).toBe("investigation");
    expect(res.headers["x-report-analysis-id"]).toBe(id);
    const facts = await factsOf(twoHops.subject);
    expect(facts.risk).toMatchObject({
      source: "investigation",
      analysisId: id,
      depth: 3,
      provisional: null,
    });
    expect(res.json().data).toContain(
      `Risk: **${facts.risk!.score}/100 (${facts.risk!.level})**, from investigation \`${id}\` of ${facts.risk!.analyzedOn} (3 hops on Ethereum).`,
    );
    // And what it rests on: the investigation's coverage (the world imported on chain 1).
    expect(facts.risk!.basis).toMatchObject({ source: "import", current: true });
    expect(res.json().data).toMatch(
      /\(3 hops on Ethereum\)\. It rests on imported data up to \d{4}-\d{2}-\d{2}, \d+ transfers read; no indexer or explorer follows the chain/,
    );
    // Until a newer analysis completes, the report stays cached.
    expect((await report(twoHops.subject)).headers["x-report-cached"]).toBe("true");
  });

  it("a risk job, then a newer scan that replaces the cached report", async () => {
    const { jobId } = (await post("/v1/risk", { address: peel.subject, chainId: 1 })) as { jobId: string };
    await runRiskJob(analysisOf(), jobId, true);
    const fromJob = await report(peel.subject);
    expect(fromJob.headers["x-report-risk-source"]).toBe("job");
    expect(fromJob.headers["x-report-analysis-id"]).toBe(jobId);
    expect(fromJob.json().data).toMatch(new RegExp(`from risk job \`${jobId}\` of \\d{4}-\\d{2}-\\d{2} \\(`));
    expect((await report(peel.subject)).headers["x-report-cached"]).toBe("true");

    const [scanned] = await scan([peel.subject]);
    const fromScan = await report(peel.subject);
    expect(fromScan.headers["x-report-cached"]).toBe("false");
    expect(fromScan.headers["x-report-risk-source"]).toBe("scan");
    expect(fromScan.headers["x-report-analysis-id"]).toBe(scanned!.analysisId);
    expect(fromScan.json().data).toContain(`from scan \`${scanned!.analysisId}\` of`);
    expect(fromScan.json().data).not.toContain(jobId);
    const log = await svc.database.db
      .selectFrom("wallet_report_generations")
      .select(["risk_source", "analysis_id"])
      .where("address", "=", peel.subject)
      .orderBy("id")
      .execute();
    expect(log).toEqual([
      { risk_source: "job", analysis_id: jobId },
      { risk_source: "scan", analysis_id: scanned!.analysisId },
    ]);
  });

  it("an investigation still running: its latest layer, provisional; each new layer writes the report again", async () => {
    const { analysis_id: id } = await investigate(structuring.subject, true);
    await advanceAnalysis(analysisOf(), id);
    const one = await report(structuring.subject);
    expect(one.headers["x-report-risk-source"]).toBe("investigation");
    expect(one.json().data).toContain(`from investigation \`${id}\``);
    expect(one.json().data).toContain("; provisional: 1 of 3 layers completed.");
    expect((await report(structuring.subject)).headers["x-report-cached"]).toBe("true");
    await advanceAnalysis(analysisOf(), id);
    const two = await report(structuring.subject);
    expect(two.headers["x-report-cached"]).toBe("false");
    expect(two.json().data).toContain("; provisional: 2 of 3 layers completed.");
    await advanceAnalysis(analysisOf(), id);
    const done = await report(structuring.subject);
    expect(done.headers["x-report-cached"]).toBe("false");
    expect(done.json().data).not.toContain("provisional");
    expect((await factsOf(structuring.subject)).risk?.patterns.map((p) => p.pattern)).toContain(
      "structuring",
    );
  });
});

describe("the evidence", () => {
  it("lists the transfers along the exposure path, hop by hop, from the sanctioned address to the wallet", async () => {
    const facts = await factsOf(twoHops.subject);
    const path = facts.risk!.exposure.find((e) => e.drivesScore)!;
    expect(path).toMatchObject({ category: "sanctioned", direction: "incoming", hops: 2 });
    const [listed] = path.counterparties;
    const [intermediary] = path.via;
    expect(intermediary).toBe(oneHop.subject);
    // Each hop of the path has its transfer, and each is one the scenario made.
    const hops = path.transfers.map((t) => `${t.from}>${t.to}`);
    expect(hops).toContain(`${listed!.address}>${intermediary}`);
    expect(hops).toContain(`${intermediary}>${twoHops.subject}`);
    for (const t of path.transfers)
      expect(
        world.transfers.some(
          (w) => w.from === t.from && w.to === t.to && new Date(w.at * 1000).toISOString().startsWith(t.day),
        ),
        `${t.from} -> ${t.to} on ${t.day}`,
      ).toBe(true);
    const markdown: string = (await report(twoHops.subject)).json().data;
    const evidence = markdown.split("## Evidence")[1]!;
    expect(evidence).toContain("### Exposure paths");
    expect(evidence).toContain(`via \`${intermediary}\``);
    for (const t of path.transfers) expect(evidence).toContain(`| \`${t.from}\` | \`${t.to}\` |`);
    for (const t of path.transfers) expect(evidence).toContain(t.tx);
  });

  it("lists each pattern's transactions with their transfers", async () => {
    await scan([mixer.subject]);
    const facts = await factsOf(mixer.subject);
    const mixing = facts.risk!.patterns.find((p) => p.pattern === "mixing")!;
    expect(mixing.transactions).toBeGreaterThan(0);
    expect(mixing.transfers.length).toBeGreaterThan(0);
    const markdown: string = (await report(mixer.subject)).json().data;
    const patterns = markdown.split("### Patterns")[1]!.split("## Limits")[0]!;
    expect(patterns).toContain(`- mixing: ${mixing.transactions} transaction`);
    for (const tx of mixing.txs) expect(patterns).toContain(tx);
    for (const t of mixing.transfers) expect(patterns).toContain(`| \`${t.from}\` | \`${t.to}\` |`);
  });
});

describe("what to do", () => {
  it("says at each level what a compliance officer is advised to do, in both languages", () => {
    const lines = (["minimal", "low", "medium", "high", "critical"] as const).map((level) => ({
      en: whatToDo({ level, sanctioned: false, fius: [] }, "en"),
      es: whatToDo({ level, sanctioned: false, fius: [] }, "es"),
    }));
    expect(new Set(lines.map((l) => l.en)).size).toBe(5);
    expect(new Set(lines.map((l) => l.es)).size).toBe(5);
    const critical = lines[4]!;
    expect(critical.en).toMatch(/^Freeze or hold the funds/);
    expect(critical.en).toContain("escalate to the compliance officer");
    expect(critical.en).toContain(
      "suspicious-activity report to the financial intelligence unit (FIU) of your jurisdiction",
    );
    expect(critical.es).toMatch(/^Congele o retenga los fondos/);
    expect(critical.es).toContain("al oficial de cumplimiento");
    expect(lines[0]!.en).toMatch(/^No risk indicators/);
    for (const l of lines) {
      expect(l.en).toMatch(/the decision rests with the compliance officer\.$/);
      expect(l.es).toMatch(/la decisión corresponde al oficial de cumplimiento\.$/);
    }
    // A listed address gets the critical line whatever its score; no verdict says so.
    expect(whatToDo({ level: "minimal", sanctioned: true, fius: [] }, "en")).toBe(critical.en);
    expect(whatToDo({ level: null, sanctioned: false, fius: [] }, "en")).toMatch(
      /^No risk verdict: the service holds no transactions/,
    );
    expect(whatToDo({ level: null, sanctioned: false, fius: [], withheld: true }, "es")).toMatch(
      /^Sin veredicto de riesgo: los datos que el servicio tiene de esta dirección no están al día/,
    );
  });

  it("a report carries the line of its level after the summary, naming the FIU of the project's jurisdictions", async () => {
    const facts = await factsOf(twoHops.subject);
    expect(facts.risk!.level).toBe("critical");
    const markdown: string = (await report(twoHops.subject)).json().data;
    expect(whatToDoLine(markdown)).toBe(whatToDo({ level: "critical", sanctioned: false, fius: [] }, "en"));
    const es: string = (await report(twoHops.subject, "?lang=es")).json().data;
    expect(whatToDoLine(es, "## Qué hacer")).toMatch(/^Congele o retenga/);

    // A project enabling Mexico: its FIU by name.
    const other = svc.other;
    const patched = await svc.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${other.id}`,
      headers: auth(other.keys.admin),
      payload: { jurisdictions: ["MX"] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const theirs: string = (await report(oneHop.subject, "?lang=es", other.keys.admin)).json().data;
    expect(whatToDoLine(theirs, "## Qué hacer")).toContain(
      "reporte de operación sospechosa a la UIF \\(Unidad de Inteligencia Financiera\\) dentro del plazo legal",
    );
  });
});

describe("the Spanish report", () => {
  /** English words of the risk core's reasons and messages, and of the report's own frame. */
  const ENGLISH =
    /\b(Received|Sent|received|sent|directly|funds|hops?|away|incoming|outgoing|transfers?|within|in total|risk indicators|Counterparty|via|indicators?|discounted|Reason|address(es)?|each|the|of|and|with|from|to|Moved|through|Peel chain|fresh|left|came back|back and forth|First funder|median|net flow|gross|threshold|quick check|investigation|scan|job|provisional|layers?|none|Summary|Evidence|Pattern|What)\b/;

  /** The markdown without what is data (code spans, labels, chain names, token symbols) or a figure. */
  function frameOf(markdown: string, facts: WalletFacts): string {
    const data = [
      ...facts.labels.map((l) => l.label),
      ...facts.counterparties.flatMap((c) => [c.label ?? "", c.depositOf ?? ""]),
      ...(facts.risk?.exposure.flatMap((e) => e.counterparties.map((c) => c.label ?? "")) ?? []),
      ...(facts.risk?.exposure.flatMap((e) => e.transfers.map((t) => t.symbol)) ?? []),
      ...(facts.risk?.patterns.flatMap((p) => p.transfers.map((t) => t.symbol)) ?? []),
      ...facts.activity.map((a) => a.chain),
      ...facts.limits.map((l) => ("chain" in l ? l.chain : l.network)),
    ]
      .filter((s) => s.length > 0)
      .map(inert)
      .sort((a, b) => b.length - a.length);
    let text = markdown.replace(/`[^`]*`/g, " ");
    for (const d of data) text = text.replaceAll(d, " ");
    return text;
  }

  it("is Spanish throughout, reasons and patterns included, for every pattern and exposure of the scenario", async () => {
    // The other project scans every positive case, so that each report rests on a full analysis.
    const subjects = [...new Set(world.cases.filter((c) => c.positive).map((c) => c.subject))];
    await scan(subjects, svc.other.id, svc.other.keys.admin);
    const reasons = new Set<string>();
    for (const subject of subjects) {
      const facts = await factsOf(subject, svc.other.id);
      expect(facts.risk?.source, subject).toBe("scan");
      const markdown: string = (await report(subject, "?lang=es", svc.other.keys.admin)).json().data;
      expect(markdown).toContain(`Razón que da el análisis: ${inert(facts.risk!.reasonEs)}`);
      expect(markdown).not.toContain(inert(facts.risk!.reason));
      for (const p of facts.risk!.patterns) {
        expect(markdown).toContain(inert(p.messageEs));
        expect(markdown).not.toContain(inert(p.message));
      }
      const frame = frameOf(markdown, facts);
      expect(frame.match(ENGLISH)?.[0], `${subject}:\n${frame}`).toBeUndefined();
      reasons.add(facts.risk!.reasonEs);
    }
    // The reasons are written for each case, not one sentence for all.
    expect(reasons.size).toBeGreaterThan(5);
  });

  it("a quick check's reason is Spanish too", async () => {
    const facts = await factsOf(oneHop.subject);
    expect(facts.risk?.source).toBe("quick");
    const markdown: string = (await report(oneHop.subject, "?lang=es")).json().data;
    expect(markdown).toContain(`Razón que da la verificación rápida: ${inert(facts.risk!.reasonEs)}`);
    expect(facts.risk!.reasonEs).toMatch(
      /^Recibió USD [\d,]+ \(\d+% de sus fondos entrantes\) directamente de una dirección sancionada/,
    );
    const frame = frameOf(markdown, facts);
    expect(frame.match(ENGLISH)?.[0], frame).toBeUndefined();
  });
});

describe("a viewer refreshing a report", () => {
  it("may refresh, up to the project's limit per hour; then 429 with Retry-After and when", async () => {
    const wallet = oneHop.subject;
    for (let i = 0; i < REFRESHES; i++) {
      const res = await report(wallet, "?recreate=true");
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["x-report-cached"]).toBe("false");
    }
    const refused = await report(wallet, "?recreate=true");
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers["retry-after"]);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(refused.json()).toMatchObject({ success: false, error: "rate_limited" });
    expect(refused.json().message).toContain(
      `refreshed ${REFRESHES} wallet reports in the last hour, its limit (VIGIA_WALLET_REPORT_REFRESHES_PER_HOUR = ${REFRESHES})`,
    );
    expect(refused.json().message).toMatch(
      /the next refresh is possible at \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z, in \d+ minutes?\./,
    );
    // The cached report is still served to the viewer; a developer key refreshes it.
    expect((await report(wallet)).statusCode).toBe(200);
    expect((await report(wallet, "?recreate=true", svc.project.keys.developer)).statusCode).toBe(200);
    const roles = await svc.database.db
      .selectFrom("wallet_report_generations")
      .select("refresh_role")
      .where("address", "=", wallet)
      .where("project_id", "=", svc.project.id)
      .where("refresh_role", "is not", null)
      .orderBy("id")
      .execute();
    expect(roles.map((r) => r.refresh_role)).toEqual(["viewer", "viewer", "developer"]);
  });
});
