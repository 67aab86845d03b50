// The international rules' legal cases (docs/regulation.md, "International"): the FATF travel rule applies between
// virtual-asset service providers (a labelled exchange, or an inferred deposit address) from USD 1,000; sanctions
// and mixers everywhere. A Colombian client of a Colombian project: Colombia's own rules show beside them.
import type { LegalCase } from "../support/legal-case.ts";
import { colombian } from "./profiles.ts";

const out = (at: string, usd: number, counterparty?: string) => ({
  at,
  zone: "CO" as const,
  direction: "out" as const,
  usd,
  ...(counterparty ? { counterparty } : {}),
});

export const INTERNATIONAL_CASES: LegalCase[] = [
  {
    name: "the travel rule: USD 1,000 to an exchange, not USD 999.99, not USD 5,000 to an unhosted wallet",
    jurisdictions: ["CO"],
    profile: colombian(),
    transfers: [
      out("2026-04-01 09:00", 1_000, "exchange"),
      out("2026-05-01 09:00", 999.99, "exchange"),
      out("2026-06-01 09:00", 5_000),
    ],
    expect: {
      laws: [["CO-TX-150", "XB-TRAVEL-1000"], ["CO-TX-150"], ["CO-TX-150"]],
      messages: [
        { type: "notification", matches: /originator's name.*beneficiary's name.*"id":"XB-TRAVEL-1000"/ },
        { type: "notification" },
        { type: "notification" },
      ],
    },
  },
  {
    name: "the travel rule: an unlabelled address the service inferred to be an exchange's deposit address is a VASP",
    jurisdictions: ["CO"],
    profile: colombian(),
    transfers: [out("2026-04-01 09:00", 2_000, "deposit-address")],
    expect: { laws: [["CO-TX-150", "XB-TRAVEL-1000"]] },
  },
  {
    name: "a sanctioned counterparty is illegal and a mixer a red flag, at any amount",
    jurisdictions: ["CO"],
    profile: colombian(),
    transfers: [out("2026-04-01 09:00", 1, "sanctioned"), out("2026-04-02 09:00", 1, "mixer")],
    expect: { laws: [["XB-OFAC"], ["XB-MIXER"]] },
  },
];
