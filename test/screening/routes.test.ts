// POST /screening/persons, POST /screening and GET /screening/lists (docs/api.md, "Screening") on the real service:
// nothing answered `clear` before a list is imported, OFAC's SDN list imported from its committed fixture (sdn.csv
// with alt.csv), persons answered in order with their verdicts, candidates and the list's version, a birthdate that
// rules out a namesake, the project's thresholds, the errors, and a person and wallets in one verdict. PGlite, or
// PostgreSQL with DATABASE_URL.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPersonListFiles } from "../../src/ingest/index.ts";
import { DEFAULT_THRESHOLDS } from "../../src/screening/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/person-lists");
const SDN = [path.join(FIXTURES, "ofac-csv/sdn.csv"), path.join(FIXTURES, "ofac-csv/alt.csv")];

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.close();
});

const screen = (persons: unknown[], key = svc.project.keys.developer) =>
  svc.app!.inject({ method: "POST", url: "/v1/screening/persons", headers: auth(key), payload: { persons } });

describe("before any list is imported", () => {
  it("refuses to screen (409), saying how to import a list, rather than answer `clear`", async () => {
    const res = await screen([{ name: "Gilberto José Rodríguez Orejuela" }]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, error: "conflict" });
    expect(res.json().message).toMatch(/vigia lists import KIND FILE/);
  });

  it("lists no list", async () => {
    const res = await svc.app!.inject({ url: "/v1/screening/lists", headers: auth(svc.project.keys.viewer) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.lists).toEqual([]);
  });
});

