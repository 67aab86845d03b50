// One project's slow integrator never delays another's alerts. The real service with its workers follows a real
// anvil chain; project A's integrator, a real HTTP server on 127.0.0.1, answers at once. Three hostile tenants
// register 8 users each, every one of whom receives a transfer over Colombia's USD 150: B1's integrator accepts
// connections and never answers, B2's answers after 9 s, B3's name never resolves (through an injected resolver).
// A's next transfer is notified within 5 s of its block, with one worker and with two; and the hostile tenants'
// transfers are still judged, each with its law and an error naming the profile that could not be read.
// PGlite, or PostgreSQL with DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotificationDeliverer, ProfileReader } from "../../src/integrator/index.ts";
import { createProject } from "../../src/keys/index.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient, type ResolvedAddress } from "../../src/platform/outbound/index.ts";
import { updateProject } from "../../src/projects/index.ts";
import { Anvil } from "../indexer/support/anvil.ts";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";

const CHAIN = 31337;
const USERS_PER_TENANT = 8;
const CLIENT = {
  givenName: "ANA",
  paternalSurname: "LOPEZ",
  address: { country: "CO" },
  colombia: { tipoIdentificacion: "13", numeroIdentificacion: "1020304050" },
};
/** The name B3's integrator is at: the injected resolver never answers for it. */
const NEVER_RESOLVES = "integrator.never-resolves.test";

let anvil: Anvil;
let svc: TestService;
let sender: string;
const servers: http.Server[] = [];
/** A's webhooks by transaction hash, with when each arrived */
const arrivals = new Map<string, number>();
let aKey: string;
let aProject: number;
const tenants: { name: string; projectId: number; key: string; url: string }[] = [];

async function server(handler: http.RequestListener): Promise<string> {
  const s = http.createServer(handler);
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

/** Reads the whole request, then answers as `answer` says (or never). */
const answering =
  (
    answer: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void,
  ): http.RequestListener =>
  (req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => answer(req, body, res));
  };

const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
  if (hostname === NEVER_RESOLVES) return new Promise(() => {});
  return [{ address: "127.0.0.1", family: 4 }];
};

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const randomAddress = () =>
  `0x${Array.from({ length: 40 }, () => Math.floor(Math.random() * 16).toString(16)).join("")}`;

async function register(projectId: number, key: string, address: string, user: string) {
  const res = await svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${projectId}/addresses`,
    headers: auth(key),
    payload: { address, chainId: CHAIN, foreign_user_id: user },
  });
  expect(res.statusCode, res.body).toBe(201);
}

/** Sends 0.1 ETH (USD 300, over Colombia's USD 150) to `to`; anvil mines it in its own block at once. */
const send = (to: string) =>
  anvil.rpc<string>("eth_sendTransaction", [{ from: sender, to, value: `0x${(10n ** 17n).toString(16)}` }]);

beforeAll(async () => {
  anvil = await Anvil.start();
  [sender] = (await anvil.rpc<string[]>("eth_accounts")).map((a) => a.toLowerCase()) as [string];
  const aUrl = await server(
    answering((req, body, res) => {
      if (req.url?.includes("/users/")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(CLIENT));
        return;
      }
      const tx = (JSON.parse(body) as { data?: { txHash?: string } }).data?.txHash;
      if (tx) arrivals.set(tx, Date.now());
      res.writeHead(200).end();
    }),
  );
  const neverAnswers = await server(answering(() => {}));
  const nineSeconds = await server(
    answering((req, _body, res) => {
      setTimeout(() => {
        if (req.url?.includes("/users/"))
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(CLIENT));
        else res.writeHead(200).end();
      }, 9_000);
    }),
  );
  svc = await startTestService({
    env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" },
    chains: [
      ...LOCAL_CHAINS.filter((c) => c.id !== CHAIN),
      { id: CHAIN, name: "anvil", currency_symbol: "ETH", rpc_url: anvil.url, confirmations: 0 },
    ],
    service: { workers: true, outbound: { resolve } },
  });
  const days = [-1, 0, 1].map((d) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10));
  await svc.database.db
    .insertInto("prices")
    .values(days.map((day) => ({ chain_id: CHAIN, token: "native", day, price_usd: "3000" })))
    .execute();
  await until(
    "the indexer's first checkpoint",
    async () =>
      (await svc.database.db.selectFrom("indexer_checkpoints").select("block_number").executeTakeFirst()) ??
      undefined,
  );

  const actor = { kind: "cli" } as const;
  aProject = svc.project.id;
  aKey = svc.project.keys.admin;
  await updateProject(svc.projects, aProject, { integration_url: aUrl, jurisdictions: ["CO"] }, actor);
  const port = new URL(neverAnswers).port;
  for (const [name, url] of [
    ["B1, never answers", neverAnswers],
    ["B2, answers after 9 s", nineSeconds],
    ["B3, a name that never resolves", `http://${NEVER_RESOLVES}:${port}`],
  ] as const) {
    const created = await createProject(svc.keys, { name }, actor);
    await updateProject(
      svc.projects,
      created.projectId,
      { integration_url: url, jurisdictions: ["CO"] },
      actor,
    );
    tenants.push({ name, projectId: created.projectId, key: created.key, url });
  }
}, 120_000);

