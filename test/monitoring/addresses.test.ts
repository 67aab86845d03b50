// Monitored addresses through HTTP: register (201, the record with its latest risk), the same address and chain
// twice (409), input the AVI and storage paths could not take (400), unknown chains (404), roles and projects;
// list (paginated, by user), read, and stop (the record is kept and says when; the address can be registered
// again). PGlite in memory, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdTransfer } from "../support/ledger.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const base = (project = svc.project.id) => `/v1/projects/${project}/addresses`;
const register = (payload: object, key = svc.project.keys.developer, project = svc.project.id) =>
  svc.app!.inject({ method: "POST", url: base(project), headers: auth(key), payload });
const get = (url: string, key = svc.project.keys.viewer) =>
  svc.app!.inject({ method: "GET", url, headers: auth(key) });
const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

describe("monitored addresses", () => {
  it("registers an address: 201 with the record, lower-cased, risk null before any scan", async () => {
    const res = await register({
      address: `0x${"AB".repeat(20)}`,
      chainId: "1",
      foreign_user_id: "user-001",
      description: "  main wallet ",
    });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      address: `0x${"ab".repeat(20)}`,
      chain_id: 1,
      foreign_user_id: "user-001",
      description: "main wallet",
      risk: null,
      stopped_at: null,
    });
    expect(Number.isInteger(data.id)).toBe(true);
    expect(Date.parse(data.created_at)).not.toBeNaN();
  });

  it("registers an address under one of the project's jurisdictions, and refuses one it does not enable", async () => {
    const patch = await svc.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${svc.project.id}`,
      headers: auth(svc.project.keys.admin),
      payload: { jurisdictions: ["CO"] },
    });
    expect(patch.statusCode).toBe(200);
    const co = await register({
      address: addr(0xc0),
      chainId: 1,
      foreign_user_id: "u-co",
      jurisdiction: "CO",
    });
    expect(co.statusCode).toBe(201);
    expect(co.json().data.jurisdiction).toBe("CO");
    const mx = await register({
      address: addr(0xc1),
      chainId: 1,
      foreign_user_id: "u-mx",
      jurisdiction: "MX",
    });
    expect(mx.statusCode).toBe(400);
    expect(mx.json().details).toEqual([
      { path: "/jurisdiction", message: "the project does not enable MX (its jurisdictions: CO)" },
    ]);
    expect(
      (await register({ address: addr(0xc2), chainId: 1, foreign_user_id: "u", jurisdiction: "BR" }))
        .statusCode,
    ).toBe(400);
    expect(
      (await register({ address: addr(0xc3), chainId: 1, foreign_user_id: "u" })).json().data.jurisdiction,
    ).toBeNull();
  });

  it("answers 409 for the same address and chain twice, in any case; another chain is another address", async () => {
    expect((await register({ address: addr(1), chainId: 1, foreign_user_id: "u1" })).statusCode).toBe(201);
    const again = await register({
      address: addr(1).toUpperCase().replace("0X", "0x"),
      chainId: "1",
      foreign_user_id: "u2",
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ success: false, error: "conflict" });
    expect((await register({ address: addr(1), chainId: 137, foreign_user_id: "u1" })).statusCode).toBe(201);
  });

  it.each([
    ["a foreign_user_id with a path in it", { address: addr(2), chainId: 1, foreign_user_id: "../etc" }],
    [
      "a foreign_user_id over 30 characters",
      { address: addr(2), chainId: 1, foreign_user_id: "u".repeat(31) },
    ],
    ["a foreign_user_id with a space", { address: addr(2), chainId: 1, foreign_user_id: "a b" }],
    ["an empty foreign_user_id", { address: addr(2), chainId: 1, foreign_user_id: "" }],
    ["no foreign_user_id", { address: addr(2), chainId: 1 }],
    ["a bad address", { address: "0x1234", chainId: 1, foreign_user_id: "u" }],
    [
      "a Bitcoin address",
      { address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", chainId: 1, foreign_user_id: "u" },
    ],
    ["a chainId that is not a number", { address: addr(2), chainId: "one", foreign_user_id: "u" }],
  ])("refuses %s: 400", async (_what, body) => {
    const res = await register(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: "invalid_request" });
  });

  it("an unknown or disabled chain is 404; a viewer may not register (403), nor another project's key", async () => {
    expect((await register({ address: addr(3), chainId: 999999, foreign_user_id: "u" })).statusCode).toBe(
      404,
    );
    expect((await register({ address: addr(3), chainId: 10, foreign_user_id: "u" })).statusCode).toBe(404);
    expect(
      (await register({ address: addr(3), chainId: 1, foreign_user_id: "u" }, svc.project.keys.viewer))
        .statusCode,
    ).toBe(403);
    expect(
      (await register({ address: addr(3), chainId: 1, foreign_user_id: "u" }, svc.other.keys.admin))
        .statusCode,
    ).toBe(403);
  });

  it("lists the project's addresses oldest first, a page at a time and by user", async () => {
    for (let i = 10; i < 15; i++) {
      await register({ address: addr(i), chainId: 1, foreign_user_id: i % 2 ? "odd" : "even" });
    }
    const all = (await get(`${base()}?limit=100`)).json().data as { address: string; id: number }[];
    expect(all.map((a) => a.id)).toEqual([...all.map((a) => a.id)].sort((a, b) => a - b));
    const page = (await get(`${base()}?limit=2&offset=1`)).json().data;
    expect(page.map((a: { id: number }) => a.id)).toEqual(all.slice(1, 3).map((a) => a.id));
    const odd = (await get(`${base()}?foreign_user_id=odd`)).json().data;
    expect(odd.map((a: { address: string }) => a.address)).toEqual([addr(11), addr(13)]);
    expect((await get(`${base()}?foreign_user_id=../x`)).statusCode).toBe(400);
    // Another project sees none of them.
    const other = await get(base(svc.other.id), svc.other.keys.admin);
    expect(other.json().data).toEqual([]);
  });

  it("reads one, with its latest stored scan as its risk", async () => {
    const created = (await register({ address: addr(20), chainId: 1, foreign_user_id: "scanned" })).json()
      .data;
    // The chain holds data of the address (a scan of a chain with none is withheld, not stored as its risk).
    await holdTransfer(svc.database.db, { chainId: 1, from: addr(20), to: addr(21) });
    const scan = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
      headers: auth(svc.project.keys.developer),
      payload: { addresses: [{ address: addr(20), chainId: "1" }], skipExisting: false },
    });
    expect(scan.statusCode).toBe(200);
    const read = (await get(`${base()}/${created.id}`)).json().data;
    expect(read.risk).toMatchObject({ address: addr(20), riskLevel: "minimal" });
    expect(read.risk.analysisId).toBe(scan.json().data.results[0].analysisId);
  });

  it("stops monitoring: the record is kept with stopped_at, leaves the list, and may be registered again", async () => {
    const created = (await register({ address: addr(30), chainId: 1, foreign_user_id: "leaving" })).json()
      .data;
    const stop = await svc.app!.inject({
      method: "DELETE",
      url: `${base()}/${created.id}`,
      headers: auth(svc.project.keys.developer),
    });
    expect(stop.statusCode).toBe(200);
    expect(Date.parse(stop.json().data.stopped_at)).not.toBeNaN();
    const read = (await get(`${base()}/${created.id}`)).json().data;
    expect(read).toMatchObject({ id: created.id, stopped_at: stop.json().data.stopped_at });
    const listed = (await get(`${base()}?foreign_user_id=leaving`)).json().data;
    expect(listed).toEqual([]);
    expect((await register({ address: addr(30), chainId: 1, foreign_user_id: "leaving" })).statusCode).toBe(
      201,
    );
  });

  it("an unknown id is 404, so is another project's; a viewer may not stop monitoring", async () => {
    expect((await get(`${base()}/999999`)).statusCode).toBe(404);
    expect((await get(`${base()}/not-a-number`)).statusCode).toBe(404);
    const mine = (await register({ address: addr(40), chainId: 1, foreign_user_id: "u" })).json().data;
    expect((await get(`${base(svc.other.id)}/${mine.id}`, svc.other.keys.admin)).statusCode).toBe(404);
    const viewer = await svc.app!.inject({
      method: "DELETE",
      url: `${base()}/${mine.id}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(viewer.statusCode).toBe(403);
  });
});
