// User ids of any reasonable form through a month of Mexican reports, on the real service (PGlite, or PostgreSQL
// with DATABASE_URL): a UUID whose address is registered without chainId (watched on every chain: a transfer on
// each of two chains), a 255-character id with a slash, dots, a pipe and letters outside ASCII, and a short e-mail
// address. Each transfer is an aviso by amount (MX-AVISO); the month's AVI files are generated through the API and
// validated against the XSD. Each file is named by the user's documented stem (the UUID as it is, the short id
// spelled in hex, the long one by its digest), its `id_usuario` is the documented code (H- and 28 base32
// characters of the id's SHA-256), and every API answer (the address list, the report list and its search, the
// notifications) gives the ids back exactly as registered.

import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVM_CODEC } from "../../src/chains/address/index.ts";
import { ProfileReader } from "../../src/integrator/index.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { MonitoredChain } from "../support/monitored-chain.ts";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";
import { addr, type Integrator, MX_ENTITY, PROFILES, startIntegrator } from "./scenario.ts";

const UUID = "3f2a9c41-7d4b-4c8a-9e16-8b0d5f2a6c71";
const LONG = `clientes/México|ÑANDÚ.ü ${"ñ".repeat(120)}`.padEnd(255, "9");
const EMAIL = "ana.maría@example.com";
const ETH = 10n ** 18n;
// The chains are followed (they have an rpc_url) but no indexer runs: the test writes their blocks itself.
const CHAINS = [31337, 137];
const NOWHERE = "http://127.0.0.1:9";

const now = Date.parse("2026-04-02T12:00:00Z");
let svc: TestService;
let integrator: Integrator;
const sent: Record<string, { chainId: number; txHash: string }[]> = { [UUID]: [], [LONG]: [], [EMAIL]: [] };

/** The documented codes, computed here from their definitions (docs/decisions/0026). */
const sha256 = (id: string) => crypto.createHash("sha256").update(id, "utf8").digest();
function aviCode(id: string): string {
  const bits = [...sha256(id)].map((b) => b.toString(2).padStart(8, "0")).join("");
  const chars = [...bits.slice(0, 140).matchAll(/.{5}/g)].map(
    ([five]) => "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"[Number.parseInt(five, 2)],
  );
  return `H-${chars.join("")}`;
}
const NAMES: Record<string, string> = {
  [UUID]: `${UUID}.xml`,
  [EMAIL]: `u.${Buffer.from(EMAIL, "utf8").toString("hex")}.xml`,
  [LONG]: `h.${sha256(LONG).toString("hex").slice(0, 32)}.xml`,
};

beforeAll(async () => {
  const profile = PROFILES["u-big"];
  integrator = await startIntegrator({ [UUID]: profile, [LONG]: profile, [EMAIL]: profile });
  svc = await startTestService({
    env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true", VIGIA_PUBLIC_URL: "https://vigia.example" },
    chains: LOCAL_CHAINS.map((c) => (CHAINS.includes(c.id) ? { ...c, rpc_url: NOWHERE } : c)),
    service: { clock: () => now },
  });
  const db = svc.database.db;
  const days = ["2026-03-05", "2026-03-06", "2026-03-10", "2026-03-12"];
  await db
    .insertInto("prices")
    .values(
      CHAINS.flatMap((chain_id) =>
        days.map((day) => ({ chain_id, token: "native", day, price_usd: "1000" })),
      ),
    )
    .execute();
  await db
    .insertInto("fx_rates")
    .values(days.map((day) => ({ day, currency: "MXN", per_usd: "20" })))
    .execute();
  const patch = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: {
      integration_url: integrator.url,
      jurisdictions: ["MX"],
      jurisdiction_settings: { MX: MX_ENTITY },
    },
  });
  expect(patch.statusCode).toBe(200);

  // Each chain indexed once before the registrations: their transfers count from the next block on.
  const chains = Object.fromEntries(CHAINS.map((id) => [id, new MonitoredChain(db, id)]));
  for (const id of CHAINS) await chains[id]!.block(new Date("2026-03-01T00:00:00Z"), []);
  const registrations = [
    { address: addr(1), foreign_user_id: UUID, description: "sin chainId: todas las cadenas" },
    { address: addr(2), chainId: 31337, foreign_user_id: LONG },
    { address: addr(3), chainId: "137", foreign_user_id: EMAIL },
  ];
  for (const payload of registrations) {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.developer),
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  // 2 ETH (USD 2,000, MXN 40,000 at 20 per dollar): over 210 UMA (MXN 24,635.10 in 2026), an aviso each.
  const receive = async (chainId: number, at: string, to: number, user: string) => {
    const chain = chains[chainId]!;
    await chain.block(new Date(at), [{ from: addr(0x90 + to), to: addr(to), value: 2n * ETH }]);
    sent[user]!.push({ chainId, txHash: `0x${(chain.head * 100).toString(16).padStart(64, "d")}` });
  };
  await receive(31337, "2026-03-05T18:00:00Z", 1, UUID);
  await receive(137, "2026-03-06T18:00:00Z", 1, UUID);
  await receive(31337, "2026-03-10T18:00:00Z", 2, LONG);
  await receive(137, "2026-03-12T18:00:00Z", 3, EMAIL);

  const checker = new TransferChecker({
    db,
    registry: {
      get: (id: number) =>
        CHAINS.includes(id) ? { id, currency_symbol: "ETH", currency_decimals: 18 } : undefined,
      codec: () => EVM_CODEC,
    } as never,
    profiles: new ProfileReader({ ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) }),
    now: svc.reports.now,
  });
  while ((await checker.runOnce()) > 0) {}
}, 60_000);
afterAll(async () => {
  await svc?.stop();
  await integrator?.close();
});

