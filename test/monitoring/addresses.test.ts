// Monitored addresses through HTTP: register (201, the record with its latest risk), on one chain or, without
// `chainId` as the original service's clients send it, on every chain (one record; it and a record of the same
// address on one chain exclude each other: 409 naming the record), the same address and chain twice (409), user ids
// of up to 255 characters kept as given (UUIDs, e-mail addresses, paths) and those with control characters or
// longer refused (400, saying why), unknown chains (404), roles and projects; list (paginated, by user), read,
// change the user and description (PATCH, audited), and stop (the record is kept and says when; the address can be
// registered again). PGlite in memory, or PostgreSQL with DATABASE_URL.
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
const patch = (id: number, payload: object, key = svc.project.keys.developer) =>
  svc.app!.inject({ method: "PATCH", url: `${base()}/${id}`, headers: auth(key), payload });
let next = 0x100;
/** A new address on chain 1, of the user `patch-me`. */
async function created(): Promise<{ id: number; address: string }> {
  const res = await register({ address: addr(next++), chainId: 1, foreign_user_id: "patch-me" });
  expect(res.statusCode).toBe(201);
  return res.json().data;
}

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
    expect((await get(`${base()}?foreign_user_id=${encodeURIComponent("odd\n")}`)).statusCode).toBe(400);
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
  it("registers without chainId, as the original's clients do: one record on every chain, and none beside it on one", async () => {
    const every = await register({
      address: addr(50),
      description: "Wallet principal del usuario",
      foreign_user_id: "user-123",
    });
    expect(every.statusCode, every.body).toBe(201);
    const record = every.json().data;
    // This service follows no chain (no chain has an rpc_url): the record says so.
    expect(record).toMatchObject({
      address: addr(50),
      chain_id: null,
      chains: [],
      foreign_user_id: "user-123",
    });
    expect((await get(`${base()}/${record.id}`)).json().data).toMatchObject({
      chain_id: null,
      balance: null,
    });
    const listed = (await get(`${base()}?foreign_user_id=user-123`)).json().data;
    expect(listed.map((a: { id: number }) => a.id)).toEqual([record.id]);
    // The same address on one chain, or on every chain again: 409 naming the record.
    for (const body of [{ chainId: 1 }, {}, { chainId: null }]) {
      const again = await register({ address: addr(50), foreign_user_id: "other", ...body });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(
        `This address is already monitored on every chain (address id ${record.id}): change it with PATCH or stop it with DELETE /projects/{projectId}/addresses/${record.id} first`,
      );
    }
    // An address on one chain keeps it from every chain; another project may watch it anyhow.
    expect((await register({ address: addr(51), chainId: 137, foreign_user_id: "u" })).statusCode).toBe(201);
    const clash = await register({ address: addr(51), foreign_user_id: "u" });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toMatch(
      /^This address is already monitored on chain 137 \(address id \d+\)/,
    );
    expect(
      (await register({ address: addr(50), foreign_user_id: "u" }, svc.other.keys.admin, svc.other.id))
        .statusCode,
    ).toBe(201);
    // Stopped, it may be registered again, on one chain or on every chain.
    await svc.app!.inject({
      method: "DELETE",
      url: `${base()}/${record.id}`,
      headers: auth(svc.project.keys.developer),
    });
    expect((await register({ address: addr(50), chainId: 1, foreign_user_id: "user-123" })).statusCode).toBe(
      201,
    );
  });

  it("keeps any user id of up to 255 characters exactly as given: UUIDs, e-mail addresses, paths, other scripts", async () => {
    const ids = [
      "3f2a9c41-7d4b-4c8a-9e16-8b0d5f2a6c71",
      "ana.maría@example.com",
      "../../etc/passwd",
      "客户 42 / São Paulo",
      `cliente|${"ñ".repeat(200)}`.padEnd(255, "x"),
    ];
    for (const [i, id] of ids.entries()) {
      const res = await register({ address: addr(60 + i), chainId: 1, foreign_user_id: id });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.foreign_user_id).toBe(id);
      const listed = (await get(`${base()}?foreign_user_id=${encodeURIComponent(id)}`)).json().data;
      expect(listed.map((a: { foreign_user_id: string }) => a.foreign_user_id)).toEqual([id]);
    }
  });

  it.each([
    ["a surrogate's bytes (CESU-8, not UTF-8)", "%ED%A0%80"],
    ["a truncated sequence", "ana%C3"],
    ["a stray percent sign", "100%"],
  ])("refuses a query filter with %s rather than reading another value: 400", async (_what, raw) => {
    const res = await get(`${base()}?foreign_user_id=${raw}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: "invalid_request",
      message: "Invalid query",
      details: [{ path: "/", message: "must be percent-encoded UTF-8 (RFC 3986)" }],
    });
  });

  // NUL and unpaired surrogates are refused by the body's parser, for every field of every body.
  const PARSER = "must not contain NUL characters or unpaired surrogates";
  it.each([
    [
      "a newline",
      "ana\nlopez",
      "/foreign_user_id",
      "must not contain control characters: U+000A at position 4",
    ],
    ["a tab", "\tana", "/foreign_user_id", "must not contain control characters: U+0009 at position 1"],
    [
      "a C1 control (NEL)",
      "ana\u0085",
      "/foreign_user_id",
      "must not contain control characters: U+0085 at position 4",
    ],
    ["256 characters", "u".repeat(256), "/foreign_user_id", "must NOT have more than 255 characters"],
    ["a NUL", "ana\u0000", "/", PARSER],
    ["a lone surrogate", "ana\ud800", "/", PARSER],
  ])("refuses a foreign_user_id with %s: 400 saying why", async (_what, id, path, message) => {
    const res = await register({ address: addr(70), chainId: 1, foreign_user_id: id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: "invalid_request",
      message: "Invalid body",
      details: [{ path, message }],
    });
    const patched = await patch((await created()).id, { foreign_user_id: id });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().details).toEqual([{ path, message }]);
  });

  it("PATCH changes the user and the description, keeps what is not sent, and audits what each field was", async () => {
    const address = await created();
    const renamed = await patch(address.id, {
      foreign_user_id: "8d0e7f6a-1b2c-4d3e-9f40-5a6b7c8d9e0f",
      description: "  cuenta principal ",
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({
      id: address.id,
      address: address.address,
      chain_id: 1,
      chains: [1],
      foreign_user_id: "8d0e7f6a-1b2c-4d3e-9f40-5a6b7c8d9e0f",
      description: "cuenta principal",
    });
    const cleared = await patch(address.id, { description: null });
    expect(cleared.json().data).toMatchObject({
      foreign_user_id: "8d0e7f6a-1b2c-4d3e-9f40-5a6b7c8d9e0f",
      description: null,
    });
    // Nothing sent, or nothing different: the record as it is, and no audit row.
    expect((await patch(address.id, {})).json().data).toEqual(cleared.json().data);
    expect((await patch(address.id, { description: "" })).json().data).toEqual(cleared.json().data);
    expect((await get(`${base()}/${address.id}`)).json().data.foreign_user_id).toBe(
      "8d0e7f6a-1b2c-4d3e-9f40-5a6b7c8d9e0f",
    );
    const audit = (await get(`/v1/projects/${svc.project.id}/audit?limit=100`, svc.project.keys.admin)).json()
      .data as { action: string; target: string; details: unknown; actor: string }[];
    const rows = audit.filter((a) => a.action === "address.updated" && a.target === `address:${address.id}`);
    expect(rows.map((r) => r.details)).toEqual([
      { description: { from: "cuenta principal", to: null } },
      {
        foreign_user_id: { from: "patch-me", to: "8d0e7f6a-1b2c-4d3e-9f40-5a6b7c8d9e0f" },
        description: { from: null, to: "cuenta principal" },
      },
    ]);
    expect(rows[0]?.actor).toMatch(/^key:\d+$/);
  });

  it("PATCH: a viewer may not (403), another project's key may not (403), another project's address is 404; an unknown field is 400", async () => {
    const address = await created();
    expect((await patch(address.id, { description: "x" }, svc.project.keys.viewer)).statusCode).toBe(403);
    expect((await patch(address.id, { description: "x" }, svc.other.keys.admin)).statusCode).toBe(403);
    const other = await svc.app!.inject({
      method: "PATCH",
      url: `${base(svc.other.id)}/${address.id}`,
      headers: auth(svc.other.keys.admin),
      payload: { description: "x" },
    });
    expect(other.statusCode).toBe(404);
    expect((await patch(999999, { description: "x" })).statusCode).toBe(404);
    const moved = await patch(address.id, { chainId: 137 });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().details[0].path).toBe("/chainId");
  });
});
