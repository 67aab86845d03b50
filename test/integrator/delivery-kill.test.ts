// At least once, through crashes: 1,000 notifications, the delivering worker process killed (SIGKILL) twice in the
// middle of the run; the third process delivers the rest. The receiver, a real HTTP server on 127.0.0.1, gets every
// message, and a message it gets twice is a retry of the same webhook-id (an attempt the killed process made but
// could not record). PGlite data dir, or PostgreSQL with DATABASE_URL.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childDatabaseEnv, killChildProcesses, startChildProcess } from "../support/child-process.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { writeChainsFile } from "../support/service.ts";

const TOTAL = 1_000;
const target = testDatabase();
const chains = writeChainsFile([{ id: 1, name: "Ethereum", currency_symbol: "ETH" }]);
let dataDir: string | undefined;
let receiver: http.Server;
let receiverUrl: string;
/** deliveries by webhook-id, and by the notification's `data.n` */
const byId = new Map<string, number>();
const byN = new Map<number, Set<string>>();

beforeAll(async () => {
  if (!onPostgres) dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-deliver-kill-"));
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const id = req.headers["webhook-id"] as string;
      byId.set(id, (byId.get(id) ?? 0) + 1);
      const n = JSON.parse(body).data.n as number;
      byN.set(n, (byN.get(n) ?? new Set()).add(id));
      // A little slow, so that a kill lands while messages are in flight.
      setTimeout(() => res.writeHead(200).end(), 3);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  killChildProcesses();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await target.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const startChild = (env: Record<string, string> = {}) =>
  startChildProcess<{ event: string; delivered?: number }>("test/integrator/support/deliver-child.ts", {
    CHILD_CHAINS: chains,
    CHILD_RECEIVER: receiverUrl,
    ...childDatabaseEnv(target, dataDir),
    ...env,
  });

async function untilReceived(count: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (byId.size < count) {
    if (Date.now() > deadline) throw new Error(`only ${byId.size} of ${count} received`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe(`delivery through two SIGKILLs (${onPostgres ? "PostgreSQL" : "PGlite data dir"})`, () => {
  it("delivers every one of 1,000 notifications; duplicates only as retries of one webhook-id", async () => {
    const first = startChild({ CHILD_SEND: String(TOTAL) });
    await first.next("delivering", 120_000);
    await untilReceived(150);
    first.proc.kill("SIGKILL");
    await first.exited;

    const second = startChild();
    await second.next("delivering", 120_000);
    await untilReceived(500);
    second.proc.kill("SIGKILL");
    await second.exited;

    const third = startChild();
    const done = await third.next("done", 180_000);
    await third.exited;

    expect(done.delivered).toBe(TOTAL);
    expect(byN.size).toBe(TOTAL);
    // Each message was sent under one webhook-id, however many times.
    for (const ids of byN.values()) expect(ids.size).toBe(1);
    expect(byId.size).toBe(TOTAL);
  }, 300_000);
});
