// The viewer's routes in the real service, through `inject`: the page and its assets load without an API key,
// carry the security headers a page that holds a key needs, are cacheable by version, compressed on request, and
// stay out of the OpenAPI description (so the /v1 contract suites never see them); an unknown asset is a 404 in
// the error envelope. Also the bundle's staleness check: an edited source means a rebuild.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadViewerBundle, readViewerBundle, viewerFingerprint } from "../../src/viewer/index.ts";
import { startTestService, type TestService } from "../support/service.ts";

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  svc.app!.inject({ method: "GET", url, headers });

describe("GET /app/investigations/{id}", () => {
  it("serves the page without an API key, with a strict CSP and no caching of the page itself", async () => {
    const res = await get("/app/investigations/3f1b6c1e-0000-4000-8000-000000000001?project=1");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-cache");
    const csp = String(res.headers["content-security-policy"]);
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
    ])
      expect(csp).toContain(directive);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    // Nothing from elsewhere: every script and stylesheet is the service's own.
    const sources = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(
      sources.filter((s) => !s.startsWith("/app/assets/") && !s.startsWith("#") && s !== "data:,"),
    ).toEqual([]);
    expect(res.body).toMatch(/<script src="\/app\/assets\/viewer\.js\?v=[0-9a-f]{16}" defer><\/script>/);
    expect(res.body).toContain('id="graph"');
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const first = await get("/app/investigations/abc");
    const again = await get("/app/investigations/abc", { "if-none-match": String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });
});

describe("GET /app/assets/{file}", () => {
  it("serves the versioned bundle for a year, gzipped when asked, and an unversioned one revalidated", async () => {
    const page = await get("/app/investigations/abc");
    const jsUrl = /src="(\/app\/assets\/viewer\.js\?v=[0-9a-f]+)"/.exec(page.body)![1]!;
    const js = await get(jsUrl, { "accept-encoding": "gzip, br" });
    expect(js.statusCode).toBe(200);
    expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(js.headers["content-encoding"]).toBe("gzip");
    expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const body = zlib.gunzipSync(js.rawPayload).toString("utf8");
    expect(body).toContain("cytoscape"); // bundled in: no CDN
    expect(body.length).toBeGreaterThan(100_000);

    const plain = await get("/app/assets/viewer.css");
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["cache-control"]).toBe("no-cache");
  });

  it("an unknown asset: 404 in the error envelope", async () => {
    const res = await get("/app/assets/nothing.js");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: "not_found" });
    expect((await get("/app/assets/..%2fmanifest.json")).statusCode).toBe(404);
  });
});

describe("outside the API description", () => {
  it("no /app route is in the OpenAPI document", async () => {
    const doc = (await get("/v1/openapi.json")).json() as { paths: Record<string, unknown> };
    // The pages are not API; the session routes (/auth) are, and are described.
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/app"))).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith("/v1/") && !p.startsWith("/auth/"))).toEqual(
      [],
    );
  });
});

describe("the bundle", () => {
  it("is rebuilt when a source changes, and read back as built otherwise", async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-viewer-"));
    try {
      const built = await loadViewerBundle(out);
      expect(built.built).toBe(true);
      expect(built.fingerprint).toBe(viewerFingerprint());
      const read = readViewerBundle(out);
      expect(read?.built).toBe(false);
      expect(read?.assets.get("viewer.js")?.hash).toBe(built.assets.get("viewer.js")?.hash);
      // A manifest from other sources (an edit since the build) is stale.
      const manifest = path.join(out, "manifest.json");
      const json = JSON.parse(fs.readFileSync(manifest, "utf8"));
      fs.writeFileSync(manifest, JSON.stringify({ ...json, fingerprint: "0".repeat(32) }));
      expect(readViewerBundle(out)).toBeUndefined();
      expect((await loadViewerBundle(out)).built).toBe(true);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
