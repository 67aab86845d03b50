// An alert's reason in the reader's language, written from its stored evidence (src/alerts/reason-text.ts): one
// case per cause, in Spanish and English, and no English frame word inside a Spanish reason.
import { describe, expect, it } from "vitest";
import { type ReasonSource, reasonText, verdictReason } from "../../src/alerts/reason-text.ts";
import type { AlertEvidence, AnalysisEvidence, PersonCandidateEvidence } from "../../src/alerts/schemas.ts";

const ADDRESS = "0x1111111111111111111111111111111111111111";
const MIXER = "0x2222222222222222222222222222222222222222";
const TX = `0x${"ab".repeat(32)}`;

const transfer = (txHash: string, usd: number | null) => ({
  txHash,
  logIndex: 0,
  at: "2026-11-20T16:00:00.000Z",
  usd,
  direction: "in",
  counterparty: MIXER,
});

const law: ReasonSource = {
  cause: "law",
  causeKey: "MX-24H-LISTA",
  level: "illegal",
  address: ADDRESS,
  userId: "u-7",
  evidence: {
    transfers: [transfer(TX, 12500), transfer(`0x${"cd".repeat(32)}`, 300)],
    laws: [
      {
        id: "MX-24H-LISTA",
        name: "Aviso de 24 horas",
        source: "LFPIORPI Art. 17",
        risk: "illegal",
        country: "Mexico",
        countryCode: "MX",
      },
    ],
    wallets: [ADDRESS],
  },
};

const candidate: PersonCandidateEvidence = {
  subject: "Juan Pérez López",
  role: "representative",
  list: "OFAC-SDN",
  listVersion: "2026-11-01",
  entryId: "12345",
  matchedName: "JUAN PEREZ LOPEZ",
  score: 0.93,
  verdict: "match",
  matchedFields: ["name", "date", "country"],
  notes: ["date of birth 1970-01-01 matches"],
  entry: {
    type: "individual",
    names: ["JUAN PEREZ LOPEZ"],
    dates: ["1970-01-01"],
    countries: ["MX"],
    programs: ["SDNTK"],
  },
  screenedAt: "2026-11-20T16:00:00.000Z",
};

const person: ReasonSource = {
  cause: "person_match",
  causeKey: "OFAC-SDN:12345",
  level: "match",
  address: ADDRESS,
  userId: "u-7",
  evidence: { transfers: [], laws: [], wallets: [ADDRESS], persons: [candidate] },
};

const attempt: ReasonSource = {
  cause: "attempt",
  causeKey: "OFAC-SDN:12345",
  level: "review",
  address: "",
  userId: "u-8",
  evidence: {
    transfers: [],
    laws: [],
    wallets: [],
    persons: [{ ...candidate, role: "client", verdict: "review" }],
    attempts: [
      {
        kind: "attempt",
        amount: "2500",
        asset: "USDT",
        at: "2026-11-20T16:00:00.000Z",
        screenedAt: "2026-11-20T16:01:00.000Z",
      },
    ],
  },
};

const verdict: AnalysisEvidence = {
  analysisId: "an-1",
  kind: "scan",
  at: "2026-11-20T16:00:00.000Z",
  riskScore: 82,
  riskLevel: "high",
  riskReason: "Received USD 40,000 (80% of incoming funds) directly from a mixer address (Tornado).",
  modelVersion: "v3",
  findings: [
    { pattern: "peel_chain", message: "Peel chain of 7 hops", wallets: [ADDRESS], txs: [TX], usd: 9000 },
    { pattern: "mixing", message: "Received from a mixer", wallets: [MIXER], txs: [TX], usd: 40000 },
  ],
  exposure: [
    {
      category: "mixer",
      direction: "incoming",
      hops: 1,
      usd: 40000,
      share: 0.8,
      counterparties: [MIXER],
      via: [],
      txs: [TX],
    },
  ],
};
const labels: AlertEvidence["labels"] = [
  { address: MIXER, label: "Tornado Cash", category: "mixer", source: "ofac" },
];

const analysis: ReasonSource = {
  cause: "analysis",
  causeKey: "risk",
  level: "high",
  address: ADDRESS,
  userId: "u-7",
  evidence: { transfers: [], laws: [], wallets: [ADDRESS], analyses: [verdict], labels },
};

const rescreen: ReasonSource = {
  cause: "rescreen",
  causeKey: `${MIXER}:ofac`,
  level: "high",
  address: ADDRESS,
  userId: "u-7",
  evidence: { transfers: [], laws: [], wallets: [ADDRESS, MIXER], analyses: [verdict], labels },
};

/** Words of the English frames that a Spanish reason must never hold. */
const ENGLISH = [
  "Transaction",
  "Transfer ",
  "address",
  "scored",
  "list, version",
  "user ",
  "agreeing",
  "candidate",
  "Re-screened",
  "tried",
  "Received",
  "mixer",
  "peel chain",
  "Pattern",
  "level ",
];

