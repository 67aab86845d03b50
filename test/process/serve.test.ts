// The real `vigia` process as a newcomer runs it: `vigia serve` on a fresh embedded data dir, the command line
// against the running server, a second start, a refused second server, graceful and abrupt stops.
// The tests of this file are one story on one data dir and run in order; every child is killed afterwards.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, newcomerEnv, runVigia, spawnVigia, type VigiaProcess } from "./vigia-process.ts";

// A start takes ~5 s on an idle machine (tsx, PGlite, migrations); the bounds leave room for a loaded CI box.
const START_TIMEOUT = 60_000;
const STOP_TIMEOUT = 10_000;
const TEST_TIMEOUT = 180_000;
const SLOW_STATS_MS = 2500;

let tmp: string;
let dataDir: string;
let chainsFile: string;

// A slow Blockscout stand-in on 127.0.0.1: GET /v1/chains/1 waits on it, which gives an in-flight request to stop on.
let blockscout: http.Server;
let statsRequested: () => void = () => {};
let statsRequests = 0;
const statsRequest = () =>
  new Promise<void>((resolve) => {
    statsRequested = resolve;
  });

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function env(extra: Record<string, string> = {}) {
  return newcomerEnv({
    VIGIA_DATA_DIR: dataDir,
    VIGIA_CHAINS: chainsFile,
    PORT: String(await freePort()),
    // The route may wait for the slow stats (the default gives up after 1.5 s and serves the own index).
    VIGIA_UPSTREAM_TIMEOUT_MS: "20000",
    // The Blockscout stand-in is on 127.0.0.1: statistics go through the outbound client, which allows it here.
    VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
    ...extra,
  });
}

interface Started {
  proc: VigiaProcess;
  url: string;
  /** The demo project's admin key, when this start printed one. */
  demoKey: string | undefined;
}

async function startServe(): Promise<Started> {
  const proc = spawnVigia(["serve"], await env());
  try {
    await proc.waitForStdout(/^Database: .*$/m, START_TIMEOUT);
  } catch (error) {
    // Not left holding the data dir for the next tests.
    proc.child.kill("SIGKILL");
    await proc.exited;
    throw error;
  }
  const url = proc.stdout.match(/^Vigía API listening on (http:\/\/127\.0\.0\.1:\d+)\/v1$/m)?.[1];
  if (!url) throw new Error(`no API URL in:\n${proc.stdout}`);
  const demoKey = proc.stdout.match(/^ {2}(vigia_\S+)$/m)?.[1];
  return { proc, url, demoKey };
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies, checked field by field by the assertions
type Json = any;
const json = (response: Response): Promise<Json> => response.json();
const auth = (key: string) => ({ "x-api-key": `ApiKey ${key}` });
const get = (url: string, key?: string) => fetch(url, { headers: key ? auth(key) : {} });
const stderrLines = (stderr: string) => stderr.split("\n").filter((line) => line.trim() !== "");

/** Sends `signal`; the process must be gone within STOP_TIMEOUT. */
async function stop(proc: VigiaProcess, signal: NodeJS.Signals) {
  proc.child.kill(signal);
  return proc.waitForExit(STOP_TIMEOUT);
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-proc-"));
  dataDir = path.join(tmp, "data");
  blockscout = http.createServer((req, res) => {
    if (req.url !== "/api/v2/stats") {
      res.writeHead(404).end();
      return;
    }
    statsRequests++;
    statsRequested();
    setTimeout(() => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ total_blocks: "123456", coin_price: "2735.25", tvl: null }));
    }, SLOW_STATS_MS);
  });
  await new Promise<void>((resolve) => blockscout.listen(0, "127.0.0.1", resolve));
  const { port } = blockscout.address() as AddressInfo;
  chainsFile = path.join(tmp, "chains.json");
  fs.writeFileSync(
    chainsFile,
    JSON.stringify([
      {
        id: 1,
        name: "Ethereum",
        currency_symbol: "ETH",
        blockscout_url: `http://127.0.0.1:${port}`,
      },
      { id: 137, name: "Polygon PoS", currency_symbol: "POL" },
      { id: 10, name: "Disabled chain", currency_symbol: "ETH", enabled: false },
    ]),
  );
});

