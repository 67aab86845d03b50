// The deterministic writer of wallet reports: renders the facts (facts.ts) as a report a compliance officer can
// paste into a case file, in English or Spanish, with the same sections every time: summary (with what the risk
// rests on), what to do, risk and why, activity, counterparties, evidence (the transfers along each exposure path
// and of each pattern), limits of the data. Every figure is one of the facts; data is written as inert text
// (markdown.ts). The Spanish report is Spanish throughout: the risk model's words, the reason and the patterns'
// descriptions come from spanish.ts, never from the risk core's English. Pure.
import type { CoverageFact, ExposureFact, LimitFact, RiskFact, TransferFact, WalletFacts } from "./facts.ts";
import { isSeen } from "./facts.ts";
import { whatToDo } from "./guidance.ts";
import { code, figure, inert, table, usd } from "./markdown.ts";
import { categoryEs, directionEs, levelEs, patternEs, severityEs } from "./spanish.ts";
import type { ReportLanguage } from "./tables.ts";

const same = (s: string) => s;
const plural = (n: number, one: string, many: string) => `${figure(n)} ${n === 1 ? one : many}`;
/** An amount of tokens: up to 4 decimals, as the facts keep it. */
const amount = (n: number) =>
  n.toLocaleString("en-US", { maximumFractionDigits: 4, minimumFractionDigits: 0 });

