// El Salvador's and Guatemala's legal cases (docs/regulation.md): indicators whose thresholds are not verified for
// virtual assets, never a cash rule on a crypto transfer, each with the text in force on its day. Amounts in USD.
import type { LegalCase } from "../support/legal-case.ts";
import { guatemalan, salvadoran } from "./profiles.ts";

const receipt = (at: string, usd: number) => ({ at, direction: "in" as const, usd });

export const SV_GT_CASES: LegalCase[] = [
  {
    name: "El Salvador: USD 25,000 is not over the indicator, USD 25,000.01 is; no transfer is called cash",
    jurisdictions: ["SV"],
    profile: salvadoran(),
    transfers: [receipt("2026-04-10 09:00", 25_000), receipt("2026-05-10 09:00", 25_000.01)],
    expect: {
      laws: [[], ["SV-REGULADA"]],
      files: { SV: { "2026-04": { none: true }, "2026-05": { rows: [1] } } },
      messages: [
        {
          type: "notification",
          matches: /^(?!.*[Cc]ash)(?=.*"verified":false)(?=.*Not verified: D\.L\. 426 Art\. 25)/,
        },
      ],
    },
  },
  {
    name: "El Salvador: a month's operations that together pass USD 25,000, all of them in the record",
    jurisdictions: ["SV"],
    profile: salvadoran(),
    transfers: [receipt("2026-04-10 09:00", 15_000), receipt("2026-04-20 09:00", 10_000.01)],
    expect: { laws: [[], ["SV-REGULADA-MES"]], files: { SV: { "2026-04": { rows: [0, 1] } } } },
  },
  {
    name: "El Salvador: D.L. 498 until 16 October 2025, D.L. 426 from the 17th",
    jurisdictions: ["SV"],
    profile: salvadoran(),
    transfers: [receipt("2025-10-16 12:00", 30_000)],
    expect: {
      laws: [["SV-REGULADA"]],
      messages: [{ type: "notification", matches: /D\.L\. 498.*Art\. 9/ }],
    },
  },
  {
    name: "Guatemala: an indicator from USD 10,000, saying no virtual-asset regime is in force, never cash",
    jurisdictions: ["GT"],
    profile: guatemalan(),
    transfers: [receipt("2026-04-10 09:00", 9_999.99), receipt("2026-09-16 09:00", 10_000)],
    expect: {
      laws: [[], ["GT-INDICADOR-10K"]],
      files: { GT: { "2026-09": { rows: [1] } } },
      messages: [
        {
          type: "notification",
          matches:
            /Indicator only.*no virtual-asset regime in force.*for cash \(notes and coins\), which a crypto transfer is not/,
        },
      ],
    },
  },
  {
    name: "Guatemala: from 17 September 2026 the indicator cites Decreto 15-2026, whose reglamento is not issued",
    jurisdictions: ["GT"],
    profile: guatemalan(),
    transfers: [receipt("2026-09-17 09:00", 10_000)],
    expect: {
      laws: [["GT-INDICADOR-10K"]],
      messages: [
        {
          type: "notification",
          matches: /No virtual-asset reporting threshold is in force.*Decreto 15-2026/,
        },
      ],
    },
  },
];
