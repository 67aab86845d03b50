// Each list kind's outcome class and the verdict order an integrator acts on (docs/api.md, "Screening").
import { describe, expect, it } from "vitest";
import { candidateVerdict, classOf, worstVerdict } from "./outcomes.ts";

describe("outcome classes", () => {
  it("sanctions and blocked persons: OFAC, UN, the UIF's LPB, OpenSanctions entries that are not only PEPs", () => {
    for (const list of ["ofac-sdn", "un", "mx-lpb"])
      expect(classOf({ list, programs: [] })).toBe("sanctions");
    expect(classOf({ list: "ftm", programs: ["sanction", "eu_fsf"] })).toBe("sanctions");
    expect(classOf({ list: "ftm", programs: ["crime", "interpol_red_notices"] })).toBe("sanctions");
    // A sanctioned PEP is sanctioned.
    expect(classOf({ list: "ftm", programs: ["role.pep", "sanction"] })).toBe("sanctions");
  });

  it("PEPs, their relatives and close associates; the SAT's Art. 69-B list is a tax situation", () => {
    expect(classOf({ list: "ftm", programs: ["role.pep", "mx_test"] })).toBe("pep");
    expect(classOf({ list: "ftm", programs: ["role.rca"] })).toBe("pep");
    expect(classOf({ list: "ftm", programs: ["role.pep.frmr"] })).toBe("pep");
    expect(classOf({ list: "sat-69b", programs: ["Definitivo"] })).toBe("tax");
  });

  it("a candidate's verdict: `match` only for sanctions, `pep` for a PEP, `review` below the match threshold or for tax", () => {
    expect(candidateVerdict("sanctions", true)).toBe("match");
    expect(candidateVerdict("pep", true)).toBe("pep");
    expect(candidateVerdict("tax", true)).toBe("review");
    for (const c of ["sanctions", "pep", "tax"] as const) expect(candidateVerdict(c, false)).toBe("review");
  });

  it("the person's verdict is the strongest: match, then review, then pep, then clear", () => {
    expect(worstVerdict([])).toBe("clear");
    expect(worstVerdict(["clear", "pep"])).toBe("pep");
    expect(worstVerdict(["pep", "review"])).toBe("review");
    expect(worstVerdict(["review", "match", "pep"])).toBe("match");
  });
});