const TEXT = {
  en: {
    title: "Wallet background report",
    family: { evm: "EVM", bitcoin: "Bitcoin", solana: "Solana", tron: "Tron", stellar: "Stellar" },
    asOf: (d: string) => `facts as of ${d}, from the data Vigía holds`,
    narrowed: (c: string) => `on ${c} only`,
    summary: "Summary",
    unseen: "Vigía holds no label, no transfer and no risk analysis for this address.",
    labels: (n: string) => `Labels: ${n}.`,
    noLabels: "Labels: none known.",
    sanctioned: "Sanctions: **the address is on a sanctions list** the service holds.",
    notSanctioned: "Sanctions: not on any sanctions list the service holds.",
    level: same,
    score: (r: RiskFact) => (r.score === null ? "no verdict" : `**${r.score}/100 (${r.level})**`),
    source: { scan: "scan", job: "risk job", investigation: "investigation" },
    hops: (n: number) => plural(n, "hop", "hops"),
    analysisLine: (r: RiskFact, what: string, details: string) =>
      `Risk: ${TEXT.en.score(r)}, from ${what} ${code(r.analysisId ?? "")} of ${r.analyzedOn} (${details})` +
      `${r.provisional ? `; provisional: ${r.provisional.layers} of ${r.provisional.of} layers completed` : ""}.`,
    window: (from: string | null, to: string | null) =>
      from && to
        ? `transfers from ${from} to ${to}`
        : from
          ? `transfers from ${from}`
          : `transfers up to ${to}`,
    on: (hops: string, chain: string) => `${hops} on ${chain}`,
    quickLine: (r: RiskFact, chain: string) =>
      `Risk: ${TEXT.en.score(r)}, from a quick check made for this report on ${r.analyzedOn} (direct ` +
      `counterparties on ${chain}): the project has no analysis of this address.`,
    noRisk:
      "Risk: no verdict: the project has no analysis of this address, and the service holds no transfer of it " +
      "to check.",
    activityLine: (n: string, chains: string, from: string, to: string) =>
      `Activity: ${n} transfers on ${chains} between ${from} and ${to}.`,
    noActivity: "Activity: no transfers seen.",
    whatToDo: "What to do",
    risk: "Risk and why",
    reason: (r: RiskFact) =>
      r.source === "quick" ? "Reason given by the quick check:" : "Reason given by the analysis:",
    reasonOf: (r: RiskFact) => r.reason,
    patterns: ["Pattern", "Severity", "Confidence", "Amount", "What was found"],
    pattern: same,
    severity: same,
    messageOf: (p: RiskFact["patterns"][number]) => p.message,
    noPatterns: "The analysis found no suspicious pattern the address takes part in.",
    exposure: "Exposure by category:",
    exposureHeader: ["Category", "Direction", "Amount", "Share", "Hops", "Drives the score"],
    category: same,
    direction: same,
    yes: "yes",
    no: "no",
    activity: "Activity",
    activityHeader: ["Chain", "First seen", "Last seen", "In", "Out", "Received", "Sent", "Counterparties"],
    unpriced: (n: string, c: string) =>
      `${n} transfers on ${c} have no USD price and count nothing in the amounts.`,
    counterparties: "Counterparties",
    counterpartyHeader: ["Chain", "Address", "Transfers", "Volume", "Label", "Inferred exchange deposit"],
    depositOf: (e: string) => `deposit address of ${e}`,
    evidence: "Evidence",
    paths: "Exposure paths",
    unsolicited: "unsolicited dust",
    path: (e: ExposureFact, who: string, via: string, n: string) =>
      (e.sameOwnerAs
        ? `Of ${inert(e.sameOwnerAs.address)}, the same owner's by common inputs (a cluster of ` +
          `${e.sameOwnerAs.clusterSize} addresses): `
        : "") +
      (e.direction === "self"
        ? `${e.sameOwnerAs ? "that address is" : "The address itself is"} labelled ${inert(e.category)}: ${who}.`
        : `Funds ${e.direction === "incoming" ? "received from" : "sent to"} ${inert(e.category)} addresses ` +
          `${e.hops <= 1 ? "directly" : `${TEXT.en.hops(e.hops)} away`}: ${who}${via ? `, via ${via}` : ""}; ` +
          `${n} on the paths.`),
    transactions: (n: number) => plural(n, "transaction", "transactions"),
    patternEvidence: "Patterns",
    patternLine: (p: string, n: string) => `${p}: ${n}.`,
    firstShown: (n: number) => `The first ${plural(n, "transfer", "transfers")}, oldest first:`,
    others: "Other transactions:",
    transferHeader: ["Date", "From", "To", "Amount", "USD", "Transaction"],
    noEvidence: "No exposure path or pattern evidence to list.",
    limits: "Limits of the data",
    limit: (l: LimitFact) =>
      l.kind === "no-data-source"
        ? `Vigía has no transaction data for ${l.network}: only its labels and sanctions lists are read.`
        : `${l.chain}: ${TEXT.en.held(l.coverage)}`,
    /** what a chain's data is, where it comes from, how far it reaches, whether it is current */
    held: (c: CoverageFact, whose = "of this address") =>
      c.source === "none"
        ? "the service holds no data for this chain."
        : `${{ index: "indexed from the chain's node", explorer: "history fetched from the chain's explorer", import: "imported data" }[c.source]}` +
          `${c.dataUntil ? ` up to ${c.dataUntil}` : ""}, ${plural(c.transfersRead, "transfer", "transfers")} ${whose}; ` +
          (c.current
            ? c.source === "import"
              ? "no indexer or explorer follows the chain: later activity is not reflected."
              : "current."
            : "not current: later activity may be missing."),
    basis: (c: CoverageFact) =>
      `It rests on ${TEXT.en.held(c, "read")}` +
      (c.current ? "" : " Finding nothing on such data would not clear the address."),
    none: "none",
  },
  es: {
    title: "Informe de antecedentes de la billetera",
    family: { evm: "EVM", bitcoin: "Bitcoin", solana: "Solana", tron: "Tron", stellar: "Stellar" },
    asOf: (d: string) => `hechos al ${d}, de los datos que Vigía tiene`,
    narrowed: (c: string) => `solo en ${c}`,
    summary: "Resumen",
    unseen: "Vigía no tiene etiquetas, transferencias ni análisis de riesgo de esta dirección.",
    labels: (n: string) => `Etiquetas: ${n}.`,
    noLabels: "Etiquetas: ninguna conocida.",
    sanctioned: "Sanciones: **la dirección está en una lista de sanciones** que el servicio tiene.",
    notSanctioned: "Sanciones: no está en ninguna lista de sanciones que el servicio tiene.",
    level: levelEs,
    score: (r: RiskFact) =>
      r.score === null ? "sin veredicto" : `**${r.score}/100 (${levelEs(r.level ?? "")})**`,
    source: { scan: "el escaneo", job: "el trabajo de riesgo", investigation: "la investigación" },
    hops: (n: number) => plural(n, "salto", "saltos"),
    analysisLine: (r: RiskFact, what: string, details: string) =>
      `Riesgo: ${TEXT.es.score(r)}, según ${what} ${code(r.analysisId ?? "")} del ${r.analyzedOn} (${details})` +
      `${r.provisional ? `; provisional: ${r.provisional.layers} de ${r.provisional.of} capas completadas` : ""}.`,
    window: (from: string | null, to: string | null) =>
      from && to
        ? `transferencias del ${from} al ${to}`
        : from
          ? `transferencias desde el ${from}`
          : `transferencias hasta el ${to}`,
    on: (hops: string, chain: string) => `${hops} en ${chain}`,
    quickLine: (r: RiskFact, chain: string) =>
      `Riesgo: ${TEXT.es.score(r)}, según una verificación rápida hecha para este informe el ${r.analyzedOn} ` +
      `(contrapartes directas en ${chain}): el proyecto no tiene análisis de esta dirección.`,
    noRisk:
      "Riesgo: sin veredicto: el proyecto no tiene análisis de esta dirección y el servicio no tiene " +
      "transferencias suyas que verificar.",
    activityLine: (n: string, chains: string, from: string, to: string) =>
      `Actividad: ${n} transferencias en ${chains} entre ${from} y ${to}.`,
    noActivity: "Actividad: no se vieron transferencias.",
    whatToDo: "Qué hacer",
    risk: "Riesgo y por qué",
    reason: (r: RiskFact) =>
      r.source === "quick" ? "Razón que da la verificación rápida:" : "Razón que da el análisis:",
    reasonOf: (r: RiskFact) => r.reasonEs,
    patterns: ["Patrón", "Severidad", "Confianza", "Monto", "Qué se encontró"],
    pattern: patternEs,
    severity: severityEs,
    messageOf: (p: RiskFact["patterns"][number]) => p.messageEs,
    noPatterns: "El análisis no encontró patrones sospechosos en los que participe la dirección.",
    exposure: "Exposición por categoría:",
    exposureHeader: ["Categoría", "Dirección", "Monto", "Proporción", "Saltos", "Determina el puntaje"],
    category: categoryEs,
    direction: directionEs,
    yes: "sí",
    no: "no",
    activity: "Actividad",
    activityHeader: [
      "Cadena",
      "Primera vez",
      "Última vez",
      "Entradas",
      "Salidas",
      "Recibido",
      "Enviado",
      "Contrapartes",
    ],
    unpriced: (n: string, c: string) =>
      `${n} transferencias en ${c} no tienen precio en USD y no cuentan en los montos.`,
    counterparties: "Contrapartes",
    counterpartyHeader: [
      "Cadena",
      "Dirección",
      "Transferencias",
      "Volumen",
      "Etiqueta",
      "Depósito de exchange inferido",
    ],
    depositOf: (e: string) => `dirección de depósito de ${e}`,
    evidence: "Evidencia",
    paths: "Rutas de exposición",
    unsolicited: "polvo no solicitado",
    path: (e: ExposureFact, who: string, via: string, n: string) =>
      (e.sameOwnerAs
        ? `De ${inert(e.sameOwnerAs.address)}, del mismo dueño por entradas comunes (un clúster de ` +
          `${e.sameOwnerAs.clusterSize} direcciones): `
        : "") +
      (e.direction === "self"
        ? `${e.sameOwnerAs ? "esa dirección está etiquetada" : "La dirección misma está etiquetada"} en la categoría ${inert(categoryEs(e.category))}: ${who}.`
        : `Fondos ${e.direction === "incoming" ? "recibidos de" : "enviados a"} direcciones de la categoría ` +
          `${inert(categoryEs(e.category))} ${e.hops <= 1 ? "directamente" : `a ${TEXT.es.hops(e.hops)}`}: ${who}` +
          `${via ? `, a través de ${via}` : ""}; ${n} en las rutas.`),
    transactions: (n: number) => plural(n, "transacción", "transacciones"),
    patternEvidence: "Patrones",
    patternLine: (p: string, n: string) => `${p}: ${n}.`,
    firstShown: (n: number) =>
      `${n === 1 ? "La primera transferencia" : `Las primeras ${figure(n)} transferencias`}, de la más antigua a la más reciente:`,
    others: "Otras transacciones:",
    transferHeader: ["Fecha", "De", "A", "Monto", "USD", "Transacción"],
    noEvidence: "No hay rutas de exposición ni evidencia de patrones que listar.",
    limits: "Límites de los datos",
    limit: (l: LimitFact) =>
      l.kind === "no-data-source"
        ? `Vigía no tiene datos de transacciones de ${l.network}: solo se leen sus etiquetas y listas de sanciones.`
        : `${l.chain}: ${TEXT.es.held(l.coverage)}`,
    held: (c: CoverageFact, whose = "de esta dirección") =>
      c.source === "none"
        ? "el servicio no tiene datos de esta cadena."
        : `${{ index: "indexados del nodo de la cadena", explorer: "historial obtenido del explorador de la cadena", import: "datos importados" }[c.source]}` +
          `${c.dataUntil ? ` hasta el ${c.dataUntil}` : ""}, ${plural(c.transfersRead, "transferencia", "transferencias")} ${whose}; ` +
          (c.current
            ? c.source === "import"
              ? "ningún indexador ni explorador sigue la cadena: la actividad posterior no se refleja."
              : "al día."
            : "no están al día: puede faltar actividad posterior."),
    basis: (c: CoverageFact) =>
      `Se basa en ${TEXT.es.held(c, "leídas")}` +
      (c.current ? "" : " No encontrar nada en esos datos no bastaría para dar por limpia la dirección."),
    none: "ninguna",
  },
};

