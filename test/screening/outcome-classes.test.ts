// Verdicts a system can act on (docs/api.md, "Screening"): the same screening names a politically exposed person
// `pep` (enhanced due diligence, never `match`), a SAT 69-B taxpayer `review` with its situation, and a person on
// the UIF's LPB `match`; each candidate says its class. A monitored client who is a PEP gets a `person_match` alert
// of level `pep`, on which a directivo's approval is recorded (LFPIORPI Art. 18 VIII and X; RCG Art. 23 Ter 5).
// The lists are written as their importers write them; the real service answers. PGlite, or PostgreSQL with
// DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProfileReader } from "../../src/integrator/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import type { ListEntry, ListKind } from "../../src/screening/index.ts";
import { importPersonList, rescreenClients, Screener } from "../../src/screening/index.ts";
import { mexican } from "../jurisdictions/cases/profiles.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const person = (entryId: string, name: string, programs: string[], birthdate?: string): ListEntry => ({
  entryId,
  type: "person",
  names: [name],
  dates: birthdate ? [birthdate] : [],
  countries: ["MX"],
  identifiers: [],
  programs,
});

const LISTS: [ListKind, ListEntry[]][] = [
  ["ftm", [person("mx-pep-1", "Heriberto Zamudio Ocampo", ["role.pep", "mx_test"], "1971-05-09")]],
  ["sat-69b", [person("ZAOE800101AB1", "Efraín Zaragoza Oropeza", ["Definitivo"])]],
  ["mx-lpb", [person("LPB-O-0001", "Anacleto Valdivia Ugalde", ["LPB"], "1960-01-01")]],
];

let svc: TestService;
let integrator: http.Server;

beforeAll(async () => {
  svc = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" } });
  for (const [kind, entries] of LISTS)
    await svc.database.db.transaction().execute((trx) =>
      importPersonList(
        trx,
        {
          kind,
          version: `${kind}-test`,
          listDate: "2026-12-01",
          source: "test",
          ...(kind === "mx-lpb" ? { projectId: svc.project.id } : {}),
        },
        (async function* () {
          yield* entries;
        })(),
      ),
    );
  integrator = http.createServer((_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify(
        mexican({
          givenName: "Heriberto",
          paternalSurname: "Zamudio",
          maternalSurname: "Ocampo",
          birthdate: "1971-05-09",
        }),
      ),
    ),
  );
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  const patch = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: {
      integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
      jurisdictions: ["MX"],
    },
  });
  expect(patch.statusCode, patch.body).toBe(200);
});
afterAll(async () => {
  integrator?.closeAllConnections();
  await new Promise((resolve) => integrator?.close(resolve));
  await svc?.close();
});

describe("verdicts by the kind of list", () => {
  it("a PEP is `pep`, a SAT 69-B taxpayer `review` with the situation named, an LPB person `match`; each candidate says its class", async () => {
    const res = await svc.app!.inject({
      method: "POST",
      url: "/v1/screening/persons",
      headers: auth(svc.project.keys.developer),
      payload: {
        persons: [
          { name: "Heriberto Zamudio Ocampo", birthdate: "1971-05-09", nationality: "MX" },
          { name: "Efraín Zaragoza Oropeza", nationality: "MX" },
          { name: "Anacleto Valdivia Ugalde", birthdate: "1960-01-01" },
          { name: "Ximena Pérez Arriaga" },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [pep, tax, lpb, nobody] = res.json().data.results;
    expect(pep.verdict).toBe("pep");
    expect(pep.candidates[0]).toMatchObject({ list: "ftm", class: "pep", verdict: "pep" });
    expect(tax.verdict).toBe("review");
    expect(tax.candidates[0]).toMatchObject({ list: "sat-69b", class: "tax", verdict: "review" });
    expect(tax.candidates[0].notes).toContain("SAT 69-B situation: Definitivo");
    expect(lpb.verdict).toBe("match");
    expect(lpb.candidates[0]).toMatchObject({ list: "mx-lpb", class: "sanctions", verdict: "match" });
    expect(nobody.verdict).toBe("clear");
  });

  it("a monitored client who is a PEP: an alert of level `pep` (no MX-LPB, no deadline), and a directivo's approval recorded on it once", async () => {
    const registered = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.developer),
      payload: {
        address: "0x00000000000000000000000000000000000f0001",
        chainId: 31337,
        foreign_user_id: "u-pep",
      },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const profiles = new ProfileReader(
      { ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) },
      { ttlMs: 0, failureBackoffMs: 0 },
    );
    const run = await rescreenClients(
      svc.database.db,
      new Screener(svc.database.db),
      100,
      () => new Date(),
      (p, u) => profiles.read(p, u),
    );
    expect(run).toMatchObject({ screened: 1, alerts: 1, failed: [] });
    const list = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/alerts?cause=person_match`,
      headers: auth(svc.project.keys.viewer),
    });
    const [alert] = list.json().data;
    expect(alert).toMatchObject({ level: "pep", deadline: null, approval: null, causeKey: "ftm:mx-pep-1" });
    expect(alert.reason).toMatch(/politically exposed person .*directivo's approval/);
    const approve = (body: Record<string, unknown>) =>
      svc.app!.inject({
        method: "PATCH",
        url: `/v1/projects/${svc.project.id}/alerts/${alert.id}`,
        headers: auth(svc.project.keys.officer),
        payload: body,
      });
    const approved = await approve({
      approval: { by: "Directora de Cumplimiento, L. Robles" },
      note: "EDD file 77",
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data.approval).toMatchObject({
      by: "Directora de Cumplimiento, L. Robles",
      recordedBy: expect.stringMatching(/^key:/),
      note: "EDD file 77",
    });
    expect(approved.json().data.history.at(-1).change.approval.by).toBe(
      "Directora de Cumplimiento, L. Robles",
    );
    const again = await approve({ approval: { by: "Someone else" } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/recorded already \(by Directora de Cumplimiento/);
  });

  it("a project's LPB is its own: another project's screening neither reads it nor lists it", async () => {
    const other = await svc.app!.inject({
      method: "POST",
      url: "/v1/screening/persons",
      headers: auth(svc.other.keys.admin),
      payload: { persons: [{ name: "Anacleto Valdivia Ugalde", birthdate: "1960-01-01" }] },
    });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().data.results[0]).toMatchObject({ verdict: "clear", candidates: [] });
    expect(
      other
        .json()
        .data.results[0].lists.map((l: { kind: string }) => l.kind)
        .sort(),
    ).toEqual(["ftm", "sat-69b"]);
    const lists = await svc.app!.inject({ url: "/v1/screening/lists", headers: auth(svc.other.keys.admin) });
    expect(
      lists
        .json()
        .data.lists.map((l: { kind: string }) => l.kind)
        .sort(),
    ).toEqual(["ftm", "sat-69b"]);
    const own = await svc.app!.inject({ url: "/v1/screening/lists", headers: auth(svc.project.keys.viewer) });
    expect(
      own
        .json()
        .data.lists.map((l: { kind: string }) => l.kind)
        .sort(),
    ).toEqual(["ftm", "mx-lpb", "sat-69b"]);
  });
});
