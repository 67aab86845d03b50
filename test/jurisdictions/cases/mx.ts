// Mexico's legal cases (LFPIORPI Art. 17 XVI, its Reglamento and the RCG; docs/regulation.md, "Mexico"). Amounts in
// MXN at the day's rate; times on Mexico City's clock. UMA: 2023 103.74, 2024 108.57, 2025 113.14, 2026 117.31
// (each from 1 February). 210 UMA = MXN 23,759.40 (2025) and 24,635.10 (2026); 645 UMA = 66,912.30 (2023),
// 70,027.65 (2024), 72,975.30 (2025).
import type { LegalCase } from "../support/legal-case.ts";
import { colombian, mexican } from "./profiles.ts";

const receipt = (at: string, mxn: number) => ({ at, direction: "in" as const, mxn });
const send = (at: string, mxn: number) => ({ at, direction: "out" as const, mxn });

export const MX_CASES: LegalCase[] = [
  {
    name: "five receipts of MXN 14,600 in one week owe two accumulation avisos, with the 2nd and the 4th",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [
      receipt("2026-05-04 10:00", 14_600),
      receipt("2026-05-05 10:00", 14_600),
      receipt("2026-05-06 10:00", 14_600),
      receipt("2026-05-07 10:00", 14_600),
      receipt("2026-05-08 10:00", 14_600),
    ],
    expect: {
      laws: [[], ["MX-ACUMULACION"], [], ["MX-ACUMULACION"], []],
      files: {
        MX: {
          "2026-05": {
            avisos: [
              [0, 1],
              [2, 3],
            ],
          },
        },
      },
    },
  },
  {
    name: "a send and a receipt that only cross 210 UMA together: no aviso, receipts and sends accumulate apart",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [receipt("2026-05-04 10:00", 14_600), send("2026-05-05 10:00", 14_600)],
    expect: { laws: [[], []], files: { MX: { "2026-05": { zero: true } } } },
  },
  {
    name: "the same send and receipt with the project's `combined` accumulation: one aviso with both",
    jurisdictions: ["MX"],
    settings: { MX: { accumulation: "combined" } },
    profile: mexican(),
    transfers: [receipt("2026-05-04 10:00", 14_600), send("2026-05-05 10:00", 14_600)],
    expect: { laws: [[], ["MX-ACUMULACION"]], files: { MX: { "2026-05": { avisos: [[0, 1]] } } } },
  },
  {
    name: "the 2025 reform: MXN 30,000 at 23:30 on 16 July 2025 is under 645 UMA; at 00:30 on the 17th it is an aviso",
    jurisdictions: ["MX"],
    profile: mexican(),
    // Both are 17 July in UTC: the day that counts is Mexico City's.
    transfers: [receipt("2025-07-16 23:30", 30_000), receipt("2025-07-17 00:30", 30_000)],
    expect: { laws: [[], ["MX-AVISO"]], files: { MX: { "2025-07": { avisos: [[1]] } } } },
  },
  {
    name: "the UMA of February 2026: MXN 24,000 passes 210 UMA of 2025 on 31 January, not 210 UMA of 2026 on 1 February",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [receipt("2026-01-31 23:50", 24_000), receipt("2026-02-01 00:10", 24_000)],
    expect: {
      laws: [["MX-AVISO"], []],
      files: { MX: { "2026-01": { avisos: [[0]] }, "2026-02": { zero: true } } },
    },
  },
  {
    name: "the UMA of February 2025 before the reform: MXN 71,000 passes 645 UMA of 2024 (70,027.65), not of 2025 (72,975.30)",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [receipt("2025-01-31 12:00", 71_000), receipt("2025-02-01 12:00", 71_000)],
    expect: { laws: [["MX-AVISO"], []], files: { MX: { "2025-01": { avisos: [[0]] } } } },
  },
  {
    name: "the UMA of February 2024: MXN 68,000 passes 645 UMA of 2023 (66,912.30) on 31 January, not of 2024 (70,027.65)",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [receipt("2024-01-31 12:00", 68_000), receipt("2024-02-01 12:00", 68_000)],
    expect: { laws: [["MX-AVISO"], []], files: { MX: { "2024-01": { avisos: [[0]] } } } },
  },
  {
    name: "210 UMA exactly: an aviso by amount reaches it (≥)",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [receipt("2026-06-01 12:00", 24_635.1), receipt("2026-06-02 12:00", 24_635.09)],
    expect: { laws: [["MX-AVISO"], []] },
  },
  {
    name: "an accumulation that equals 210 UMA on 27 March 2026 does not pass it (the law's 'supere')",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [receipt("2026-03-20 12:00", 12_000), receipt("2026-03-27 12:00", 12_635.1)],
    expect: { laws: [[], []] },
  },
  {
    name: "the same accumulation on 28 March 2026 reaches it (the reformed Reglamento's 'alcance o supere')",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [receipt("2026-03-21 12:00", 12_000), receipt("2026-03-28 12:00", 12_635.1)],
    expect: { laws: [[], ["MX-ACUMULACION"]], files: { MX: { "2026-03": { avisos: [[0, 1]] } } } },
  },
  {
    name: "the six-month period: an operation on 9 April 2026 adds to one of 10 October 2025",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [receipt("2025-10-10 12:00", 20_000), receipt("2026-04-09 12:00", 5_000)],
    expect: { laws: [[], ["MX-ACUMULACION"]], files: { MX: { "2026-04": { avisos: [[0, 1]] } } } },
  },
  {
    name: "the six-month period: one on 10 April 2026 starts a new period",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [receipt("2025-10-10 12:00", 20_000), receipt("2026-04-10 12:00", 5_000)],
    expect: { laws: [[], []], files: { MX: { "2026-04": { zero: true } } } },
  },
  {
    name: "23:30 on 31 May in Mexico City: a May operation at 31 May's price and rate",
    jurisdictions: ["MX"],
    profile: mexican(),
    prices: { "2026-05-31": 1_000, "2026-06-01": 2_000 },
    rates: { "2026-05-31": { MXN: 20 }, "2026-06-01": { MXN: 18 } },
    transfers: [receipt("2026-05-31 23:30", 30_000)],
    expect: {
      laws: [["MX-AVISO"]],
      files: { MX: { "2026-05": { avisos: [[0]] } } },
      xml: {
        "2026-05": [
          /<fecha_hora_operacion>20260531233000<\/fecha_hora_operacion>/,
          /<monto_operacion_mn>30000\.00<\/monto_operacion_mn>/,
          /<tipo_cambio_mn>20000\.00<\/tipo_cambio_mn>/,
        ],
      },
    },
  },
  {
    name: "a foreign client with one surname is reported, with XXXX as the second",
    jurisdictions: ["MX"],
    profile: mexican({
      givenName: "John",
      paternalSurname: "Smith",
      maternalSurname: undefined,
      birthdate: "1985-06-15",
      nationality: "US",
      mexico: {
        actividadEconomica: 8250100,
        documentoIdentificacion: { tipoIdentificacion: 2, numeroIdentificacion: "US5551234" },
      },
    }),
    transfers: [receipt("2026-06-10 12:00", 30_000)],
    expect: {
      laws: [["MX-AVISO"]],
      files: { MX: { "2026-06": { avisos: [[0]] } } },
      xml: {
        "2026-06": [
          /<apellido_paterno>SMITH<\/apellido_paterno>\s*<apellido_materno>XXXX<\/apellido_materno>/,
          /<pais_nacionalidad>US<\/pais_nacionalidad>/,
        ],
      },
    },
  },
  {
    name: "a trust (fideicomiso) with its fiduciary delegate and its beneficial owner",
    jurisdictions: ["MX"],
    profile: {
      tipoPersona: "fideicomiso",
      denominacionRazon: "Banco Fiduciario, S.A., Fideicomiso F-7788",
      nationality: "MX",
      address: {
        country: "MX",
        colonia: "Polanco",
        street: "Masaryk",
        exteriorNumber: "111",
        postalCode: "11560",
      },
      mexico: { identificadorFideicomiso: "F-7788" },
      delegadoFiduciario: {
        givenName: "Pedro",
        paternalSurname: "Díaz",
        maternalSurname: "Ortiz",
        documentoIdentificacion: { tipoIdentificacion: 1, numeroIdentificacion: "9988776655" },
      },
      beneficiarioControlador: {
        givenName: "Rosa",
        paternalSurname: "Luna",
        maternalSurname: "Vega",
        birthdate: "1970-09-09",
        nationality: "MX",
      },
    },
    transfers: [send("2026-06-10 12:00", 50_000)],
    expect: {
      laws: [["MX-AVISO"]],
      files: { MX: { "2026-06": { avisos: [[0]] } } },
      xml: {
        "2026-06": [
          /<fideicomiso>\s*<denominacion_razon>BANCO FIDUCIARIO, S\.A\., FIDEICOMISO F-7788<\/denominacion_razon>/,
          /<dueno_beneficiario>\s*<tipo_persona>\s*<persona_fisica>\s*<nombre>ROSA<\/nombre>/,
        ],
      },
    },
  },
  {
    name: "a Mexican client of a project enabled for MX and CO is reported to Mexico only",
    jurisdictions: ["MX", "CO"],
    profile: mexican(),
    // MXN 30,000 is USD 1,500: over Colombia's USD 150 too, but Colombia does not govern this client.
    transfers: [receipt("2026-06-10 12:00", 30_000)],
    expect: {
      laws: [["MX-AVISO"]],
      files: { MX: { "2026-06": { avisos: [[0]] } }, CO: { "2026-06": { none: true } } },
    },
  },
  {
    name: "a Colombian client of the same project is reported to Colombia only (Mexico files its informe en ceros)",
    jurisdictions: ["MX", "CO"],
    profile: colombian(),
    transfers: [{ at: "2026-06-10 12:00", zone: "CO", direction: "in", usd: 1_500 }],
    expect: {
      laws: [["CO-TX-150"]],
      files: { CO: { "2026-06": { records: [[0, "I"]] } }, MX: { "2026-06": { zero: true } } },
    },
  },
  {
    // LFPIORPI Art. 17 XVI as reformed in 2025 reaches Mexican nationals abroad: the project says so with
    // `alsoByNationality`, and a Mexican living in Bogotá is filed in both countries.
    name: "a Mexican national residing in Colombia, with alsoByNationality [MX]: Colombia's record and Mexico's aviso",
    jurisdictions: ["MX", "CO"],
    clientJurisdiction: { alsoByNationality: ["MX"] },
    profile: {
      ...colombian(),
      ...mexican({ address: { country: "CO", city: "Bogotá" } }),
      colombia: colombian().colombia,
    },
    // MXN 30,000 at MXN 20 a dollar is USD 1,500: over 210 UMA and over USD 150.
    transfers: [receipt("2026-06-10 12:00", 30_000)],
    expect: {
      laws: [["MX-AVISO", "CO-TX-150"]],
      files: { MX: { "2026-06": { avisos: [[0]] } }, CO: { "2026-06": { records: [[0, "I"]] } } },
    },
  },
  {
    name: "the same client without alsoByNationality is Colombia's alone (Mexico files its informe en ceros)",
    jurisdictions: ["MX", "CO"],
    profile: {
      ...colombian(),
      ...mexican({ address: { country: "CO", city: "Bogotá" } }),
      colombia: colombian().colombia,
    },
    transfers: [receipt("2026-06-10 12:00", 30_000)],
    expect: {
      laws: [["CO-TX-150"]],
      files: { MX: { "2026-06": { zero: true } }, CO: { "2026-06": { records: [[0, "I"]] } } },
    },
  },
  {
    name: "an address registered under Colombia is Colombia's, whatever the profile says",
    jurisdictions: ["MX", "CO"],
    addressJurisdiction: "CO",
    profile: colombian({ address: { country: "MX" }, nationality: "MX" }),
    transfers: [{ at: "2026-06-10 12:00", zone: "CO", direction: "in", usd: 1_500 }],
    expect: { laws: [["CO-TX-150"]], files: { CO: { "2026-06": { records: [[0, "I"]] } } } },
  },
  {
    name: "a client in Argentina of a project enabled for MX and CO is reported nowhere, and the checker says so",
    jurisdictions: ["MX", "CO"],
    profile: mexican({ nationality: "AR", address: { country: "AR" } }),
    transfers: [receipt("2026-06-10 12:00", 30_000)],
    expect: {
      // Neither country's law governs the client: no country rule is kept.
      laws: [[]],
      files: { MX: { "2026-06": { zero: true } }, CO: { "2026-06": { none: true } } },
      messages: [
        {
          type: "error",
          matches:
            /no jurisdiction of the project governs the client .*reported nowhere.*register the address with `jurisdiction`/,
        },
      ],
    },
  },
  {
    name: "a client found to be in Argentina only when the month is built is reported nowhere, and the generation says so",
    jurisdictions: ["MX", "CO"],
    // Unreadable when checked: both countries' rules are kept, as the governing jurisdiction is not known yet.
    profile: { status: 500 },
    profileLater: mexican({ nationality: "AR", address: { country: "AR" } }),
    transfers: [receipt("2026-06-10 12:00", 30_000)],
    expect: {
      laws: [["MX-AVISO", "CO-TX-150"]],
      files: {
        MX: {
          "2026-06": {
            none: true,
            said: /no jurisdiction of the project governs the client.*reported nowhere/,
          },
        },
        CO: {
          "2026-06": {
            none: true,
            said: /no jurisdiction of the project governs the client.*reported nowhere/,
          },
        },
      },
      messages: [
        { type: "notification", matches: /"id":"MX-AVISO"/ },
        { type: "error", matches: /could not be read \(the user profile request answered 500\)/ },
      ],
    },
  },
  {
    name: "a client in the United States that the project maps to Mexico",
    jurisdictions: ["MX", "CO"],
    clientJurisdiction: { countries: { US: "MX" } },
    profile: mexican({ nationality: "US", address: { country: "US" } }),
    transfers: [receipt("2026-06-10 12:00", 30_000)],
    expect: { laws: [["MX-AVISO"]], files: { MX: { "2026-06": { avisos: [[0]] } } } },
  },
  {
    name: "a sanctioned counterparty with an unreadable profile: notified as illegal, plus an error naming the profile problem",
    jurisdictions: ["MX"],
    profile: { status: 500 },
    transfers: [{ at: "2026-06-10 12:00", direction: "in", usd: 10, counterparty: "sanctioned" }],
    expect: {
      laws: [["MX-24H-LISTA", "XB-OFAC"]],
      urgent: [],
      messages: [
        { type: "notification", matches: /"risk":"illegal".*"id":"MX-24H-LISTA".*"id":"XB-OFAC"/ },
        { type: "error", matches: /could not be read \(the user profile request answered 500\)/ },
        // The 24-hour aviso it blocks fails too, and says so.
        { type: "error", matches: /the 24-hour aviso of transaction 0x[0-9a-f]+ .*could not be generated/ },
      ],
    },
  },
  {
    name: "a sanctioned counterparty with a readable profile: a 24-hour aviso at once",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [{ at: "2026-06-10 12:00", direction: "in", usd: 10, counterparty: "sanctioned" }],
    expect: { laws: [["MX-24H-LISTA", "XB-OFAC"]], urgent: [0] },
  },
  {
    name: "before the reform, the 24-hour aviso of a listed counterparty needed an operation subject to an aviso",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [
      { at: "2025-07-10 12:00", direction: "in", usd: 10, counterparty: "sanctioned" },
      { at: "2025-07-11 12:00", direction: "in", mxn: 80_000, counterparty: "sanctioned" },
      { at: "2025-07-17 12:00", direction: "in", usd: 10, counterparty: "sanctioned" },
    ],
    expect: {
      laws: [["XB-OFAC"], ["MX-AVISO", "MX-24H-LISTA", "XB-OFAC"], ["MX-24H-LISTA", "XB-OFAC"]],
      urgent: [1, 2],
    },
  },
  {
    name: "a mixer counterparty is indicia of illicit origin: a 24-hour aviso",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [{ at: "2026-06-10 12:00", direction: "out", usd: 10, counterparty: "mixer" }],
    expect: { laws: [["MX-24H-INDICIOS", "XB-MIXER"]], urgent: [0] },
  },
  {
    name: "Mexico's travel rule: a transfer with an exchange at any amount from the 2025 reform, none before it",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [
      { at: "2025-07-16 12:00", direction: "out", usd: 10, counterparty: "exchange" },
      { at: "2025-07-17 12:00", direction: "out", usd: 10, counterparty: "exchange" },
      { at: "2026-06-10 12:00", direction: "out", usd: 10 },
    ],
    expect: { laws: [[], ["MX-TRAVEL"], []] },
  },
  {
    name: "a movement between two of the client's own addresses meets no rule",
    jurisdictions: ["MX"],
    profile: mexican(),
    transfers: [{ at: "2026-06-10 12:00", direction: "out", mxn: 30_000, own: 1 }],
    expect: { laws: [[]], files: { MX: { "2026-06": { zero: true } } } },
  },
  {
    name: "a transfer without a price when checked is judged when its price arrives, before the month's files",
    jurisdictions: ["MX"],
    profile: mexican(),
    prices: { "2026-06-10": null },
    pricesLater: { "2026-06-10": 1_000 },
    transfers: [receipt("2026-06-10 12:00", 30_000)],
    expect: { laws: [[]], files: { MX: { "2026-06": { avisos: [[0]] } } } },
  },
  {
    name: "a transfer still without a price keeps its client's file and the informe en ceros back, and says why",
    jurisdictions: ["MX"],
    profile: mexican(),
    prices: { "2026-06-10": null },
    transfers: [receipt("2026-06-10 12:00", 30_000)],
    expect: {
      laws: [[]],
      files: {
        MX: {
          "2026-06": { refused: /transaction 0x[0-9a-f]+ could not be judged \(the token has no USD price/ },
        },
      },
    },
  },
  // RCG Art. 41 fracción V (Acuerdo 115/2026; applies from 1 June 2027, its Transitorio noveno): an alert on each
  // operation of a client residing in a jurisdiction on the FATF's lists. June 2026's increased monitoring names
  // Venezuela and no longer Algeria; the call for action names North Korea. 2027 has no UMA in these cases: the
  // amount rules are left unjudged, and only the residence is judged.
  {
    name: "a client residing in Venezuela (FATF increased monitoring): no alert on 31 May 2027 at 23:50, one from 00:10 on 1 June",
    jurisdictions: ["MX"],
    profile: mexican({ address: { country: "VE", city: "Caracas" } }),
    transfers: [receipt("2027-05-31 23:50", 1_000), receipt("2027-06-01 00:10", 1_000)],
    // A warn rule whose text asks for an alert raises one without the project listing it.
    expect: { laws: [[], ["MX-JURISDICCION-RIESGO"]], alerts: ["MX-JURISDICCION-RIESGO"] },
  },
  {
    name: "a client residing in North Korea (FATF call for action) sending MXN 10: the alert, whatever the amount",
    jurisdictions: ["MX"],
    profile: mexican({ address: { country: "KP" } }),
    transfers: [send("2027-06-15 12:00", 10)],
    expect: { laws: [["MX-JURISDICCION-RIESGO"]] },
  },
  {
    name: "a Venezuelan national residing in Mexico is judged by residence: no alert",
    jurisdictions: ["MX"],
    profile: mexican({ nationality: "VE" }),
    transfers: [receipt("2027-06-15 12:00", 1_000)],
    expect: { laws: [[]] },
  },
  {
    name: "a client residing in Algeria in June 2027: no alert (off the list since 19 June 2026)",
    jurisdictions: ["MX"],
    profile: mexican({ address: { country: "DZ", city: "Argel" } }),
    transfers: [receipt("2027-06-15 12:00", 1_000)],
    expect: { laws: [[]] },
  },
  // A year's UMA imported after the release (`vigia import uma`): the figures below are invented for the test (the
  // 2027 UMA is published in January 2027), MXN 121.50 a day, so 210 UMA = 25,515.00 from 1 February 2027.
  {
    name: "the UMA of 2027 imported: MXN 25,000 passes 210 UMA of 2026 on 31 January 2027, not of 2027 on 1 February; MXN 25,600 does",
    jurisdictions: ["MX"],
    profile: mexican(),
    uma: [
      {
        year: 2027,
        daily: 121.5,
        monthly: 3693.6,
        annual: 44323.2,
        dofDate: "2027-01-08",
        source: "test figure",
      },
    ],
    transfers: [
      receipt("2027-01-31 23:50", 25_000),
      receipt("2027-02-01 00:10", 25_000),
      receipt("2027-02-01 00:20", 25_600),
    ],
    expect: { laws: [["MX-AVISO"], [], ["MX-AVISO"]] },
  },
];

// A client on the UIF's Lista de Personas Bloqueadas (MX-LPB): the list is imported (src/screening), the client is
// screened at its first checked transfer, and each of its operations owes a 24-hour aviso. Each case's client has a
// name of its own, so that the list one case builds names no other case's client.
// The profile keeps mexican()'s birthdate, which its RFC and CURP carry.
const onLpb = (givenName: string, paternalSurname: string, maternalSurname: string) => ({
  profile: mexican({ givenName, paternalSurname, maternalSurname }),
  lists: {
    "mx-lpb": [{ name: `${paternalSurname} ${maternalSurname} ${givenName}`, birthdate: "1990-01-02" }],
  },
});

export const MX_LPB_CASES: LegalCase[] = [
  {
    name: "a client on the LPB receiving MXN 1,000 on 30 November 2026 (Acuerdo 115/2026 in force): MX-LPB and its 24-hour aviso",
    jurisdictions: ["MX"],
    ...onLpb("Ramiro", "Quintanilla", "Sepúlveda"),
    transfers: [receipt("2026-11-30 10:00", 1_000)],
    expect: {
      laws: [["MX-LPB"]],
      urgent: [0],
      messages: [{ type: "notification", matches: /"risk":"illegal".*"id":"MX-LPB"/ }],
    },
  },
  {
    name: "the same client's MXN 1,000 at 23:30 on 29 November 2026 (the RCG of 2014 with the 2025 law): MX-LPB at any amount",
    jurisdictions: ["MX"],
    ...onLpb("Rosendo", "Villaseñor", "Treviño"),
    transfers: [receipt("2026-11-29 23:30", 1_000)],
    expect: { laws: [["MX-LPB"]], urgent: [0] },
  },
  {
    name: "before the 2025 reform an LPB client's MXN 1,000 owes nothing; at 00:30 on 17 July 2025 it owes the aviso",
    jurisdictions: ["MX"],
    ...onLpb("Eustaquio", "Barragán", "Olvera"),
    transfers: [receipt("2025-07-16 23:30", 1_000), receipt("2025-07-17 00:30", 1_000)],
    expect: { laws: [[], ["MX-LPB"]], urgent: [1] },
  },
  {
    name: "before the 2025 reform an LPB client's operation subject to an aviso (MXN 80,000, over 645 UMA) owes the 24-hour aviso too",
    jurisdictions: ["MX"],
    ...onLpb("Leocadio", "Zermeño", "Pantoja"),
    transfers: [receipt("2025-07-16 12:00", 80_000)],
    expect: { laws: [["MX-AVISO", "MX-LPB"]], urgent: [0] },
  },
  {
    name: "a namesake of a listed person, born 20 years later, is ruled out by the birthdate: no MX-LPB",
    jurisdictions: ["MX"],
    profile: mexican({
      givenName: "Anselmo",
      paternalSurname: "Cienfuegos",
      maternalSurname: "Aldama",
    }),
    lists: { "mx-lpb": [{ name: "Anselmo Cienfuegos Aldama", birthdate: "1970-01-02" }] },
    transfers: [receipt("2026-12-02 10:00", 1_000)],
    expect: { laws: [[]] },
  },
  {
    name: "a client on the LPB written without accents and surnames first is still found: MX-LPB",
    jurisdictions: ["MX"],
    profile: mexican({
      givenName: "José Ángel",
      paternalSurname: "Íñiguez",
      maternalSurname: "Bañuelos",
    }),
    lists: { "mx-lpb": [{ name: "INIGUEZ BANUELOS, JOSE ANGEL", birthdate: "1990-01-02" }] },
    transfers: [receipt("2026-12-02 10:00", 1_000)],
    expect: { laws: [["MX-LPB"]], urgent: [0] },
  },
  // Names that read the same on every screen and differ in what is stored: each must still be found.
  {
    // One zero-width space is rejoined by the matcher's joined-words reading; three cut the surname past it (no
    // candidate at all before names were read as shown).
    name: "a client on the LPB with zero-width spaces inside the surname is found as shown: MX-LPB and its 24-hour aviso",
    jurisdictions: ["MX"],
    profile: mexican({
      givenName: "Fortino",
      paternalSurname: "Ba\u200Bra\u200Bho\u200Bna",
      maternalSurname: "Luévano",
    }),
    lists: { "mx-lpb": [{ name: "BARAHONA LUEVANO FORTINO", birthdate: "1990-01-02" }] },
    transfers: [receipt("2026-12-02 10:00", 1_000)],
    expect: { laws: [["MX-LPB"]], urgent: [0] },
  },
  {
    name: "a client on the LPB written with Cyrillic look-alikes, a soft hyphen and a fullwidth letter is found: MX-LPB and its aviso",
    jurisdictions: ["MX"],
    profile: mexican({
      givenName: "Cipri\u0430no",
      paternalSurname: "\u0415cha\u00ADv\u0430rr\u0456a",
      maternalSurname: "Ｍontemayor",
    }),
    lists: { "mx-lpb": [{ name: "Cipriano Echavarría Montemayor", birthdate: "1990-01-02" }] },
    transfers: [receipt("2026-12-02 10:00", 1_000)],
    expect: { laws: [["MX-LPB"]], urgent: [0] },
  },
  {
    name: "an LPB entry imported with a word joiner inside the surname still names the client: MX-LPB",
    jurisdictions: ["MX"],
    ...onLpb("Severiano", "Tapia", "Ochoa"),
    lists: { "mx-lpb": [{ name: "TA\u2060PIA OCHOA SEVERIANO", birthdate: "1990-01-02" }] },
    transfers: [receipt("2026-12-02 10:00", 1_000)],
    expect: { laws: [["MX-LPB"]], urgent: [0] },
  },
  {
    name: "a Colombian client on the LPB of a project in Mexico and Colombia is governed by Colombia: no MX-LPB",
    jurisdictions: ["MX", "CO"],
    profile: colombian({ givenName: "Wilfrido", paternalSurname: "Arboleda", maternalSurname: "Quiceno" }),
    lists: { "mx-lpb": [{ name: "Wilfrido Arboleda Quiceno" }] },
    transfers: [receipt("2026-12-02 10:00", 1_000)],
    expect: { laws: [[]] },
  },
  {
    name: "a client whose profile cannot be read is not screened: MX-LPB is left unjudged, and the month's files wait and say why",
    jurisdictions: ["MX"],
    profile: { status: 503 },
    lists: { "mx-lpb": [{ name: "Anacleto Valdivia Ugalde", birthdate: "1960-01-01" }] },
    transfers: [receipt("2026-12-03 10:00", 1_000)],
    expect: {
      laws: [[]],
      files: { MX: { "2026-12": { refused: /not screened against the lists of persons/ } } },
    },
  },
];