type Text = (typeof TEXT)[ReportLanguage];

/**
 * The report's level-2 section headings, in order (the full report; an unseen address has summary, what to do and
 * limits only). `withWhatToDo: false`: the ones an LLM writes (the service adds "What to do" itself, report.ts).
 */
export const sectionsOf = (lang: ReportLanguage, withWhatToDo = true) => {
  const t = TEXT[lang];
  return [
    t.summary,
    ...(withWhatToDo ? [t.whatToDo] : []),
    t.risk,
    t.activity,
    t.counterparties,
    t.evidence,
    t.limits,
  ];
};

/** The "What to do" section, as both writers' reports carry it after their summary. */
export function whatToDoSection(facts: WalletFacts, lang: ReportLanguage): string {
  const line = whatToDo(
    {
      level: facts.risk?.level ?? null,
      sanctioned: facts.sanctioned,
      fius: facts.fius.map(inert),
      withheld: facts.risk !== null && facts.risk.score === null,
    },
    lang,
  );
  return `## ${TEXT[lang].whatToDo}\n\n${line}\n`;
}

function riskLine(t: Text, r: RiskFact | null): string {
  if (!r) return t.noRisk;
  const chain = inert(r.chain);
  // What the verdict rests on, after it: the source, how far its data reaches, whether it is current.
  const basis = r.basis ? ` ${t.basis(r.basis)}` : "";
  if (r.source === "quick") return t.quickLine(r, chain) + basis;
  const on = t.on(t.hops(r.depth), chain);
  const details = r.window ? `${t.window(r.window.from, r.window.to)}, ${on}` : on;
  return t.analysisLine(r, t.source[r.source], details) + basis;
}