afterAll(async () => {
  await svc?.stop();
  await anvil?.stop();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** Each hostile tenant's users receive a transfer; then A's; how long A's notification took from its block. */
async function noisyRound(round: string): Promise<{ latencyMs: number; hostile: string[] }> {
  const hostile: string[] = [];
  for (const t of tenants)
    for (let u = 0; u < USERS_PER_TENANT; u++) {
      const address = randomAddress();
      await register(t.projectId, t.key, address, `${round}-u${u}`);
      hostile.push(address);
    }
  const aAddress = randomAddress();
  await register(aProject, aKey, aAddress, `${round}-alice`);
  // The indexer has seen the registrations' head: the transfers below count.
  await new Promise((r) => setTimeout(r, 300));
  for (const address of hostile) await send(address);
  const mined = Date.now();
  const tx = (await send(aAddress)).toLowerCase();
  const arrived = await until("A's notification", async () => arrivals.get(tx), 30_000);
  return { latencyMs: arrived - mined, hostile };
}

/** Waits until every transfer of the hostile tenants is judged; their messages by type. */
async function hostileJudged(count: number) {
  return until(
    "the hostile tenants' transfers judged",
    async () => {
      const rows = await svc.database.db
        .selectFrom("monitored_transfers")
        .select(["status", "laws"])
        .where(
          "project_id",
          "in",
          tenants.map((t) => t.projectId),
        )
        .execute();
      return rows.length >= count && rows.every((r) => r.status === "evaluated") ? rows : undefined;
    },
    90_000,
  );
}

describe("a project's slow integrator delays only itself", () => {
  it("with one worker: another project's notification arrives within 5 s of its block", async () => {
    const { latencyMs } = await noisyRound("one");
    expect(latencyMs, `${latencyMs} ms from the block to the webhook`).toBeLessThanOrEqual(5_000);
    // The hostile tenants' transfers are judged all the same: the law, and an error naming the profile.
    const judged = await hostileJudged(tenants.length * USERS_PER_TENANT);
    expect(judged.every((r) => r.laws?.includes("CO-TX-150"))).toBe(true);
    const errors = await svc.database.db
      .selectFrom("notifications")
      .select(["project_id", "body"])
      .where("type", "=", "error")
      .where(
        "project_id",
        "in",
        tenants.map((t) => t.projectId),
      )
      .execute();
    expect(errors).toHaveLength(tenants.length * USERS_PER_TENANT);
    const reasons = new Map(tenants.map((t) => [t.projectId, new Set<string>()]));
    for (const e of errors)
      reasons
        .get(e.project_id)
        ?.add(/could not be read \(([^)]*)\)/.exec(JSON.parse(e.body).data)?.[1] ?? "");
    for (const t of tenants)
      expect([...(reasons.get(t.projectId) ?? [])].join(), t.name).toMatch(
        t.url.includes(NEVER_RESOLVES)
          ? /did not resolve within 5000 ms/
          : /no complete answer within 5000 ms/,
      );
  }, 180_000);

  it("with two workers: another project's notification arrives within 5 s of its block", async () => {
    // A second worker beside the service's: its own checker, profile reader and deliverer on the same database,
    // as another `vigia worker` process would run them.
    const outbound = new OutboundClient({ allowPrivate: true, resolve });
    const integrator = { ...svc.integrator, outbound };
    const checker = new TransferChecker({
      db: svc.database.db,
      registry: svc.registry,
      profiles: new ProfileReader(integrator),
    });
    const deliverer = new NotificationDeliverer(integrator);
    checker.start();
    deliverer.start();
    try {
      const { latencyMs } = await noisyRound("two");
      expect(latencyMs, `${latencyMs} ms from the block to the webhook`).toBeLessThanOrEqual(5_000);
      await hostileJudged(2 * tenants.length * USERS_PER_TENANT);
    } finally {
      await checker.stop();
      await deliverer.stop();
    }
  }, 180_000);
});
