// Checkers share the pending transfers through leases: two checkers racing over 40 users' 120 transfers judge
// each exactly once and share the work, each user's transfers in order; a project's users checked at once stay
// within its limit across both; a checker killed (SIGKILL) in the middle of its checks leaves its leases to run
// out, and the next one takes its transfers over. Real integrators on 127.0.0.1. PGlite (in memory, and a data
// dir for the kill), or PostgreSQL with DATABASE_URL.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProfileReader } from "../../src/integrator/index.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { updateProject } from "../../src/projects/index.ts";
import { childDatabaseEnv, killChildProcesses, startChildProcess } from "../support/child-process.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { MonitoredChain } from "../support/monitored-chain.ts";
import { startTestService, type TestService, writeChainsFile } from "../support/service.ts";

const CHAIN = 31337;
const DAY = "2026-03-10";
const ETH = 10n ** 18n;
const USERS = 40;
const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;
const CLIENT = {
  givenName: "ANA",
  paternalSurname: "LOPEZ",
  address: { country: "CO" },
  colombia: { tipoIdentificacion: "13", numeroIdentificacion: "1020304050" },
};

/** An integrator on 127.0.0.1: profiles after `delayMs` (or never while `hang`), webhooks at once. */
function integrator(state: { delayMs: number; hang: boolean; profileReads: number }) {
  return http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (!req.url?.includes("/users/")) return void res.writeHead(200).end();
      state.profileReads++;
      if (state.hang) return;
      setTimeout(
        () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(CLIENT)),
        state.delayMs,
      );
    });
  });
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: http.Server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe("two checkers sharing the pending transfers", () => {
  let svc: TestService;
  const state = { delayMs: 20, hang: false, profileReads: 0 };
  const server = integrator(state);

  beforeAll(async () => {
    const url = await listen(server);
    svc = await startTestService();
    await updateProject(
      svc.projects,
      svc.project.id,
      { integration_url: url, jurisdictions: ["CO"] },
      {
        kind: "cli",
      },
    );
    const db = svc.database.db;
    await db
      .insertInto("prices")
      .values({ chain_id: CHAIN, token: "native", day: DAY, price_usd: "3000" })
      .execute();
    const chain = new MonitoredChain(db, CHAIN);
    await chain.block(new Date(`${DAY}T09:00:00Z`), []);
    await db
      .insertInto("monitored_addresses")
      .values(
        Array.from({ length: USERS }, (_, i) => ({
          project_id: svc.project.id,
          chain_id: CHAIN,
          address: addr(i + 1),
          foreign_user_id: `user${i + 1}`,
          watch_from_block: "1",
        })),
      )
      .execute();
    // Three transfers of USD 300 to each user, an hour apart.
    for (const hour of ["10", "11", "12"])
      await chain.block(
        new Date(`${DAY}T${hour}:00:00Z`),
        Array.from({ length: USERS }, (_, i) => ({
          from: addr(0x9000 + i),
          to: addr(i + 1),
          value: ETH / 10n,
        })),
      );
  });
  afterAll(async () => {
    await svc?.stop();
    await close(server);
  });

  it("judges each transfer once, shares the work, keeps each user's order and the project's limit", async () => {
    const checkedBy: string[][] = [[], []];
    let atOnce = 0;
    let mostAtOnce = 0;
    const checker = (n: number) =>
      new TransferChecker({
        db: svc.database.db,
        registry: svc.registry,
        profiles: new ProfileReader(
          { ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) },
          { ttlMs: 0 },
        ),
        slots: 6,
        perProject: 4,
        // Tracks how many users of the project are being checked at once, by both.
        held: async () => {
          atOnce = await svc.database.db
            .selectFrom("monitored_transfers")
            .select((eb) => eb.fn.count<string>("address_id").distinct().as("n"))
            .where("status", "=", "pending")
            .where("lease_until", ">=", new Date())
            .executeTakeFirstOrThrow()
            .then((r) => Number(r.n));
          mostAtOnce = Math.max(mostAtOnce, atOnce);
          return false;
        },
        onChecked: (t) => checkedBy[n]?.push(`${t.addressId}/${t.txHash}`),
      });
    const [a, b] = [checker(0), checker(1)];
    const pending = async () =>
      Number(
        (
          await svc.database.db
            .selectFrom("monitored_transfers")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .where("status", "=", "pending")
            .executeTakeFirstOrThrow()
        ).n,
      );
    // Each runs until nothing is pending: while the other holds a project's slots, it finds nothing and waits.
    const run = async (c: TransferChecker) => {
      while ((await c.runOnce()) > 0 || (await pending()) > 0) await new Promise((r) => setTimeout(r, 5));
    };
    await Promise.all([run(a), run(b)]);

    const all = [...(checkedBy[0] ?? []), ...(checkedBy[1] ?? [])];
    expect(all).toHaveLength(USERS * 3);
    expect(new Set(all).size).toBe(USERS * 3);
    expect(checkedBy[0]?.length).toBeGreaterThan(0);
    expect(checkedBy[1]?.length).toBeGreaterThan(0);
    expect(mostAtOnce).toBeLessThanOrEqual(4);

    const rows = await svc.database.db
      .selectFrom("monitored_transfers")
      .innerJoin("transfers", (j) =>
        j
          .onRef("transfers.chain_id", "=", "monitored_transfers.chain_id")
          .onRef("transfers.tx_hash", "=", "monitored_transfers.tx_hash")
          .onRef("transfers.log_index", "=", "monitored_transfers.log_index"),
      )
      .select([
        "monitored_transfers.address_id",
        "monitored_transfers.status",
        "monitored_transfers.laws",
        "monitored_transfers.evaluated_at",
        "transfers.block_time",
      ])
      .execute();
    expect(rows.every((r) => r.status === "evaluated")).toBe(true);
    // A user's transfers were judged in order (its accumulations read the verdicts of the earlier ones).
    const byUser = new Map<string, typeof rows>();
    for (const r of rows) byUser.set(r.address_id, [...(byUser.get(r.address_id) ?? []), r]);
    for (const list of byUser.values()) {
      list.sort((x, y) => new Date(x.block_time).getTime() - new Date(y.block_time).getTime());
      expect(list[0]?.laws).toEqual(["CO-TX-150"]);
      expect(list[1]?.laws).toContain("CO-TX-450");
      const judged = list.map((r) => new Date(r.evaluated_at as Date).getTime());
      expect([...judged].sort((x, y) => x - y)).toEqual(judged);
    }
    const notifications = await svc.database.db.selectFrom("notifications").select("type").execute();
    expect(notifications).toHaveLength(USERS * 3);
  }, 120_000);
});

