// docs/migrating.md stays true: every route of the original service that its table lists (the first column, the
// routes an integrator calls) is a route of the OpenAPI document the service serves, with the same method; and
// the routes the service calls on the integrator's server are the two it documents.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../support/imports.ts";
import { startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

/** `GET /reports/{reportId}` and the like, from the first column of the guide's route table. */
function listedRoutes(): { method: string; path: string }[] {
  const text = readFileSync(path.join(REPO, "docs/migrating.md"), "utf8");
  const table = text.slice(text.indexOf("## Route by route"));
  const routes: { method: string; path: string }[] = [];
  for (const line of table.split("\n").filter((l) => l.startsWith("| `"))) {
    const first = line.split("|")[1] as string;
    for (const m of first.matchAll(/`(GET|POST|PATCH|DELETE|PUT) ([^` ?]+)/g)) {
      routes.push({ method: m[1] as string, path: m[2] as string });
    }
  }
  return routes;
}

describe("docs/migrating.md", () => {
  it("lists only routes the service has, and the integrator's two", async () => {
    const doc = (await svc.app!.inject({ url: "/v1/openapi.json" })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = listedRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const integrator = routes.filter((r) => r.path.startsWith("{integration_url}"));
    expect(integrator.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      "GET {integration_url}/users/{foreign_user_id}",
      "POST {integration_url}/webhook",
    ]);
    const missing = routes
      .filter((r) => !r.path.startsWith("{integration_url}"))
      .filter((r) => !doc.paths[`/v1${r.path}`]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });
});