describe("with OFAC's SDN list", () => {
  beforeAll(async () => {
    const summary = await importPersonListFiles(svc.database.db, "ofac-sdn", SDN);
    expect(summary.status).toBe("imported");
  });

  it("answers each person in order, with verdict, candidates and the list's version", async () => {
    const res = await screen([
      { name: "Gilberto José Rodríguez Orejuela", birthdate: "1939-01-31", nationality: "CO" },
      { name: "María Guadalupe Hernández López", birthdate: "1985-04-12", nationality: "MX" },
      { name: "OREJUELA RODRIGUEZ GILBERTO JOSE" },
      { name: "Gilberto Rodríguez Orejuela", birthdate: "1988-02-03" },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [exact, common, reordered, namesake] = res.json().data.results;
    expect(exact.verdict).toBe("match");
    expect(exact.candidates[0]).toMatchObject({
      list: "ofac-sdn",
      entryId: "4107",
      verdict: "match",
      matchedName: "RODRIGUEZ OREJUELA, Gilberto Jose",
    });
    expect(exact.candidates[0].matchedFields).toEqual(expect.arrayContaining(["name", "date"]));
    expect(exact.candidates[0].entry.programs).toContain("SDNT");
    expect(exact.lists).toEqual([expect.objectContaining({ kind: "ofac-sdn", entries: expect.any(Number) })]);
    expect(common).toMatchObject({ verdict: "clear", candidates: [] });
    expect(reordered.verdict).not.toBe("clear");
    expect(reordered.candidates[0].entryId).toBe("4107");
    expect(namesake.verdict).toBe("clear");
    expect(namesake.ruledOut).toEqual([
      expect.objectContaining({ list: "ofac-sdn", entryId: "4107", reason: expect.stringMatching(/birth/) }),
    ]);
  });

  it("a listed name hidden by invisible characters, fullwidth letters or look-alikes is found, and the result says what hid it", async () => {
    const disguised = [
      "Gilberto José Rodríguez Ore\u200Bjuela",
      "Gilberto José Rodr\u00ADíguez Orejuela\uFEFF",
      "ＧＩＬＢＥＲＴＯ RODRIGUEZ OREJUELA",
      "Gilb\u0435rto José R\u043Edríguez Or\u0435juela",
    ];
    const res = await screen(disguised.map((name) => ({ name, birthdate: "1939-01-31" })));
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().data.results;
    for (const [i, r] of results.entries()) {
      expect(r.verdict, disguised[i]).toBe("match");
      expect(r.candidates[0].entryId).toBe("4107");
      expect(r.name).toBe(disguised[i]); // as sent, for the evidence
      expect(r.nameAsRead.hidden.length).toBeGreaterThan(0);
    }
    expect(results[0].nameAsRead).toEqual({
      compared: "Gilberto José Rodríguez Orejuela",
      hidden: [{ kind: "invisible", character: "U+200B", at: 27, readsAs: "" }],
      mixedScripts: false,
    });
    expect(results[0].candidates[0].notes).toContain(
      'the name as sent hides 1 character(s) (U+200B invisible at 27); compared as "Gilberto José Rodríguez Orejuela"',
    );
    expect(results[3].nameAsRead.mixedScripts).toBe(true);
    expect(results[3].nameAsRead.hidden[0]).toMatchObject({
      kind: "look-alike",
      character: "U+0435",
      readsAs: "e",
    });
    // A plain name says nothing.
    const plain = await screen([{ name: "Gilberto José Rodríguez Orejuela" }]);
    expect(plain.json().data.results[0].nameAsRead).toBeUndefined();
  });

  it("an identifier on the list confirms the person", async () => {
    const res = await screen([
      { name: "Gilberto Rodriguez", identifiers: [{ kind: "passport", value: "T321642" }] },
    ]);
    const [r] = res.json().data.results;
    expect(r.verdict).toBe("match");
    expect(r.candidates[0].matchedFields).toContain("identifier");
  });

  it("the lists' versions", async () => {
    const res = await svc.app!.inject({ url: "/v1/screening/lists", headers: auth(svc.project.keys.viewer) });
    expect(res.json().data.lists).toEqual([
      expect.objectContaining({ kind: "ofac-sdn", version: expect.stringMatching(/^sha256:/) }),
    ]);
  });

  it("refuses bad requests with the field at fault", async () => {
    const cases: [unknown, RegExp][] = [
      [{ persons: [] }, /persons/],
      [{ persons: Array.from({ length: 101 }, () => ({ name: "Ana" })) }, /persons/],
      [{ persons: [{ name: "Ana", birthdate: "31/01/1939" }] }, /birthdate/],
      [{ persons: [{ name: "" }] }, /name/],
      [{ persons: [{ name: "Ana" }, { name: " . - " }] }, /persons\/1\/name.*nothing to compare/],
      [{ persons: [{ name: "de la" }] }, /persons\/0\/name.*nothing to compare/],
      [{ persons: [{ name: "S.A. de C.V." }] }, /persons\/0\/name.*nothing to compare/],
      [{ persons: [{ name: "Lic. de los", type: "person" }] }, /persons\/0\/name.*nothing to compare/],
      [{ persons: [{ name: "Ana", nationality: "Mexico" }] }, /nationality/],
      [{ persons: [{ name: "Ana", identifiers: [{ kind: "ssn", value: "1" }] }] }, /identifiers/],
    ];
    for (const [payload, field] of cases) {
      const res = await svc.app!.inject({
        method: "POST",
        url: "/v1/screening/persons",
        headers: auth(svc.project.keys.developer),
        payload: payload as object,
      });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(JSON.stringify(res.json().details)).toMatch(field);
    }
  });

  it("a viewer may not screen", async () => {
    expect((await screen([{ name: "Ana" }], svc.project.keys.viewer)).statusCode).toBe(403);
  });

  it("the project's thresholds decide the verdict, and are checked", async () => {
    const patch = (payload: object) =>
      svc.app!.inject({
        method: "PATCH",
        url: `/v1/projects/${svc.project.id}`,
        headers: auth(svc.project.keys.admin),
        payload,
      });
    const bad = await patch({ screening_thresholds: { "ofac-sdn": { review: 0.9, match: 0.8 } } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().details)).toMatch(/review.*must not be above.*match/);
    // A typo: found, but below a perfect score.
    const typo = "Gilberto Jose Rodrigues Orejuela";
    const before = (await screen([{ name: typo }])).json().data.results[0];
    expect(before.candidates[0].score).toBeLessThan(1);
    const ok = await patch({ screening_thresholds: { "ofac-sdn": { review: 1, match: 1 } } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.screening_thresholds["ofac-sdn"]).toEqual({ review: 1, match: 1 });
    const after = (await screen([{ name: typo }])).json().data.results[0];
    expect(before.verdict).not.toBe("clear");
    expect(after.verdict).toBe("clear");
    const back = await patch({ screening_thresholds: { "ofac-sdn": null } });
    expect(back.json().data.screening_thresholds["ofac-sdn"]).toEqual(DEFAULT_THRESHOLDS["ofac-sdn"]);
    expect((await screen([{ name: typo }])).json().data.results[0].verdict).toBe(before.verdict);
  });

  it("POST /screening: a person and wallets in one verdict, a wallet not analysed never `clear`", async () => {
    const post = (payload: object) =>
      svc.app!.inject({
        method: "POST",
        url: "/v1/screening",
        headers: auth(svc.project.keys.developer),
        payload,
      });
    const listed = await post({ person: { name: "Gilberto José Rodríguez Orejuela" }, addresses: [] });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data).toMatchObject({ verdict: "match", wallets: { results: [] } });
    expect(listed.json().data.reasons[0]).toMatch(/ofac-sdn \(4107\)/);
    const unseen = await post({
      person: { name: "María Guadalupe Hernández López" },
      addresses: [{ address: "0x00000000000000000000000000000000000000aa", chainId: "999999" }],
    });
    expect(unseen.statusCode, unseen.body).toBe(200);
    const data = unseen.json().data;
    expect(data.person.verdict).toBe("clear");
    expect(data.wallets.results[0].status).toBe("failed");
    expect(data.verdict).toBe("review");
    expect(data.reasons.join(" ")).toMatch(/could not be analysed: Unknown chain 999999/);
    const bad = await post({ person: { name: "Ana" }, addresses: [{ address: "0x1", chainId: "1" }] });
    expect(bad.statusCode).toBe(400);
  });
});