describe(`a checker killed mid-check (${onPostgres ? "PostgreSQL" : "PGlite data dir"})`, () => {
  const target = testDatabase();
  const chains = writeChainsFile([{ id: CHAIN, name: "local", currency_symbol: "ETH" }]);
  let dataDir: string | undefined;
  const state = { delayMs: 0, hang: true, profileReads: 0 };
  const server = integrator(state);
  let url: string;

  beforeAll(async () => {
    if (!onPostgres) dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-check-kill-"));
    url = await listen(server);
  });
  afterAll(async () => {
    killChildProcesses();
    await close(server);
    await target.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("has its claims taken over once their leases run out", async () => {
    const child = (env: Record<string, string>) =>
      startChildProcess<{ event: string; evaluated?: number; notifications?: number; checked?: number }>(
        "test/monitoring/support/check-child.ts",
        {
          CHILD_CHAINS: chains,
          CHILD_INTEGRATOR: url,
          CHILD_LEASE_MS: "3000",
          ...childDatabaseEnv(target, dataDir),
          ...env,
        },
      );
    // The first checker claims and hangs on the profile reads (the integrator never answers): killed there.
    const first = child({ CHILD_SETUP: "6" });
    await first.next("checking", 120_000);
    const deadline = Date.now() + 30_000;
    while (state.profileReads === 0) {
      if (Date.now() > deadline) throw new Error("the first checker never read a profile");
      await new Promise((r) => setTimeout(r, 20));
    }
    first.proc.kill("SIGKILL");
    await first.exited;

    // The next one waits for the leases to run out, then judges everything, each transfer once.
    state.hang = false;
    const second = child({});
    const done = await second.next("done", 120_000);
    await second.exited;
    expect(done).toMatchObject({ evaluated: 12, notifications: 12, checked: 12 });
  }, 240_000);
});
