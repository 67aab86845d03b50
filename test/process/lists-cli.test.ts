// `vigia lists refresh` and `vigia lists import` as a user runs them (src/ingest/person-lists/cli.ts), on a fresh
// embedded data dir: the UN list downloaded from a stand-in of its official server on 127.0.0.1 and imported, the
// same file again changing nothing, a failed download named with its URL, and the lists that have no URL (the UIF's,
// not public; an OpenSanctions dataset, the operator's choice) saying what to do instead. The stand-in serves the
// committed fixture; it does not imitate the UN server's caching headers or its rate limits.
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newcomerEnv } from "./vigia-process.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin", "vigia.js");
const UN = fs.readFileSync(path.join(ROOT, "test/fixtures/person-lists/un_consolidated.xml"));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-lists-cli-"));
let server: http.Server;
let base = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/resources/xml/en/consolidated.xml")
      return res.writeHead(200, { "content-type": "application/xml" }).end(UN);
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const vigia = async (args: string[]) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: newcomerEnv({
        VIGIA_DATA_DIR: dataDir,
        VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
        VIGIA_LOG_LEVEL: "warn",
      }),
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
};

describe("vigia lists", () => {
  it("refresh un: downloads the list and imports it; again, nothing changes", async () => {
    const url = `${base}/resources/xml/en/consolidated.xml`;
    const first = await vigia(["lists", "refresh", "un", "--url", url]);
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout.trim().split("\n").at(-1) as string);
    expect(summary).toMatchObject({ kind: "un", status: "imported", entries: 22, list_date: "2020-03-20" });
    // The stand-in is plain http: said before the download.
    expect(first.stderr).toContain(
      `vigia: warning: ${url} is plain http: the list is not protected in transit`,
    );
    const again = await vigia(["lists", "refresh", "un", "--url", url]);
    expect(JSON.parse(again.stdout.trim().split("\n").at(-1) as string)).toMatchObject({
      status: "unchanged",
    });
  });

  it("a failed download names the URL and imports nothing", async () => {
    const res = await vigia(["lists", "refresh", "un", "--url", `${base}/elsewhere.xml`]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/elsewhere\.xml: HTTP 503/);
  });

  it("mx-lpb and ftm have no URL to refresh from, and say what to do", async () => {
    const lpb = await vigia(["lists", "refresh", "mx-lpb"]);
    expect(lpb.code).not.toBe(0);
    expect(lpb.stderr).toMatch(
      /not public: import the copy the UIF gave you with `vigia lists import mx-lpb FILE --project N`/,
    );
    const ftm = await vigia(["lists", "refresh", "ftm"]);
    expect(ftm.stderr).toMatch(/give its FollowTheMoney export with --url/);
  });

  it("the UIF's LPB is one project's own: without --project it is refused, saying so", async () => {
    const res = await vigia([
      "lists",
      "import",
      "mx-lpb",
      path.join(ROOT, "test/fixtures/person-lists/mx_lpb_invented.csv"),
    ]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/it is one project's own: name it with --project N/);
  });

  it("an unknown KIND lists the kinds", async () => {
    const res = await vigia(["lists", "import", "interpol", "x.csv"]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/unknown list KIND "interpol": one of ofac-sdn, un, sat-69b, mx-lpb, ftm/);
  });
});