describe("an alert's reason in the reader's language", () => {
  it("a law alert: the rule's title in the language, the transfer, its amount, the client and the others", () => {
    expect(reasonText("es", law)).toBe(
      `LFPIORPI: aviso de 24 horas (contraparte en listas de sanciones). Transferencia ${TX} de la dirección ${ADDRESS} (cliente u-7, por USD 12,500), y 1 transferencia más.`,
    );
    expect(reasonText("en", law)).toBe(
      `LFPIORPI: 24-hour aviso (counterparty on a sanctions list). Transfer ${TX} of the address ${ADDRESS} (user u-7, for USD 12,500), and 1 more transfer.`,
    );
  });

  it("a rule the catalog does not title keeps its own name", () => {
    const other = {
      ...law,
      causeKey: "ZZ-NEW",
      evidence: { ...law.evidence, laws: [{ ...law.evidence.laws[0]!, id: "ZZ-NEW", name: "Regla nueva" }] },
    };
    expect(reasonText("es", other)).toMatch(/^Regla nueva\. Transferencia /);
  });

  it("a person match: who, the verdict, the list entry and the fields agreeing, from the candidate", () => {
    expect(reasonText("es", person)).toBe(
      "Juan Pérez López, representante del cliente u-7, es una coincidencia de JUAN PEREZ LOPEZ en la lista OFAC-SDN, versión 2026-11-01 (SDNTK): entrada 12345, puntuación 0.93, coincide en el nombre, la fecha y la nacionalidad.",
    );
    expect(reasonText("en", person)).toBe(
      "Juan Pérez López, the representative of user u-7, is a match for JUAN PEREZ LOPEZ on the OFAC-SDN list, version 2026-11-01 (SDNTK): entry 12345, score 0.93, agreeing on the name, the date, and the nationality.",
    );
    const pep = {
      ...person,
      level: "pep",
      evidence: { ...person.evidence, persons: [{ ...candidate, verdict: "pep" }] },
    };
    expect(reasonText("es", pep)).toContain("una persona políticamente expuesta");
  });

  it("an attempt: what the person tried, when (in the zone given), and the list entry", () => {
    expect(reasonText("es", attempt, "America/Mexico_City")).toMatch(
      /^Juan Pérez López, cliente u-8, intentó una operación que no se realizó \(2500 USDT\) el 20 nov 2026, 10:00.* y es un candidato a revisar de JUAN PEREZ LOPEZ en la lista OFAC-SDN, versión 2026-11-01: entrada 12345, puntuación 0.93\.$/,
    );
    expect(reasonText("en", attempt)).toMatch(
      /^Juan Pérez López, user u-8, tried an operation that was not carried out \(2500 USDT\) on Nov 20, 2026, 4:00.PM UTC, and is a candidate to review for JUAN PEREZ LOPEZ on the OFAC-SDN list, version 2026-11-01: entry 12345, score 0.93\.$/,
    );
    const onboarding = {
      ...attempt,
      evidence: {
        ...attempt.evidence,
        attempts: [{ ...attempt.evidence.attempts![0]!, kind: "onboarding" }],
      },
    };
    expect(reasonText("es", onboarding)).toContain("intentó hacerse cliente");
  });

  it("an analysis: level and score; in Spanish the patterns and the largest exposure, in English the core's sentence", () => {
    expect(reasonText("es", analysis)).toBe(
      `El escaneo de ${ADDRESS} (cliente u-7) obtuvo 82 puntos, nivel alto. Patrones detectados: cadena de pelado y uso de mezcladores. Mayor exposición: Recibió USD 40,000 (80% de sus fondos entrantes) directamente de una dirección de mezclador (Tornado Cash).`,
    );
    expect(reasonText("en", analysis)).toBe(
      `The scan of ${ADDRESS} (user u-7) scored 82, high. ${verdict.riskReason}`,
    );
    const clean = {
      ...analysis,
      evidence: { ...analysis.evidence, analyses: [{ ...verdict, findings: [], exposure: [] }] },
    };
    expect(reasonText("es", clean)).toBe(
      `El escaneo de ${ADDRESS} (cliente u-7) obtuvo 82 puntos, nivel alto. Sin patrones detectados.`,
    );
  });

  it("each past verdict's own reason, beside its level and score: Spanish words, English the core's sentence", () => {
    expect(verdictReason("es", verdict, analysis)).toBe(
      "Patrones detectados: cadena de pelado y uso de mezcladores. Mayor exposición: Recibió USD 40,000 (80% de sus fondos entrantes) directamente de una dirección de mezclador (Tornado Cash).",
    );
    expect(verdictReason("en", verdict, analysis)).toBe(verdict.riskReason);
  });

  it("a re-screening: the label learnt, its category and source, and the level now", () => {
    expect(reasonText("es", rescreen)).toMatch(
      new RegExp(
        `^Revaluada después de que ${MIXER} fuera etiquetada «Tornado Cash» \\(mezclador, fuente ofac\\): ahora nivel alto \\(82 puntos\\)\\. Patrones detectados: `,
      ),
    );
    expect(reasonText("en", rescreen)).toBe(
      `Re-screened after ${MIXER} was labelled “Tornado Cash” (mixer, source ofac): now high (82). ${verdict.riskReason}`,
    );
  });

  it("a cause it does not know, or evidence it lacks, still reads in the language", () => {
    expect(reasonText("es", { ...analysis, evidence: { ...analysis.evidence, analyses: [] } })).toBe(
      "Análisis de riesgo (nivel alto).",
    );
  });

  it("no Spanish reason holds an English frame word", () => {
    for (const alert of [law, person, attempt, analysis, rescreen]) {
      const text = reasonText("es", alert, "America/Mexico_City");
      for (const word of ENGLISH) expect(text, `${alert.cause}: ${text}`).not.toContain(word);
    }
  });
});