function transfersTable(t: Text, transfers: TransferFact[]): string {
  return table(
    [...t.transferHeader],
    transfers.map((x) => [
      x.day,
      code(x.from),
      code(x.to),
      x.amount === null ? "—" : `${amount(x.amount)} ${inert(x.symbol)}`,
      x.usd === null ? "—" : usd(x.usd),
      code(x.tx),
    ]),
  );
}

/** The transfers shown, then the transactions of `txs` they leave out. */
function transfersBlock(t: Text, transfers: TransferFact[], txs: string[]): string[] {
  const out: string[] = [];
  if (transfers.length > 0) out.push(t.firstShown(transfers.length), "", transfersTable(t, transfers), "");
  const shown = new Set(transfers.map((x) => x.tx));
  const rest = txs.filter((tx) => !shown.has(tx));
  if (rest.length > 0) out.push(`${t.others} ${rest.map(code).join(", ")}`, "");
  return out;
}

function evidence(t: Text, r: RiskFact | null): string[] {
  const out: string[] = [];
  const paths = r?.exposure.filter((e) => e.transactions > 0 || e.counterparties.length > 0) ?? [];
  if (paths.length > 0) {
    out.push(`### ${t.paths}`, "");
    for (const e of paths) {
      const who = e.counterparties
        .map((c) => (c.label ? `${inert(c.label)} (${code(c.address)})` : code(c.address)))
        .join(", ");
      const via = e.via.map(code).join(", ");
      out.push(`- ${t.path(e, who, via, t.transactions(e.transactions))}`, "");
      out.push(...transfersBlock(t, e.transfers, []));
    }
  }
  const patterns = r?.patterns.filter((p) => p.transactions > 0) ?? [];
  if (patterns.length > 0) {
    out.push(`### ${t.patternEvidence}`, "");
    for (const p of patterns) {
      out.push(`- ${t.patternLine(inert(t.pattern(p.pattern)), t.transactions(p.transactions))}`, "");
      out.push(...transfersBlock(t, p.transfers, p.txs));
    }
  }
  return out.length > 0 ? out : [t.noEvidence, ""];
}

