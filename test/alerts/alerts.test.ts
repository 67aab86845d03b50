// Alerts raised by the monitoring and triaged through the API (docs/api.md, "Alerts"): a transfer that infringes an
// `illegal` rule raises one alert per rule and address, a `warn` rule only when the project lists it; a second
// occurrence joins the open alert's evidence; Mexico's 24-hour aviso carries its deadline and becomes overdue; every
// transition the desk may make, and those it may not (409 naming the allowed ones); resolutions, references,
// assignees and notes, each kept in the history with who and when, bounded (4,000 characters) and rendered as text in
// the evidence packs however they are marked up; /metrics counts open and overdue alerts; viewers
// read, officers triage (a developer may not: 403 naming the role). Transfers are
// written as the indexer writes them and checked by the real checker, with the user's profile read from a real
// integrator on 127.0.0.1. PGlite, or PostgreSQL with DATABASE_URL.

import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import MarkdownIt from "markdown-it";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVM_CODEC } from "../../src/chains/address/index.ts";
import { ProfileReader } from "../../src/integrator/index.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { labelSanctioned } from "../support/ledger.ts";
import { MonitoredChain, type NativeTransfer } from "../support/monitored-chain.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const CHAIN = 31337;
const DAY = "2026-03-10";
const T0 = Date.parse(`${DAY}T10:00:00Z`) / 1000;
const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;
const SANCTIONED = addr(0x5a);
const ETH = 10n ** 18n; // USD 3,000 on the day
const HOUR = 3_600_000;

const profiles: Record<string, unknown> = {
  mario: {
    givenName: "MARIO",
    paternalSurname: "LOPEZ",
    maternalSurname: "RUIZ",
    birthdate: "1990-01-02",
    nationality: "MX",
    address: { country: "MX", colonia: "Centro", street: "Madero", exteriorNumber: "5", postalCode: "06000" },
    mexico: {
      curp: "LORM900102HDFPZR01",
      actividadEconomica: 6120001,
      documentoIdentificacion: { tipoIdentificacion: 1, numeroIdentificacion: "IDMEX1" },
    },
  },
  alice: {
    givenName: "ALICIA",
    paternalSurname: "GOMEZ",
    maternalSurname: "PARRA",
    nationality: "CO",
    address: { country: "CO", city: "Bogotá" },
    colombia: { tipoIdentificacion: "13", numeroIdentificacion: "1020304050" },
  },
};

// The service's clock and the checker's: the detection time of each alert, and "now" for overdue deadlines.
let clock = Date.parse("2026-03-10T12:00:00Z");
let svc: TestService;
let integrator: http.Server;
let chain: MonitoredChain;
const index = (transfers: NativeTransfer[]) =>
  chain.block(new Date((T0 + (chain.head + 1) * 12) * 1000), transfers);

beforeAll(async () => {
  integrator = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
      const body = user ? profiles[user] : undefined;
      if (user && body) res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      else res.writeHead(user ? 404 : 200).end();
    });
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  svc = await startTestService({
    env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" },
    service: { clock: () => clock },
  });
  chain = new MonitoredChain(svc.database.db, CHAIN);
  const db = svc.database.db;
  await db
    .insertInto("prices")
    .values({ chain_id: CHAIN, token: "native", day: DAY, price_usd: "3000" })
    .execute();
  await db.insertInto("fx_rates").values({ day: "2026-03-09", currency: "MXN", per_usd: "20" }).execute();
  await labelSanctioned(db, SANCTIONED);
  const patch = await api("PATCH", `/v1/projects/${svc.project.id}`, svc.project.keys.admin, {
    integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
    jurisdictions: ["MX", "CO"],
  });
  expect(patch.statusCode).toBe(200);
  await index([]);
  for (const [i, user] of [
    [1, "alice"],
    [2, "alice"],
    [5, "mario"],
  ] as const) {
    const res = await api("POST", `/v1/projects/${svc.project.id}/addresses`, svc.project.keys.developer, {
      address: addr(i),
      chainId: CHAIN,
      foreign_user_id: user,
    });
    expect(res.statusCode).toBe(201);
  }
});
afterAll(async () => {
  await svc?.stop();
  integrator.closeAllConnections();
  await new Promise((resolve) => integrator.close(resolve));
});

