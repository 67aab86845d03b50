// Colombia's legal cases (Resolución UIAF 314 de 2021; docs/regulation.md, "Colombia"). Amounts in USD; times on
// Bogotá's clock (UTC-5).
import type { LegalCase } from "../support/legal-case.ts";
import { colombian } from "./profiles.ts";

const receipt = (at: string, usd: number, extra: object = {}) => ({
  at,
  direction: "in" as const,
  usd,
  ...extra,
});

export const CO_CASES: LegalCase[] = [
  {
    name: "four transfers of USD 140 in Bogotá's April: the fourth, at 20:00 on 30 April (1 May in UTC), makes April's multiple",
    jurisdictions: ["CO"],
    profile: colombian(),
    transfers: [
      receipt("2026-04-01 09:00", 140),
      receipt("2026-04-10 09:00", 140),
      receipt("2026-04-20 09:00", 140),
      receipt("2026-04-30 20:00", 140),
      receipt("2026-05-01 00:30", 140),
    ],
    expect: {
      laws: [[], [], [], ["CO-TX-450"], []],
      files: {
        CO: {
          "2026-04": {
            records: [
              [0, "M"],
              [1, "M"],
              [2, "M"],
              [3, "M"],
            ],
          },
          "2026-05": { none: true },
        },
      },
    },
  },
  {
    name: "one transfer of USD 500 is an individual transaction, never a multiple one on its own",
    jurisdictions: ["CO"],
    profile: colombian(),
    transfers: [receipt("2026-04-10 09:00", 500)],
    expect: { laws: [["CO-TX-150"]], files: { CO: { "2026-04": { records: [[0, "I"]] } } } },
  },
  {
    name: "USD 150 exactly is reported, USD 149.99 is not",
    jurisdictions: ["CO"],
    profile: colombian(),
    transfers: [receipt("2026-04-10 09:00", 150), receipt("2026-05-10 09:00", 149.99)],
    expect: {
      laws: [["CO-TX-150"], []],
      files: { CO: { "2026-04": { records: [[0, "I"]] }, "2026-05": { none: true } } },
    },
  },
  {
    name: "USD 300 and USD 150 reach USD 450 together: both are the month's multiple",
    jurisdictions: ["CO"],
    profile: colombian(),
    transfers: [receipt("2026-04-10 09:00", 300), { at: "2026-04-11 09:00", direction: "out", usd: 150 }],
    expect: {
      laws: [["CO-TX-150"], ["CO-TX-150", "CO-TX-450"]],
      files: {
        CO: {
          "2026-04": {
            records: [
              [0, "M"],
              [1, "M"],
            ],
          },
        },
      },
    },
  },
  {
    name: "COP at the TRM of the transaction's own day in Bogotá: 20:00 on 30 April (1 May in UTC) takes 30 April's",
    jurisdictions: ["CO"],
    profile: colombian(),
    rates: {
      "2026-04-09": { COP: 3_700 },
      "2026-04-10": { COP: 3_800 },
      "2026-04-11": { COP: 3_850 },
      "2026-04-30": { COP: 3_900 },
      "2026-05-01": { COP: 4_100 },
    },
    transfers: [receipt("2026-04-10 09:00", 300), receipt("2026-04-30 20:00", 200)],
    expect: {
      laws: [["CO-TX-150"], ["CO-TX-150", "CO-TX-450"]],
      files: {
        CO: {
          "2026-04": {
            records: [
              [0, "M"],
              [1, "M"],
            ],
          },
        },
      },
      // USD, COP and the TRM of each line, then the trailer's sums.
      xml: {
        "2026-04": [
          /\|300\.00\|1140000\.00\|3800\.00\|/,
          /\|200\.00\|780000\.00\|3900\.00\|/,
          /^2\|2\|500\.00\|1920000\.00/m,
        ],
      },
    },
  },
  {
    name: "USD 449.99 over a month is no multiple; the count starts again in the next month",
    jurisdictions: ["CO"],
    profile: colombian(),
    transfers: [
      receipt("2026-04-10 09:00", 300),
      receipt("2026-04-30 23:59", 149.99),
      receipt("2026-05-01 00:00", 149.99),
    ],
    expect: { laws: [["CO-TX-150"], [], []], files: { CO: { "2026-04": { records: [[0, "I"]] } } } },
  },
  {
    name: "reporting started on 1 July 2022 (Resolución UIAF 84 de 2022)",
    jurisdictions: ["CO"],
    profile: colombian(),
    transfers: [receipt("2022-06-30 12:00", 200), receipt("2022-07-01 12:00", 200)],
    expect: { laws: [[], ["CO-TX-150"]] },
  },
  {
    name: "a client without the identification the UIAF needs: notified, an error names the field, and its file fails",
    jurisdictions: ["CO"],
    profile: colombian({ colombia: { numeroCliente: "C-1" } }),
    transfers: [receipt("2026-04-10 09:00", 200)],
    expect: {
      laws: [["CO-TX-150"]],
      files: { CO: { "2026-04": { none: true } } },
      messages: [
        { type: "notification", matches: /"id":"CO-TX-150"/ },
        { type: "error", matches: /`colombia\.tipoIdentificacion`.*It blocks Colombia's files of 2026-04/ },
        {
          type: "error",
          matches:
            /CO 2026-04: the UIAF transactions report of 2026-04 .*could not be generated \(field `colombia\.tipoIdentificacion`\)/,
        },
      ],
    },
  },
  {
    name: "a transfer of no value (address poisoning) adds to no month: USD 500 after it is an individual transaction",
    jurisdictions: ["CO"],
    profile: colombian(),
    transfers: [receipt("2026-04-09 09:00", 0), receipt("2026-04-10 09:00", 500)],
    expect: { laws: [[], ["CO-TX-150"]], files: { CO: { "2026-04": { records: [[1, "I"]] } } } },
  },
];
