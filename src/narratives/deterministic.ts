// The deterministic writer of wallet reports: renders the facts (facts.ts) as a report a compliance officer can
// paste into a case file, in English or Spanish, with the same sections every time: summary, risk and why,
// activity, counterparties, evidence, limits of the data. Every figure is one of the facts; data is written as
// inert text (markdown.ts). Pure.
import type { LimitFact, WalletFacts } from "./facts.ts";
import { isSeen } from "./facts.ts";
import { code, figure, inert, table, usd } from "./markdown.ts";
import type { ReportLanguage } from "./tables.ts";

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
    riskLine: (score: string, level: string, d: string) =>
      `Latest risk analysis by this project: **${score}/100 (${level})** on ${d}.`,
    noRisk: "Latest risk analysis by this project: none.",
    activityLine: (n: string, chains: string, from: string, to: string) =>
      `Activity: ${n} transfers on ${chains} between ${from} and ${to}.`,
    noActivity: "Activity: no transfers seen.",
    risk: "Risk and why",
    reason: "Reason given by the analysis:",
    patterns: ["Pattern", "Severity", "Confidence", "Amount", "What was found"],
    noPatterns: "The analysis found no suspicious pattern.",
    exposure: "Exposure by category:",
    exposureHeader: ["Category", "Direction", "Amount", "Hops"],
    activity: "Activity",
    activityHeader: ["Chain", "First seen", "Last seen", "In", "Out", "Received", "Sent", "Counterparties"],
    unpriced: (n: string, c: string) =>
      `${n} transfers on ${c} have no USD price and count nothing in the amounts.`,
    counterparties: "Counterparties",
    counterpartyHeader: ["Chain", "Address", "Transfers", "Volume", "Label", "Inferred exchange deposit"],
    depositOf: (e: string) => `deposit address of ${e}`,
    evidence: "Evidence",
    evidenceLine: (p: string) => `${p}: transactions`,
    noEvidence: "No pattern evidence to list.",
    limits: "Limits of the data",
    limit: (l: LimitFact) =>
      l.kind === "no-data-source"
        ? `Vigía has no transaction data for ${l.network}: only its labels and sanctions lists are read.`
        : l.kind === "data-until"
          ? `${l.chain}: data up to ${l.date}; later activity is not reflected.`
          : `${l.chain}: the service holds no data for this chain.`,
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
    riskLine: (score: string, level: string, d: string) =>
      `Último análisis de riesgo de este proyecto: **${score}/100 (${level})** el ${d}.`,
    noRisk: "Último análisis de riesgo de este proyecto: ninguno.",
    activityLine: (n: string, chains: string, from: string, to: string) =>
      `Actividad: ${n} transferencias en ${chains} entre ${from} y ${to}.`,
    noActivity: "Actividad: no se vieron transferencias.",
    risk: "Riesgo y por qué",
    reason: "Razón que da el análisis:",
    patterns: ["Patrón", "Severidad", "Confianza", "Monto", "Qué se encontró"],
    noPatterns: "El análisis no encontró patrones sospechosos.",
    exposure: "Exposición por categoría:",
    exposureHeader: ["Categoría", "Dirección", "Monto", "Saltos"],
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
    evidenceLine: (p: string) => `${p}: transacciones`,
    noEvidence: "No hay evidencia de patrones que listar.",
    limits: "Límites de los datos",
    limit: (l: LimitFact) =>
      l.kind === "no-data-source"
        ? `Vigía no tiene datos de transacciones de ${l.network}: solo se leen sus etiquetas y listas de sanciones.`
        : l.kind === "data-until"
          ? `${l.chain}: datos hasta el ${l.date}; la actividad posterior no se refleja.`
          : `${l.chain}: el servicio no tiene datos de esta cadena.`,
    none: "ninguna",
  },
} as const;

/** The report's section headings, in order (the full report; an unseen address has summary and limits only). */
export const sectionsOf = (lang: ReportLanguage) => {
  const t = TEXT[lang];
  return [t.summary, t.risk, t.activity, t.counterparties, t.evidence, t.limits];
};

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
  } else {
    const labels = facts.labels.map((l) => `${inert(l.label)} (${inert(l.category)}, ${inert(l.source)})`);
    out.push(`- ${labels.length > 0 ? t.labels(labels.join("; ")) : t.noLabels}`);
    out.push(`- ${facts.sanctioned ? t.sanctioned : t.notSanctioned}`);
    out.push(
      `- ${facts.risk ? t.riskLine(String(facts.risk.score), inert(facts.risk.level), facts.risk.analyzedOn) : t.noRisk}`,
    );
    const transfers = facts.activity.reduce((n, a) => n + a.transfersIn + a.transfersOut, 0);
    const first = facts.activity.map((a) => a.firstSeen).sort()[0];
    const last = facts.activity
      .map((a) => a.lastSeen)
      .sort()
      .at(-1);
    out.push(
      `- ${
        first && last
          ? t.activityLine(
              figure(transfers),
              facts.activity.map((a) => inert(a.chain)).join(", "),
              first,
              last,
            )
          : t.noActivity
      }`,
      "",
    );
    out.push(`## ${t.risk}`, "");
    if (facts.risk) {
      out.push(`${t.reason} ${inert(facts.risk.reason)}`, "");
      out.push(
        facts.risk.patterns.length > 0
          ? table(
              [...t.patterns],
              facts.risk.patterns.map((p) => [
                inert(p.pattern),
                inert(p.severity),
                figure(p.confidence),
                usd(p.usdAmount),
                inert(p.message),
              ]),
            )
          : t.noPatterns,
        "",
      );
      if (facts.risk.exposure.length > 0)
        out.push(
          t.exposure,
          "",
          table(
            [...t.exposureHeader],
            facts.risk.exposure.map((e) => [
              inert(e.category),
              inert(e.direction),
              usd(e.usd),
              figure(e.hops),
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
              c.label ? `${inert(c.label)} (${inert(c.category ?? "")})` : t.none,
              c.depositOf ? t.depositOf(inert(c.depositOf)) : t.none,
            ]),
          )
        : t.noActivity,
      "",
    );
    out.push(`## ${t.evidence}`, "");
    const withTxs = facts.risk?.patterns.filter((p) => p.txs.length > 0) ?? [];
    if (withTxs.length > 0) {
      for (const p of withTxs)
        out.push(`- ${t.evidenceLine(inert(p.pattern))} ${p.txs.map(code).join(", ")}`);
      out.push("");
    } else out.push(t.noEvidence, "");
  }
  out.push(`## ${t.limits}`, "");
  for (const l of facts.limits) out.push(`- ${t.limit(l)}`);
  return `${out.join("\n").trimEnd()}\n`;
}