function api(method: "GET" | "PATCH" | "POST", url: string, key: string, payload?: unknown) {
  return svc.app!.inject({ method, url, headers: auth(key), ...(payload ? { payload } : {}) });
}
const checkAll = async () => {
  const c = new TransferChecker({
    db: svc.database.db,
    registry: {
      get: (id: number) => (id === CHAIN ? { id, currency_symbol: "ETH", currency_decimals: 18 } : undefined),
      codec: () => EVM_CODEC,
    } as never,
    profiles: new ProfileReader({ ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) }),
    slots: 1,
    now: () => clock,
  });
  while ((await c.runOnce()) > 0);
};
interface Alert {
  id: string;
  subject: { address: string; userId: string | null; chainId: number; addressId: string | null };
  cause: string;
  causeKey: string;
  level: string;
  reason: string;
  status: string;
  resolution: string | null;
  reference: string | null;
  assignee: string | null;
  evidence: {
    transfers: { txHash: string; usd: number | null; direction: string }[];
    laws: { id: string }[];
  };
  deadline: { at: string; filing: string; source: string; overdue: boolean } | null;
  links: { notificationId: string | null; address: string | null };
  history?: { at: string; actor: string; change: Record<string, unknown> }[];
}
const base = () => `/v1/projects/${svc.project.id}/alerts`;
async function list(query = ""): Promise<Alert[]> {
  const res = await api("GET", `${base()}${query}`, svc.project.keys.viewer);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}
async function one(id: string): Promise<Alert> {
  const res = await api("GET", `${base()}/${id}`, svc.project.keys.viewer);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}
const triage = (id: string, body: unknown, key = svc.project.keys.officer) =>
  api("PATCH", `${base()}/${id}`, key, body);
const byRule = async (rule: string, status = "") =>
  (await list(`?cause=law&limit=100${status}`)).filter((a) => a.causeKey === rule);

