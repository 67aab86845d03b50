// Contract suite: authentication, roles and project scoping on EVERY /v1 route that needs an API key
// (docs/api.md, "Authentication and roles"). Routes are discovered from the service's own OpenAPI document
// (operations with `security`; the lowest role from the `x-required-role` extension), so a route added later is
// covered without editing this file. Every check loops over all routes and reports every failing route at once.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertLayeredAnalysis } from "../../src/analysis/layered/index.ts";
import { insertInvestigation } from "../../src/investigations/store.ts";
import { createKey } from "../../src/keys/index.ts";
import { generateApiKey } from "../../src/keys/key-format.ts";
import { ROLES, roleRank } from "../../src/platform/http/auth.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { label, loadOperations, type Operation, validUrl } from "./openapi-routes.ts";

const UNAUTHORIZED = { success: false, error: "unauthorized", message: "The api key is invalid" };
const FORBIDDEN = { success: false, error: "forbidden", message: "Forbidden" };

let svc: TestService;
let secured: Operation[];
let revokedKey: string;

beforeAll(async () => {
  svc = await startTestService();
  secured = (await loadOperations(svc.app!)).filter((op) => op.secured);
  // A revoked admin key: were revocation ignored it would pass every role check.
  const created = await createKey(
    svc.keys,
    svc.project.id,
    { label: "to revoke", role: "admin" },
    { kind: "cli" },
  );
  revokedKey = created.key;
  const revoked = await svc.app!.inject({
    method: "DELETE",
    url: `/v1/projects/${svc.project.id}/keys/${created.id}`,
    headers: auth(svc.project.keys.admin),
  });
  expect(revoked.statusCode).toBe(200);
});
afterAll(async () => {
  await svc?.stop();
});

const scope = () => ({ projectId: svc.project.id });

/** Sends a request without a body (authentication runs before the body is read). */
const send = (op: Operation, url: string, headers: Record<string, string>) =>
  svc.app!.inject({ method: op.method, url, headers });

interface Failure {
  route: string;
  check: string;
  status: number;
  body: string;
}

/** Runs `check` on every secured route and fails once with the list of every route that broke it. */
async function everyRoute(
  run: (
    op: Operation,
    fail: (check: string, res: { statusCode: number; body: string }) => void,
  ) => Promise<void>,
) {
  const failures: Failure[] = [];
  for (const op of secured) {
    await run(op, (check, res) =>
      failures.push({ route: label(op), check, status: res.statusCode, body: res.body.slice(0, 200) }),
    );
  }
  expect(failures).toEqual([]);
}

const isJson = (body: string, expected: object) => {
  try {
    return JSON.stringify(JSON.parse(body)) === JSON.stringify(expected);
  } catch {
    return false;
  }
};

describe("route discovery", () => {
  it("finds the secured routes in the OpenAPI document, each with its required role", () => {
    const labels = secured.map(label);
    // Known today; more may come and are covered automatically.
    expect(labels).toEqual(
      expect.arrayContaining([
        "GET /v1/chains",
        "GET /v1/chains/{chainId}",
        "POST /v1/projects/{projectId}/keys",
        "GET /v1/projects/{projectId}/keys",
        "DELETE /v1/projects/{projectId}/keys/{keyId}",
        "GET /v1/projects/{projectId}",
        "PATCH /v1/projects/{projectId}",
      ]),
    );
    for (const op of secured) {
      expect(op.role, `${label(op)} has no x-required-role`).toBeDefined();
      expect(op.path.startsWith("/v1/")).toBe(true);
    }
  });

  it("the document's security scheme is the x-api-key header and says the key needs its prefix", async () => {
    const doc = (await svc.app!.inject({ url: "/v1/openapi.json" })).json();
    const scheme = doc.components.securitySchemes.ApiKey;
    expect(scheme).toMatchObject({ type: "apiKey", in: "header", name: "x-api-key" });
    expect(scheme.description).toContain("`x-api-key: ApiKey <key>`");
    expect(scheme.description).toContain("prefix included");
  });
});