afterAll(async () => {
  await killAll();
  blockscout?.closeAllConnections();
  await new Promise<void>((resolve) => blockscout?.close(() => resolve()));
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("vigia serve as a newcomer runs it", { timeout: TEST_TIMEOUT }, () => {
  let first: Started;
  const keys: { demo?: string; project?: string; viewer?: string; projectId?: number } = {};

  it("first start on a fresh data dir: prints the API URL, the docs URL and the demo admin key; the API answers", async () => {
    const startedAt = Date.now();
    first = await startServe();
    const { proc, url, demoKey } = first;
    console.log(`vigia serve (first start) was ready after ${Date.now() - startedAt} ms`);

    expect(proc.stdout).toContain(`Docs: ${url}/v1/docs`);
    expect(proc.stdout).toMatch(/^Created the demo project \d+\. Its admin API key \(shown once\):$/m);
    expect(demoKey).toMatch(/^vigia_[0-9A-Za-z]{40,}$/);
    expect(proc.stdout).toContain(`Database: embedded (PGlite) in ${dataDir}`);
    // Which chains ask which explorer (none here: the process tests turn public explorers off).
    expect(proc.stdout).toContain(
      "Address histories: no chain asks an explorer; the store only for Ethereum (1), Polygon PoS (137) (public explorers off: VIGIA_PUBLIC_EXPLORERS=false)",
    );
    keys.demo = demoKey;

    const healthz = await get(`${url}/healthz`);
    expect(healthz.status).toBe(200);
    expect(await json(healthz)).toEqual({ status: "ok" });

    const readyz = await get(`${url}/readyz`);
    expect(readyz.status).toBe(200);
    // Ready, with each followed chain's lag (none is followed here) and each list's age: none is loaded on a fresh
    // data dir, so each public list the workers refresh on their own is stale until the first refresh brings it.
    const ready = await json(readyz);
    expect(ready).toMatchObject({ status: "ready", chains: [] });
    expect(ready.lists.map((l: { kind: string; stale: boolean }) => [l.kind, l.stale])).toEqual([
      ["ofac-sdn", true],
      ["un", true],
      ["sat-69b", true],
      ["sanctions", true],
    ]);

    const openapi = await get(`${url}/v1/openapi.json`);
    expect(openapi.status).toBe(200);
    const spec = await json(openapi);
    expect(spec.openapi).toBe("3.1.0");
    expect(spec.info.version).toBe("1.0.0");
    expect(spec.servers).toEqual([{ url }]);

    const docs = await get(`${url}/v1/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await docs.text()).toMatch(/<html/i);

    const chains = await get(`${url}/v1/chains`, demoKey);
    expect(chains.status).toBe(200);
    const body = await json(chains);
    expect(body.success).toBe(true);
    expect(body.data.map((c: { id: number }) => c.id)).toEqual([1, 137]);

    expect((await get(`${url}/v1/chains`)).status).toBe(401);
    expect(fs.existsSync(path.join(dataDir, "pglite.lock"))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, ".s.PGSQL.5432"))).toBe(true);
  });

  it("projects create and keys create work while it runs; their keys authenticate at once", async () => {
    const { url } = first;
    const e = await env();

    const project = await runVigia(["projects", "create", "--name", "Exchange X"], e);
    expect(project.code, project.stderr).toBe(0);
    const created = JSON.parse(project.stdout.trim());
    expect(Object.keys(created).sort()).toEqual(["key", "projectId"]);
    expect(Number.isInteger(created.projectId)).toBe(true);
    expect(created.key).toMatch(/^vigia_[0-9A-Za-z]{40,}$/);
    keys.project = created.key;
    keys.projectId = created.projectId;

    const key = await runVigia(
      ["keys", "create", "--project", String(created.projectId), "--label", "L", "--role", "viewer"],
      e,
    );
    expect(key.code, key.stderr).toBe(0);
    const createdKey = JSON.parse(key.stdout.trim());
    expect(Object.keys(createdKey).sort()).toEqual(["id", "key"]);
    expect(Number.isInteger(createdKey.id)).toBe(true);
    expect(createdKey.key).toMatch(/^vigia_[0-9A-Za-z]{40,}$/);
    keys.viewer = createdKey.key;

    expect((await get(`${url}/v1/chains`, created.key)).status).toBe(200);
    expect((await get(`${url}/v1/chains`, createdKey.key)).status).toBe(200);
    // The admin key sees the viewer key in its project's key list, with the role and label given.
    const list = await get(`${url}/v1/projects/${created.projectId}/keys?limit=100`, created.key);
    expect(list.status).toBe(200);
    expect((await json(list)).data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: createdKey.id, label: "L", role: "viewer" })]),
    );
  });

  it("keys create with bad input exits non-zero with one line on stderr", async () => {
    const e = await env();
    // Independent commands, run side by side (each one is a Node start).
    const [missing, role, notANumber, noName] = await Promise.all([
      runVigia(["keys", "create", "--project", "999999", "--label", "L"], e),
      runVigia(["keys", "create", "--project", "1", "--label", "L", "--role", "superuser"], e),
      runVigia(["keys", "create", "--project", "abc", "--label", "L"], e),
      runVigia(["projects", "create"], e),
    ]);
    expect(missing.code).not.toBe(0);
    expect(missing.stdout).toBe("");
    expect(stderrLines(missing.stderr)).toEqual([expect.stringMatching(/project 999999 not found/)]);

    expect(role.code).not.toBe(0);
    expect(role.stdout).toBe("");
    expect(stderrLines(role.stderr)).toEqual([expect.stringMatching(/superuser/)]);

    expect(notANumber.code).not.toBe(0);
    expect(stderrLines(notANumber.stderr)).toHaveLength(1);

    expect(noName.code).not.toBe(0);
    expect(stderrLines(noName.stderr)).toEqual([expect.stringMatching(/--name/)]);

    // The server is unharmed by the failed commands.
    expect((await get(`${first.url}/readyz`)).status).toBe(200);
  });

  it("a second serve on the same data dir refuses to start with one line naming the data dir", async () => {
    expect(first, "the first start").toBeDefined();
    const second = spawnVigia(["serve"], await env());
    const { code } = await second.waitForExit(START_TIMEOUT);
    expect(code).not.toBe(0);
    expect(second.stdout).not.toMatch(/listening on/);
    const lines = stderrLines(second.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(dataDir);
    expect(lines[0]).toMatch(/already served by a running Vigía process \(pid \d+\)/);

    // The first server still owns the data dir and answers.
    expect((await get(`${first.url}/readyz`)).status).toBe(200);
    expect((await get(`${first.url}/v1/chains`, keys.demo)).status).toBe(200);
    expect(fs.readFileSync(path.join(dataDir, "pglite.lock"), "utf8")).toBe(String(first.proc.child.pid));
  });

  it("SIGTERM lets an in-flight request finish, exits 0, and removes the lock and the socket", async () => {
    const { proc, url } = first;
    const requested = statsRequest();
    const slow = get(`${url}/v1/chains/1`, keys.demo);
    await requested; // the route is now waiting on the slow upstream
    const requestStartedAt = Date.now();
    proc.child.kill("SIGTERM");
    await expect
      .poll(() => proc.stderr, { timeout: 5000, interval: 20 })
      .toContain("SIGTERM: finishing in-flight work");

    // A request arriving now is not served (connection refused, or 503 on a kept-alive connection).
    const late = await get(`${url}/healthz`).then(
      (r) => r.status,
      () => "refused",
    );
    expect(late).not.toBe(200);

    const response = await slow;
    expect(response.status).toBe(200);
    const detail = (await json(response)).data;
    expect(detail).toMatchObject({ chain_id: 1, stats_source: "blockscout", total_blocks: "123456" });
    expect(Date.now() - requestStartedAt).toBeGreaterThan(SLOW_STATS_MS / 2);

    const exit = await proc.waitForExit(STOP_TIMEOUT);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dataDir, "pglite.lock"))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, ".s.PGSQL.5432"))).toBe(false);
  });

  it("a second start on the same data dir creates no demo project, prints no key, and keeps the data", async () => {
    const again = await startServe();
    expect(again.demoKey).toBeUndefined();
    expect(again.proc.stdout).not.toMatch(/demo project/i);
    expect(again.proc.stdout).not.toMatch(/vigia_[0-9A-Za-z]{20,}/);

    for (const key of [keys.demo, keys.project, keys.viewer]) {
      expect((await get(`${again.url}/v1/chains`, key)).status).toBe(200);
    }
    // "Exchange X" still has its two keys, and the next project takes the next id: this start created no project.
    const projectKeys = await get(`${again.url}/v1/projects/${keys.projectId}/keys?limit=100`, keys.project);
    expect((await json(projectKeys)).data).toHaveLength(2);
    const nextProject = await runVigia(["projects", "create", "--name", "Third"], await env());
    expect(JSON.parse(nextProject.stdout).projectId).toBe((keys.projectId as number) + 1);

    // The stats read during the stop were stored before the database closed: served from that snapshot,
    // without asking the upstream again.
    const asked = statsRequests;
    const detail = await get(`${again.url}/v1/chains/1`, keys.demo);
    expect((await json(detail)).data).toMatchObject({ stats_source: "blockscout", total_blocks: "123456" });
    expect(statsRequests).toBe(asked);

    const exit = await stop(again.proc, "SIGINT");
    expect(exit.code).toBe(0);
  });

  it("after a crash (SIGKILL) the next start recovers: stale lock and socket, data intact", async () => {
    const crashing = await startServe();
    crashing.proc.child.kill("SIGKILL");
    expect((await crashing.proc.waitForExit(STOP_TIMEOUT)).signal).toBe("SIGKILL");
    expect(fs.existsSync(path.join(dataDir, "pglite.lock"))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, ".s.PGSQL.5432"))).toBe(true);

    // A command finds the dead socket and the dead lock holder, and opens the database itself.
    const key = await runVigia(
      ["keys", "create", "--project", String(keys.projectId), "--label", "after-crash"],
      await env(),
    );
    expect(key.code, key.stderr).toBe(0);
    const afterCrash = JSON.parse(key.stdout).key as string;

    const recovered = await startServe();
    expect(recovered.demoKey).toBeUndefined();
    for (const k of [keys.demo, keys.project, keys.viewer, afterCrash]) {
      expect((await get(`${recovered.url}/v1/chains`, k)).status).toBe(200);
    }
    const exit = await stop(recovered.proc, "SIGTERM");
    expect(exit.code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "pglite.lock"))).toBe(false);
  });
});