describe("alerts from monitored transfers", () => {
  it("refuses a warn-rule setting that names no warn rule, listing the warn rules", async () => {
    const res = await api("PATCH", `/v1/projects/${svc.project.id}`, svc.project.keys.admin, {
      alert_warn_rules: ["MX-24H-LISTA", "NO-SUCH-RULE"],
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toMatch(/not a `warn` rule: MX-24H-LISTA, NO-SUCH-RULE.*CO-TX-150/);
    const ok = await api("PATCH", `/v1/projects/${svc.project.id}`, svc.project.keys.admin, {
      alert_warn_rules: ["CO-TX-150"],
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.alert_warn_rules).toEqual(["CO-TX-150"]);
  });

  it("a sanctioned counterparty raises one alert per illegal rule, with Mexico's 24-hour deadline", async () => {
    const [tx] = await index([{ from: SANCTIONED, to: addr(5), value: ETH / 1000n }]); // USD 3 to mario
    await checkAll();
    const alerts = await list();
    expect(alerts.map((a) => a.causeKey).sort()).toEqual(["MX-24H-LISTA", "XB-OFAC"]);
    const [aviso] = await byRule("MX-24H-LISTA");
    expect(aviso).toMatchObject({
      subject: { address: addr(5), userId: "mario", chainId: CHAIN },
      cause: "law",
      level: "illegal",
      status: "open",
      evidence: {
        transfers: [{ txHash: tx, usd: 3, direction: "in" }],
        laws: [{ id: "MX-24H-LISTA" }],
      },
      deadline: { at: new Date(clock + 24 * HOUR).toISOString(), filing: "MX-URGENT", overdue: false },
    });
    expect(aviso!.reason).toContain(tx);
    expect(aviso!.links.notificationId).toMatch(/^\d+$/);
    expect(aviso!.links.address).toMatch(new RegExp(`/v1/projects/${svc.project.id}/addresses/\\d+$`));
    const [ofac] = await byRule("XB-OFAC");
    expect(ofac!.deadline).toBeNull(); // the international rules make no filing of their own
  });

  it("a second occurrence joins the open alert's evidence, once however often it is checked", async () => {
    clock += HOUR;
    const [tx2] = await index([{ from: SANCTIONED, to: addr(5), value: ETH / 500n }]);
    await checkAll();
    await checkAll();
    const aviso = await one((await byRule("MX-24H-LISTA"))[0]!.id);
    expect(await byRule("MX-24H-LISTA")).toHaveLength(1);
    expect(aviso.evidence.transfers.map((t) => t.txHash).at(-1)).toBe(tx2);
    expect(aviso.evidence.transfers).toHaveLength(2);
    expect(aviso.history!.map((h) => [h.actor, h.change.event])).toEqual([
      ["system", "raised"],
      ["system", "evidence_added"],
    ]);
    // the deadline stays the first occurrence's
    expect(aviso.deadline!.at).toBe(new Date(clock - HOUR + 24 * HOUR).toISOString());
  });

  it("a listed warn rule raises an alert; an unlisted one does not", async () => {
    await index([{ from: addr(1), to: addr(0x98), value: (6n * ETH) / 100n }]); // USD 180 out of alice's first
    await index([{ from: addr(0x97), to: addr(2), value: ETH / 10n }]); // USD 300: CO-TX-150 and CO-TX-450
    await checkAll();
    const listed = await byRule("CO-TX-150");
    expect(listed.map((a) => a.subject.address).sort()).toEqual([addr(1), addr(2)]);
    expect(listed.every((a) => a.level === "warn" && a.subject.userId === "alice")).toBe(true);
    // Colombia's monthly report of March 2026 is what is due
    expect(listed[0]!.deadline).toMatchObject({ filing: expect.stringMatching(/^CO-/), overdue: false });
    expect(await byRule("CO-TX-450")).toEqual([]);
  });

  it("lists newest first, filtered by status, level, cause and assignee, with limit and offset", async () => {
    const all = await list("?limit=100");
    expect(all.map((a) => Number(a.id))).toEqual([...all.map((a) => Number(a.id))].sort((a, b) => b - a));
    expect((await list("?level=warn")).every((a) => a.level === "warn")).toBe(true);
    expect(await list("?level=illegal")).toHaveLength(2);
    expect(await list("?limit=1&offset=1")).toEqual([all[1]]);
    expect(await list("?status=closed")).toEqual([]);
    expect(await list("?cause=rescreen")).toEqual([]);
    const bad = await api("GET", `${base()}?status=done`, svc.project.keys.viewer);
    expect(bad.statusCode).toBe(400);
  });
});

describe("triage", () => {
  it("moves an alert through every state with its history of who and when", async () => {
    const id = (await byRule("XB-OFAC"))[0]!.id;
    const steps: [unknown, string][] = [
      [{ status: "in_review", assignee: "dev" }, "in_review"],
      [{ status: "open" }, "open"],
      [
        { status: "escalated", note: "Counterparty is on the SDN list; escalating to the officer." },
        "escalated",
      ],
      [{ status: "in_review" }, "in_review"],
      [{ status: "escalated" }, "escalated"],
      [{ status: "closed", resolution: "reported", reference: "UIF-24H-2026-0001" }, "closed"],
    ];
    for (const [body, status] of steps) {
      clock += 60_000;
      const res = await triage(id, body);
      expect(res.statusCode, JSON.stringify(res.json())).toBe(200);
      expect(res.json().data.status).toBe(status);
    }
    const closed = await one(id);
    expect(closed).toMatchObject({
      status: "closed",
      resolution: "reported",
      reference: "UIF-24H-2026-0001",
    });
    expect(closed.assignee).toBe("dev");
    const history = closed.history!.filter((h) => h.actor !== "system"); // after `raised`, `evidence_added`
    expect(history.map((h) => h.change.status)).toEqual([
      { from: "open", to: "in_review" },
      { from: "in_review", to: "open" },
      { from: "open", to: "escalated" },
      { from: "escalated", to: "in_review" },
      { from: "in_review", to: "escalated" },
      { from: "escalated", to: "closed" },
    ]);
    expect(history[0]!.change.assignee).toEqual({ from: null, to: "dev" });
    expect(history[2]!.change.note).toMatch(/SDN list/);
    expect(history.at(-1)!.change).toMatchObject({ resolution: "reported", reference: "UIF-24H-2026-0001" });
    expect(history.every((h) => /^key:\d+$/.test(h.actor))).toBe(true);
    expect(history.map((h) => Date.parse(h.at))).toEqual(
      steps.map((_, i) => clock - (steps.length - 1 - i) * 60_000),
    );
  });

  it("refuses a transition that is not allowed, naming the allowed ones", async () => {
    const id = (await byRule("CO-TX-150"))[0]!.id;
    expect((await triage(id, { status: "escalated" })).statusCode).toBe(200);
    const res = await triage(id, { status: "open" });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/`escalated` cannot become `open`.*`in_review`, `closed`/);
    const closedId = (await list("?status=closed"))[0]!.id;
    const reopen = await triage(closedId, { status: "in_review" });
    expect(reopen.statusCode).toBe(409);
    expect(reopen.json().message).toMatch(/a closed alert stays closed/);
  });

  it("closing needs a resolution, and `reported` its reference; a resolution only comes with closing", async () => {
    const id = (await byRule("CO-TX-150"))[1]!.id;
    const cases: [unknown, RegExp][] = [
      [{ status: "closed" }, /closing an alert needs a resolution/],
      [{ status: "closed", resolution: "reported" }, /needs the filing's folio or reference/],
      [{ resolution: "no_action" }, /given when the alert is closed/],
      [{ status: "closed", resolution: "maybe" }, /resolution/],
      [{}, /./],
      [{ colour: "red" }, /./],
    ];
    for (const [body, message] of cases) {
      const res = await triage(id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.json())).toMatch(message);
    }
    expect((await one(id)).status).not.toBe("closed");
    const ok = await triage(id, {
      status: "closed",
      resolution: "false_positive",
      note: "Salary from employer.",
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ status: "closed", resolution: "false_positive", reference: null });
  });

  it("a note on a closed alert is kept; the assignee must be a label of an active key", async () => {
    const id = (await list("?status=closed&level=warn"))[0]!.id;
    const note = await triage(id, { note: "Customer sent payslips on 2026-03-12." });
    expect(note.statusCode).toBe(200);
    expect(note.json().data.history.at(-1).change).toEqual({ note: "Customer sent payslips on 2026-03-12." });
    const nobody = await triage(id, { assignee: "nobody" });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().details[0]).toEqual({
      path: "/assignee",
      message: 'no key of this project that is not revoked has the label "nobody"',
    });
    const viewer = await triage(id, { assignee: "viewer" });
    expect(viewer.statusCode).toBe(200);
    expect(await list("?assignee=viewer")).toEqual([expect.objectContaining({ id })]);
    const unassigned = await triage(id, { assignee: null });
    expect(unassigned.json().data.assignee).toBeNull();
  });

  it("a closed alert's subject and cause met again opens a new alert", async () => {
    const before = await byRule("XB-OFAC");
    expect(before.map((a) => a.status)).toEqual(["closed"]);
    await index([{ from: addr(5), to: SANCTIONED, value: ETH / 1000n }]); // mario pays the listed address
    await checkAll();
    const after = await byRule("XB-OFAC");
    expect(after.map((a) => a.status)).toEqual(["open", "closed"]);
    expect(after[0]!.evidence.transfers[0]!.direction).toBe("out");
    expect(await byRule("MX-24H-LISTA")).toHaveLength(1); // still open: the transfer joined it
  });

  it("a deadline passed is overdue until the alert is closed", async () => {
    const id = (await byRule("MX-24H-LISTA"))[0]!.id;
    const due = Date.parse((await one(id)).deadline!.at);
    clock = due + 1;
    expect((await one(id)).deadline!.overdue).toBe(true);
    // /metrics counts what is not closed, by level, and what is overdue
    const metrics = (await api("GET", "/metrics", svc.project.keys.admin)).body;
    const sample = (name: string, level: string) =>
      Number(new RegExp(`^${name}\\{level="${level}"\\} (\\d+)$`, "m").exec(metrics)?.[1]);
    expect(sample("vigia_alerts_open", "illegal")).toBe(2); // this 24-hour aviso, and the new OFAC alert
    expect(sample("vigia_alerts_open", "warn")).toBe(1); // the escalated CO-TX-150
    expect(sample("vigia_alerts_overdue", "illegal")).toBe(1);
    expect(sample("vigia_alerts_overdue", "warn")).toBe(0);
    await triage(id, { status: "closed", resolution: "reported", reference: "UIF-24H-2026-0002" });
    expect((await one(id)).deadline!.overdue).toBe(false);
  });

  it("the evidence pack: the same bytes for the same alert, its SHA-256 in a header and in the history", async () => {
    const id = (await byRule("MX-24H-LISTA"))[0]!.id;
    const url = `${base()}/${id}/evidence`;
    const first = await api("GET", `${url}?format=json`, svc.project.keys.viewer);
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-type"]).toMatch(/^application\/json/);
    expect(first.headers["content-disposition"]).toBe(`attachment; filename="alert-${id}-evidence.json"`);
    const sha = createHash("sha256").update(first.rawPayload).digest("hex");
    expect(first.headers["x-evidence-sha256"]).toBe(sha);
    clock += 60_000;
    const again = await api("GET", url, svc.project.keys.developer); // json is the default
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const pack = first.json();
    expect(pack).toMatchObject({
      pack: "vigia-alert-evidence/1",
      alert: {
        id,
        cause: "law",
        causeKey: "MX-24H-LISTA",
        level: "illegal",
        status: "closed",
        reference: "UIF-24H-2026-0002",
      },
      laws: [{ id: "MX-24H-LISTA", source: expect.stringMatching(/\S/) }],
      labels: [{ address: SANCTIONED, label: "OFAC SDN test", category: "sanctioned", source: "test" }],
    });
    expect(pack.transfers.length).toBeGreaterThanOrEqual(3);
    expect(pack.history.map((h: { change: { event?: string } }) => h.change.event ?? "triage")).toEqual([
      "raised",
      "evidence_added",
      "evidence_added",
      "triage",
    ]);
    // recorded once, with the file's hash and who asked
    const exported = (await one(id)).history!.filter((h) => h.change.event === "evidence_exported");
    expect(exported).toEqual([
      {
        at: expect.any(String),
        actor: expect.stringMatching(/^key:\d+$/),
        change: { event: "evidence_exported", format: "json", sha256: sha },
        // a key's request with no Accept-Language is answered in English
        text: "The key “viewer” exported its evidence pack (json).",
      },
    ]);
    const md = await api("GET", `${url}?format=md`, svc.project.keys.viewer);
    expect(md.headers["content-type"]).toMatch(/^text\/markdown/);
    expect(md.headers["x-evidence-sha256"]).toBe(createHash("sha256").update(md.rawPayload).digest("hex"));
    expect(md.body).toContain(`# Evidence of alert ${id}`);
    expect(md.body).toContain(pack.transfers[0].txHash);
    expect(md.body).toMatch(/\| `0x0+5a` \| OFAC SDN test \| sanctioned \| test \|/);
    expect(md.body).toContain("UIF-24H-2026-0002");
    expect((await api("GET", `${url}?format=md`, svc.project.keys.viewer)).body).toBe(md.body);
    // a change of the alert is a new pack
    await triage(id, { note: "Aviso acknowledged by the UIF." });
    const changed = await api("GET", url, svc.project.keys.viewer);
    expect(changed.headers["x-evidence-sha256"]).not.toBe(sha);
    expect(changed.json().history.at(-1).change).toEqual({ note: "Aviso acknowledged by the UIF." });
    const bad = await api("GET", `${url}?format=pdf`, svc.project.keys.viewer);
    expect(bad.statusCode).toBe(400);
  });

  it("a note is bounded, and renders as text in every evidence format, whatever markup it carries", async () => {
    const id = (await byRule("MX-24H-LISTA"))[0]!.id;
    const long = await triage(id, { note: "x".repeat(4001) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ error: "invalid_request" });
    expect(long.json().details).toEqual([expect.objectContaining({ path: "/note" })]);
    expect(long.json().details[0].message).toMatch(/4000/);
    const note =
      "<img src=x onerror=alert(1)> [x](javascript:alert(1)) <javascript:alert(2)> ![i](https://evil.example/i.png) " +
      "[r][a\\]b] &lt;b&gt; *em* `code` www.evil.example mail@evil.example https://evil.example/a";
    expect((await triage(id, { note: `${note}\n\n[a\\]b]: javascript:alert(3)` })).statusCode).toBe(200);
    // Markdown: rendered by a CommonMark renderer (raw HTML allowed, bare links found, every scheme linked), the
    // note is text: no tag, no link, no image, no entity decoded; its characters shown as written.
    const md = (await api("GET", `${base()}/${id}/evidence?format=md`, svc.project.keys.viewer)).body;
    const renderer = new MarkdownIt({ html: true, linkify: true });
    renderer.validateLink = () => true;
    const html = renderer.render(md);
    const row = html.split("\n").find((line) => line.includes("onerror")) as string;
    expect(row).toBeDefined();
    expect(row).not.toMatch(/<img|<a |<em>|<code>|<script/i);
    expect(row).toContain("&lt;img src=x onerror=alert(1)&gt; [x](javascript:alert(1))");
    expect(row).toContain(
      "&amp;lt;b&amp;gt; *em* `code` www.evil.example mail@evil.example https://evil.example/a",
    );
    expect(html).not.toMatch(/<img|href="javascript|href="https:\/\/evil/i);
    // JSON: the same note, read back exactly, with no `<` in the file.
    const json = await api("GET", `${base()}/${id}/evidence?format=json`, svc.project.keys.viewer);
    expect(json.body).not.toMatch(/[<>]/);
    expect(json.json().history.at(-1).change.note).toBe(`${note}\n\n[a\\]b]: javascript:alert(3)`);
  });

  it("viewers read, officers triage; another project sees none of them", async () => {
    const id = (await list())[0]!.id;
    expect((await triage(id, { note: "x" }, svc.project.keys.viewer)).statusCode).toBe(403);
    const developer = await triage(id, { note: "x" }, svc.project.keys.developer);
    expect(developer.statusCode).toBe(403);
    expect(developer.json().message).toBe(
      "Forbidden: this action needs a key of role officer or above; this key's role is developer",
    );
    const other = await api("GET", `/v1/projects/${svc.other.id}/alerts`, svc.other.keys.admin);
    expect(other.statusCode).toBe(200);
    expect(other.json().data).toEqual([]);
    const foreign = await api("GET", `/v1/projects/${svc.other.id}/alerts/${id}`, svc.other.keys.admin);
    expect(foreign.statusCode).toBe(404);
    const cross = await api("GET", `${base()}/${id}`, svc.other.keys.admin);
    expect([403, 404]).toContain(cross.statusCode);
  });
});
