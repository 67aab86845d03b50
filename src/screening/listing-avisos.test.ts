// When a client's listing owes an aviso from the moment it is known, and under which text: at and around each date
// the texts changed, in Mexico City (LFPIORPI Art. 18 VI as reformed DOF 16-07-2025, in force 17-07-2025; RCG as
// reformed by Acuerdo 115/2026, in force 30-11-2026), and only for the lists and jurisdictions that owe one.
import { describe, expect, it } from "vitest";
import { listingNarrative, listingsDue } from "./listing-avisos.ts";

/** A Mexico City wall-clock time (UTC-6 all year since 2022) as an instant. */
const mx = (local: string) => new Date(`${local}-06:00`);

describe("avisos a listing owes from the moment it is known", () => {
  it("none before the 2025 reform: until then a listed client owed an aviso only with a reportable operation", () => {
    expect(listingsDue(["MX"], "mx-lpb", mx("2025-07-16T23:59:59"))).toEqual([]);
  });

  it("from 00:00 on 17 July 2025, Mexico City: due within 24 hours, under the law's Art. 18 VI and the RCG of 2014", () => {
    const at = mx("2025-07-17T00:00:00");
    const [due, ...more] = listingsDue(["MX"], "mx-lpb", at);
    expect(more).toEqual([]);
    expect(due?.jurisdiction.code).toBe("MX");
    expect(due?.basis).toBe("listed-person");
    expect(due?.deadline.at.toISOString()).toBe(new Date(at.getTime() + 24 * 3600_000).toISOString());
    expect(due?.deadline.filing).toBe("MX-URGENT");
    expect(due?.deadline.source).toMatch(
      /Art\. 18 fracción VI párrafo segundo.*RCG de la LFPIORPI \(DOF 23-08-2013/,
    );
  });

  it("at 23:59 on 29 November 2026 the RCG of 2014 still; from 00:00 on 30 November 2026 the RCG's Arts. 26 Bis 2 and 27", () => {
    const [before] = listingsDue(["MX"], "mx-lpb", mx("2026-11-29T23:59:59"));
    const [after] = listingsDue(["MX"], "mx-lpb", mx("2026-11-30T00:00:00"));
    expect(before?.deadline.source).toMatch(/reforma DOF 24-07-2014\) Art\. 27 párrafo segundo/);
    expect(after?.deadline.source).toMatch(/Acuerdo 115\/2026.*Arts\. 26 Bis 2, 27 párrafo segundo y 38/);
    expect(after?.version.description).toMatch(/Transitorio quinto/);
  });

  it("no aviso from other lists (OFAC, UN: a review for the officer, whose aviso is hers to raise), nor without Mexico", () => {
    const at = mx("2026-12-02T10:00:00");
    expect(listingsDue(["MX"], "ofac-sdn", at)).toEqual([]);
    expect(listingsDue(["MX"], "un", at)).toEqual([]);
    expect(listingsDue(["CO", "SV", "GT"], "mx-lpb", at)).toEqual([]);
    expect(listingsDue(["CO", "MX"], "mx-lpb", at).map((d) => d.jurisdiction.code)).toEqual(["MX"]);
  });

  it("the narrative says who, which entry of which list, and the day it was known, in the AVI's upper case", () => {
    const text = listingNarrative(
      {
        subject: "Ramiro Quintanilla Sepúlveda",
        role: "beneficial_owner",
        list: "mx-lpb",
        listVersion: "LPB-2026-12",
        entryId: "LPB-0007",
        matchedName: "QUINTANILLA SEPULVEDA RAMIRO",
        score: 0.97,
      },
      "user-7",
      mx("2026-12-02T23:30:00"),
      "America/Mexico_City",
    );
    expect(text).toBe(
      "EL DUENO BENEFICIARIO DEL CLIENTE user-7, Ramiro Quintanilla Sepúlveda, COINCIDE CON LA ENTRADA LPB-0007 (QUINTANILLA SEPULVEDA RAMIRO) DE LA LISTA mx-lpb VERSION LPB-2026-12, PUNTUACION 0.97. CONOCIDO POR LA REVISION DE LISTAS EL 2026-12-02.",
    );
  });
});