const get = (url: string) => svc.app!.inject({ url, headers: auth(svc.project.keys.admin) });

async function download(path: string): Promise<string> {
  const res = await get(`/v1/reports/download?path=${encodeURIComponent(path)}`);
  expect(res.statusCode).toBe(200);
  const url = new URL(res.json().data.signedUrl);
  const file = await svc.app!.inject({ url: `${url.pathname}${url.search}` });
  expect(file.statusCode).toBe(200);
  return file.body;
}

describe("user ids of any reasonable form in Mexico's monthly report", () => {
  it("writes each user's AVI under its documented name and id_usuario, valid against the XSD", async () => {
    const res = await svc.app!.inject({
      method: "POST",
      url: "/v1/reports/generate",
      headers: auth(svc.project.keys.admin),
      payload: { projectId: svc.project.id, countryCode: "MX", period: "2026-03" },
    });
    expect(res.statusCode, res.body).toBe(200);
    const generation = res.json().data;
    // No problem: every file passed the XSD (id_usuario is [A-Z\d\-_]{1,30}) before it was stored.
    expect(generation.problems).toEqual([]);
    expect(generation.files.map((f: { name: string }) => f.name).sort()).toEqual(Object.values(NAMES).sort());

    for (const [user, name] of Object.entries(NAMES)) {
      const xml = await download(`mx/${svc.project.id}/2026-03/${name}`);
      expect(xml).toContain(`<id_usuario>${aviCode(user)}</id_usuario>`);
      expect(aviCode(user)).toMatch(/^[A-Z\d\-_]{1,30}$/);
      // The id as given appears nowhere in the file.
      expect(xml).not.toContain(user);
      // One aviso per transfer, on whichever chain it was.
      expect(xml.match(/<aviso>/g)).toHaveLength(sent[user]!.length);
      for (const t of sent[user]!)
        expect(xml).toContain(`<hash_operacion>${t.txHash.toUpperCase()}</hash_operacion>`);
    }
  });

  it("lists the files with the ids as registered, and finds them by user id", async () => {
    const listed = (await get(`/v1/reports?projectId=${svc.project.id}&countryCode=MX&period=2026-03`)).json()
      .data;
    expect(listed.map((r: { name: string; userId: string }) => [r.name, r.userId]).sort()).toEqual(
      Object.entries(NAMES)
        .map(([user, name]) => [name, user])
        .sort(),
    );
    const search = encodeURIComponent(LONG.slice(0, 40));
    const found = (
      await get(`/v1/reports?projectId=${svc.project.id}&countryCode=MX&period=2026-03&search=${search}`)
    ).json().data;
    expect(found.map((r: { userId: string }) => r.userId)).toEqual([LONG]);
  });

  it("answers the ids as registered in the address list and in every notification, each naming its chain", async () => {
    const addresses = (await get(`/v1/projects/${svc.project.id}/addresses`)).json().data;
    expect(
      addresses.map((a: { foreign_user_id: string; chain_id: number | null; chains: number[] }) => [
        a.foreign_user_id,
        a.chain_id,
        a.chains,
      ]),
    ).toEqual([
      [UUID, null, [137, 31337]],
      [LONG, 31337, [31337]],
      [EMAIL, 137, [137]],
    ]);
    const notifications = (await get(`/v1/projects/${svc.project.id}/notifications?limit=100`)).json()
      .data as {
      body: { type: string; data: { chainId: number; txHash: string; address: { userId: string } } };
    }[];
    const told = notifications
      .filter((n) => n.body.type === "notification")
      .map((n) => [n.body.data.address.userId, n.body.data.chainId, n.body.data.txHash]);
    const expected = Object.entries(sent).flatMap(([user, transfers]) =>
      transfers.map((t) => [user, t.chainId, t.txHash]),
    );
    expect(told.sort()).toEqual(expected.sort());
    // No profile problem: each profile was read by the id as registered.
    expect(notifications.filter((n) => n.body.type === "error")).toEqual([]);
  });
});