describe("401 on every secured route", () => {
  // A header of the wrong form says how to send the key (details); a wrong key says nothing of which keys exist.
  const noKey = "no key was sent: send the header `x-api-key: ApiKey <key>`";
  const prefix = (name: string) =>
    `the key must follow the prefix \`ApiKey \` (the word ApiKey and one space): \`${name}: ApiKey <key>\``;
  const cases: Array<[string, () => Record<string, string>, { path: string; message: string }?]> = [
    ["no header", () => ({}), { path: "headers/x-api-key", message: noKey }],
    [
      "a key without the ApiKey prefix",
      () => ({ "x-api-key": svc.project.keys.admin }),
      { path: "headers/x-api-key", message: prefix("x-api-key") },
    ],
    [
      "a Bearer key",
      () => ({ "x-api-key": `Bearer ${svc.project.keys.admin}` }),
      { path: "headers/x-api-key", message: prefix("x-api-key") },
    ],
    [
      "the prefix without its space",
      () => ({ "x-api-key": `ApiKey${svc.project.keys.admin}` }),
      { path: "headers/x-api-key", message: prefix("x-api-key") },
    ],
    [
      "the prefix alone",
      () => ({ "x-api-key": "ApiKey " }),
      { path: "headers/x-api-key", message: "no key after the prefix: `x-api-key: ApiKey <key>`" },
    ],
    [
      "the key in Authorization",
      () => ({ authorization: `ApiKey ${svc.project.keys.admin}` }),
      {
        path: "headers/authorization",
        message: "the key goes in the header `x-api-key`, not Authorization: send `x-api-key: ApiKey <key>`",
      },
    ],
    ["an unknown well-formed key", () => auth(generateApiKey())],
    ["a malformed key", () => auth("vigia_not-a-key")],
    ["a revoked key", () => auth(revokedKey)],
    [
      "the x-api-header alias without the prefix",
      () => ({ "x-api-header": svc.project.keys.admin }),
      { path: "headers/x-api-header", message: prefix("x-api-header") },
    ],
  ];
  for (const [name, headers, detail] of cases) {
    it(`${name}: 401 unauthorized${detail ? ", saying how to send the key" : ""}`, async () => {
      const expected = detail ? { ...UNAUTHORIZED, details: [detail] } : UNAUTHORIZED;
      await everyRoute(async (op, fail) => {
        const res = await send(op, validUrl(op, scope()), headers());
        if (res.statusCode !== 401 || !isJson(res.body, expected)) fail(name, res);
      });
    });
  }
});

describe("the x-api-header alias", () => {
  it("`x-api-header: ApiKey <key>` authenticates exactly as x-api-key does", async () => {
    await everyRoute(async (op, fail) => {
      const url = validUrl(op, scope());
      const viaKey = await send(op, url, auth(svc.project.keys.admin));
      const viaAlias = await send(op, url, { "x-api-header": `ApiKey ${svc.project.keys.admin}` });
      if ([401, 403].includes(viaAlias.statusCode)) fail("alias rejected", viaAlias);
      if (viaAlias.statusCode !== viaKey.statusCode)
        fail(`alias ${viaKey.statusCode} via x-api-key`, viaAlias);
    });
  });
});

describe("roles", () => {
  it("a role below the route's required role: 403 forbidden", async () => {
    let checked = 0;
    await everyRoute(async (op, fail) => {
      for (const role of ROLES.filter((r) => roleRank(r) < roleRank(op.role!))) {
        checked++;
        const res = await send(op, validUrl(op, scope()), auth(svc.project.keys[role]));
        // The 403 says which role the action needs and which the key has.
        const needs = {
          ...FORBIDDEN,
          message: `Forbidden: this action needs a key of role ${op.role}${op.role === "admin" ? "" : " or above"}; this key's role is ${role}`,
        };
        if (res.statusCode !== 403 || !isJson(res.body, needs)) fail(`role ${role}`, res);
      }
    });
    expect(checked).toBeGreaterThan(0);
  });

  it("the required role and every role above it get past authorisation", async () => {
    await everyRoute(async (op, fail) => {
      for (const role of ROLES.filter((r) => roleRank(r) >= roleRank(op.role!))) {
        const res = await send(op, validUrl(op, scope()), auth(svc.project.keys[role]));
        if ([401, 403].includes(res.statusCode)) fail(`role ${role}`, res);
      }
    });
  });
});