export function deterministicReport(facts: WalletFacts, lang: ReportLanguage): string {
  const t = TEXT[lang];
  const out: string[] = [];
  const subtitle = [
    t.family[facts.family],
    ...(facts.chain ? [t.narrowed(inert(facts.chain))] : []),
    t.asOf(facts.asOf),
  ];
  out.push(`# ${t.title}: ${code(facts.address)}`, "", `*${subtitle.join(" · ")}*`, "");
  out.push(`## ${t.summary}`, "");
  if (!isSeen(facts)) {
    out.push(t.unseen, "");
    out.push(whatToDoSection(facts, lang));
  } else {
    const labels = facts.labels.map(
      (l) => `${inert(l.label)} (${inert(t.category(l.category))}, ${inert(l.source)})`,
    );
    out.push(`- ${labels.length > 0 ? t.labels(labels.join("; ")) : t.noLabels}`);
    out.push(`- ${facts.sanctioned ? t.sanctioned : t.notSanctioned}`);
    out.push(`- ${riskLine(t, facts.risk)}`);
    const { transfers, firstSeen, lastSeen } = facts.totals;
    out.push(
      `- ${
        firstSeen && lastSeen
          ? t.activityLine(
              figure(transfers),
              facts.activity.map((a) => inert(a.chain)).join(", "),
              firstSeen,
              lastSeen,
            )
          : t.noActivity
      }`,
      "",
    );
    out.push(whatToDoSection(facts, lang));
    out.push(`## ${t.risk}`, "");
    const r = facts.risk;
    if (r) {
      out.push(`${t.reason(r)} ${inert(t.reasonOf(r))}`, "");
      out.push(
        r.patterns.length > 0
          ? table(
              [...t.patterns],
              r.patterns.map((p) => [
                inert(t.pattern(p.pattern)),
                inert(t.severity(p.severity)),
                p.confidence === null ? "—" : figure(p.confidence),
                usd(p.usdAmount),
                inert(t.messageOf(p)),
              ]),
            )
          : t.noPatterns,
        "",
      );
      if (r.exposure.length > 0)
        out.push(
          t.exposure,
          "",
          table(
            [...t.exposureHeader],
            r.exposure.map((e) => [
              inert(t.category(e.category)),
              // Dust is named where its direction is: shown, but not a dealing (docs/decisions/0030).
              inert(t.direction(e.direction)) + (e.unsolicited ? ` (${t.unsolicited})` : ""),
              usd(e.usd),
              `${Math.round(e.share * 100)}%`,
              figure(e.hops),
              e.drivesScore ? t.yes : t.no,
            ]),
          ),
          "",
        );
    } else out.push(t.noRisk, "");
    out.push(`## ${t.activity}`, "");
    if (facts.activity.length > 0) {
      out.push(
        table(
          [...t.activityHeader],
          facts.activity.map((a) => [
            inert(a.chain),
            a.firstSeen,
            a.lastSeen,
            figure(a.transfersIn),
            figure(a.transfersOut),
            usd(a.receivedUsd),
            usd(a.sentUsd),
            figure(a.counterparties),
          ]),
        ),
        "",
      );
      for (const a of facts.activity)
        if (a.unpricedTransfers > 0) out.push(t.unpriced(figure(a.unpricedTransfers), inert(a.chain)), "");
    } else out.push(t.noActivity, "");
    out.push(`## ${t.counterparties}`, "");
    out.push(
      facts.counterparties.length > 0
        ? table(
            [...t.counterpartyHeader],
            facts.counterparties.map((c) => [
              inert(c.chain),
              code(c.address),
              figure(c.transfers),
              usd(c.volumeUsd),
              c.label ? `${inert(c.label)} (${inert(t.category(c.category ?? ""))})` : t.none,
              c.depositOf ? t.depositOf(inert(c.depositOf)) : t.none,
            ]),
          )
        : t.noActivity,
      "",
    );
    out.push(`## ${t.evidence}`, "");
    out.push(...evidence(t, facts.risk));
  }
  out.push(`## ${t.limits}`, "");
  for (const l of facts.limits) out.push(`- ${t.limit(l)}`);
  return `${out.join("\n").trimEnd()}\n`;
}
