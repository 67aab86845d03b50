// The international rules every project applies, whatever its jurisdictions: a sanctioned counterparty (OFAC SDN
// digital-currency addresses), a mixer (FATF red-flag indicators) and the FATF travel rule. A rule book like a
// jurisdiction's, without files of its own: its verdicts go into notifications, and each country's files cite
// their own rules. Days count in UTC.
import type { RuleBook } from "../../regulation/index.ts";

const FATF_R16 =
  "FATF Recommendations (updated February 2025): Interpretive Note to Recommendation 15, paragraph 7(b); Interpretive Note to Recommendation 16, paragraphs 5-6; FATF Updated Guidance on Virtual Assets and VASPs (October 2021), paragraphs 179, 191, 204";

export const INTERNATIONAL: RuleBook = {
  code: "XB",
  country: "international",
  // Not a country: its laws are notified with its code, XB, as their countryCode (docs/decisions/0027).
  countryCode: null,
  timeZone: "UTC",
  currency: "USD",
  rules: [
    {
      id: "XB-OFAC",
      name: "OFAC SDN: sanctioned counterparty",
      risk: "illegal",
      versions: [
        {
          description:
            "The counterparty is an address on a sanctions list (OFAC SDN digital currency addresses): stop or escalate the operation.",
          source: "https://sanctionslist.ofac.treas.gov (SDN, Digital Currency Address)",
          verified: true,
          check: { kind: "counterparty", categories: ["sanctioned"] },
        },
      ],
    },
    {
      id: "XB-MIXER",
      name: "FATF red flag: mixer",
      risk: "warn",
      versions: [
        {
          description:
            "The counterparty is a mixer or tumbler, a red flag of virtual-asset money laundering.",
          source:
            "FATF, Virtual Assets Red Flag Indicators of Money Laundering and Terrorist Financing (September 2020)",
          verified: true,
          check: { kind: "counterparty", categories: ["mixer"] },
        },
      ],
    },
    {
      id: "XB-TRAVEL-1000",
      name: "FATF travel rule",
      risk: "warn",
      versions: [
        {
          description:
            "A transfer of USD/EUR 1,000 or more with another virtual-asset service provider (a labelled exchange or one of its deposit addresses): the originating provider sends, and the beneficiary provider obtains, the originator's name, account or wallet and address, national identity number, customer number or date and place of birth, and the beneficiary's name and account or wallet. A transfer with an unhosted wallet is not this rule's: the provider collects its own customer's data without transmitting it.",
          source: FATF_R16,
          verified: true,
          check: { kind: "vasp-counterparty", minimum: { usd: 1_000 }, compare: "at-least" },
        },
      ],
    },
  ],
};
