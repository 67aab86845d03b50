// Unsolicited dust (docs/decisions/0030) is named as such in the Spanish reason as in the English one: a gift the
// address did not ask for and did not spend, not a dealing. Other exposure reads as before.
import { describe, expect, it } from "vitest";
import type { VerdictExposure } from "../analysis/index.ts";
import { exposureEs } from "./spanish.ts";

const lazarus = "0x098b716b8aaf21512996dc57eb0615e2383e2f96";
const entry = (extra: Partial<VerdictExposure> = {}): VerdictExposure => ({
  category: "sanctioned",
  direction: "incoming",
  hops: 1,
  usd: 2.39,
  share: 0.0005,
  counterparties: [{ address: lazarus, label: "OFAC SDN: Lazarus Group" }],
  via: [],
  txs: ["0xaa"],
  drivesScore: true,
  ...extra,
});

describe("exposureEs", () => {
  it("says unsolicited dust is unsolicited and unspent, directly and through intermediaries", () => {
    expect(exposureEs(entry({ unsolicited: true }))).toMatch(
      /^Recibió polvo no solicitado: USD 2\.39 \(.*\) directamente de .*\(OFAC SDN: Lazarus Group\), que no gastó$/,
    );
    const traced = exposureEs(
      entry({ unsolicited: true, hops: 2, via: ["0x1111111111111111111111111111111111111111"] }),
    );
    expect(traced).toMatch(/^Recibió polvo no solicitado: USD 2\.39 .* a través de .*, que no gastó$/);
  });

  it("reads a material receipt as a dealing", () => {
    const text = exposureEs(entry({ usd: 5_000, share: 0.5 }));
    expect(text).toMatch(/^Recibió USD 5,000/);
    expect(text).not.toContain("no solicitado");
  });
});