describe("project scope", () => {
  const withProject = () =>
    secured.filter((op) => [...op.pathParams, ...op.queryParams].some((p) => p.name === "projectId"));

  it("another project's id in the path or query: 403 forbidden, whatever the role", async () => {
    expect(withProject().length).toBeGreaterThan(0);
    await everyRoute(async (op, fail) => {
      if (!withProject().includes(op)) return;
      for (const projectId of [String(svc.other.id), "2147483647"]) {
        for (const role of ROLES) {
          const url = validUrl(op, scope(), { projectId });
          const res = await send(op, url, auth(svc.project.keys[role]));
          // The 403 names the key's own project and the one asked, nothing of the other's existence.
          const other = {
            ...FORBIDDEN,
            message: `Forbidden: this key belongs to project ${svc.project.id} and reaches only its resources, not those of project ${projectId}`,
          };
          if (res.statusCode !== 403 || !isJson(res.body, other)) fail(`project ${projectId}, ${role}`, res);
        }
      }
    });
  });

  it("the other project's key on this project's routes: 403 forbidden", async () => {
    await everyRoute(async (op, fail) => {
      if (!withProject().includes(op)) return;
      const res = await send(op, validUrl(op, scope()), auth(svc.other.keys.admin));
      const other = {
        ...FORBIDDEN,
        message: `Forbidden: this key belongs to project ${svc.other.id} and reaches only its resources, not those of project ${svc.project.id}`,
      };
      if (res.statusCode !== 403 || !isJson(res.body, other)) fail("other project's key", res);
    });
  });

  it("says it in the reader's language", async () => {
    const res = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/keys`,
      headers: { ...auth(svc.other.keys.admin), "accept-language": "es" },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      `Prohibido: esta clave pertenece al proyecto ${svc.other.id} y solo alcanza sus recursos, no los del proyecto ${svc.project.id}`,
    );
  });

  // Resources of another project behind this project's id: 404, as if they did not exist. Add a row here
  // whenever a route reads or changes a resource by id.
  it("another project's resources are not found", async () => {
    const otherKeyId = (
      await svc.database.db
        .selectFrom("api_keys")
        .select("id")
        .where("project_id", "=", svc.other.id)
        .executeTakeFirstOrThrow()
    ).id;
    // The other project's layered analysis, investigation and risk job, written straight to the store.
    const analysisId = randomUUID();
    const investigationId = randomUUID();
    const jobId = randomUUID();
    const wallet = `0x${"ab".repeat(20)}`;
    const owner = { projectId: svc.other.id, chainId: 1, address: wallet, maxDepth: 2 };
    await insertLayeredAnalysis(svc.database.db, { id: analysisId, ...owner, incremental: true });
    await insertInvestigation(
      svc.database.db,
      {
        id: investigationId,
        ...owner,
        name: "theirs",
        incremental: true,
        analysisId,
      },
      10,
    );
    await svc.database.db
      .insertInto("analyses")
      .values({
        id: jobId,
        project_id: svc.other.id,
        chain_id: 1,
        address: wallet,
        kind: "job",
        max_depth: 3,
        status: "queued",
      })
      .execute();
    const cases = [
      { method: "DELETE" as const, url: `/v1/projects/${svc.project.id}/keys/${otherKeyId}` },
      { method: "GET" as const, url: `/v1/projects/${svc.project.id}/investigations/${investigationId}` },
      { method: "GET" as const, url: `/v1/analysis/${analysisId}/progress` },
      { method: "GET" as const, url: `/v1/analysis/${analysisId}/layers/0` },
      { method: "GET" as const, url: `/v1/risk/${jobId}` },
    ];
    for (const c of cases) {
      const res = await svc.app!.inject({ ...c, headers: auth(svc.project.keys.admin) });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(404);
      expect(res.json()).toMatchObject({ success: false, error: "not_found" });
    }
    // ... and the other project's key still works: nothing was revoked.
    const still = await svc.app!.inject({
      method: "GET",
      url: "/v1/chains",
      headers: auth(svc.other.keys.admin),
    });
    expect(still.statusCode).toBe(200);
  });
});
