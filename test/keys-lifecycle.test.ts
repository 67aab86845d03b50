// Key lifecycle and settings changes with their audit rows, through the HTTP API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, startTestService, type TestService } from "./support/service.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const call = (method: string, url: string, key: string | undefined, body?: unknown) =>
  svc.app!.inject({
    method: method as "GET",
    url: `/v1${url}`,
    headers: key ? auth(key) : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });

describe("API key lifecycle", () => {
  it("create -> list shows it -> it authenticates -> delete -> 401", async () => {
    const admin = svc.project.keys.admin;
    const created = await call("POST", `/projects/${svc.project.id}/keys`, admin, {
      label: "ci",
      role: "viewer",
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data;
    expect(Number.isInteger(id)).toBe(true);

    const list = await call("GET", `/projects/${svc.project.id}/keys?limit=100`, admin);
    expect(list.statusCode).toBe(200);
    const entry = list.json().data.find((k: { id: number }) => k.id === id);
    expect(entry).toMatchObject({ id, label: "ci", role: "viewer", revoked_at: null });
    expect(entry.key).toMatch(/^vigia_[0-9A-Za-z]{40,}$/);
    expect(new Date(entry.created_at).toISOString()).toBe(entry.created_at);

    const chains = await call("GET", "/chains", entry.key);
    expect(chains.statusCode).toBe(200);

    const revoked = await call("DELETE", `/projects/${svc.project.id}/keys/${id}`, admin);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ success: true });

    const after = await call("GET", "/chains", entry.key);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({
      success: false,
      error: "unauthorized",
      message: "The api key is invalid",
    });

    const listed = (await call("GET", `/projects/${svc.project.id}/keys?limit=100`, admin)).json().data;
    expect(listed.find((k: { id: number }) => k.id === id).revoked_at).not.toBeNull();
  });

  it("defaults the role to developer and records last_used_at", async () => {
    const admin = svc.project.keys.admin;
    const id = (await call("POST", `/projects/${svc.project.id}/keys`, admin, { label: "dev2" })).json().data;
    const key = (await call("GET", `/projects/${svc.project.id}/keys?limit=100`, admin))
      .json()
      .data.find((k: { id: number }) => k.id === id);
    expect(key.role).toBe("developer");
    expect((await call("GET", "/chains", key.key)).statusCode).toBe(200);
    await svc.authenticator.flushLastUsed(); // last_used_at is written in batches
    const row = await svc.database.db
      .selectFrom("api_keys")
      .select("last_used_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.last_used_at).toBeInstanceOf(Date);
  });

  it("revoking an unknown or other project's key is 404", async () => {
    const otherKeyId = (
      await svc.database.db
        .selectFrom("api_keys")
        .select("id")
        .where("project_id", "=", svc.other.id)
        .executeTakeFirstOrThrow()
    ).id;
    const res = await call(
      "DELETE",
      `/projects/${svc.project.id}/keys/${otherKeyId}`,
      svc.project.keys.admin,
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: "not_found" });
    expect(
      (await call("DELETE", `/projects/${svc.project.id}/keys/999999`, svc.project.keys.admin)).statusCode,
    ).toBe(404);
  });

  it("writes an audit row for every key change in the same transaction", async () => {
    const admin = svc.project.keys.admin;
    const id = (await call("POST", `/projects/${svc.project.id}/keys`, admin, { label: "audited" })).json()
      .data;
    await call("DELETE", `/projects/${svc.project.id}/keys/${id}`, admin);
    const audit = (await call("GET", `/projects/${svc.project.id}/audit?limit=100`, admin)).json().data;
    const actions = audit
      .filter((a: { target: string }) => a.target === `key:${id}`)
      .map((a: { action: string }) => a.action);
    expect(actions.sort()).toEqual(["key.created", "key.revoked"]);
  });
});

describe("project settings", () => {
  it("reads, patches and rotates with audit rows", async () => {
    const admin = svc.project.keys.admin;
    const before = (await call("GET", `/projects/${svc.project.id}`, admin)).json().data;
    expect(before).toMatchObject({
      id: svc.project.id,
      jurisdictions: [],
      signing_scheme: "standard-webhooks",
    });
    expect(before.webhook_secret).toMatch(/^whsec_/);

    const patched = await call("PATCH", `/projects/${svc.project.id}`, admin, {
      integration_url: "https://integrator.example/api",
      jurisdictions: ["MX", "CO"],
      mx_reporting_entity: { clave_sujeto_obligado: "ABC010101AB1", dominio_plataforma: "EXAMPLE-MX" },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({
      integration_url: "https://integrator.example/api",
      jurisdictions: ["CO", "MX"],
      mx_reporting_entity: { clave_sujeto_obligado: "ABC010101AB1" },
    });

    const scheme = await call("PATCH", `/projects/${svc.project.id}`, admin, {
      signing_scheme: "hmac-canonical",
    });
    expect(scheme.json().data.webhook_secret).toMatch(/^[0-9a-f]{32}$/);

    const rotated = await call("POST", `/projects/${svc.project.id}/webhook-secret`, admin);
    expect(rotated.statusCode).toBe(200);
    const secret = rotated.json().data.webhook_secret;
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    expect(secret).not.toBe(scheme.json().data.webhook_secret);

    const audit = (await call("GET", `/projects/${svc.project.id}/audit?limit=100`, admin)).json().data;
    const actions = audit.map((a: { action: string }) => a.action);
    expect(actions.filter((a: string) => a === "project.updated")).toHaveLength(2);
    expect(actions).toContain("project.webhook_secret_rotated");
    const firstUpdate = audit.filter((a: { action: string }) => a.action === "project.updated").at(-1);
    expect(firstUpdate.details).toMatchObject({ jurisdictions: ["CO", "MX"] });
    expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it("a no-op patch writes no audit row", async () => {
    const admin = svc.project.keys.admin;
    const count = async () =>
      (await call("GET", `/projects/${svc.project.id}/audit?limit=100`, admin)).json().data.length;
    const before = await count();
    const current = (await call("GET", `/projects/${svc.project.id}`, admin)).json().data;
    await call("PATCH", `/projects/${svc.project.id}`, admin, { name: current.name });
    expect(await count()).toBe(before);
  });

  it("rejects bad settings", async () => {
    const admin = svc.project.keys.admin;
    for (const body of [
      {},
      { jurisdictions: ["US"] },
      { integration_url: "ftp://x" },
      { signing_scheme: "md5" },
    ]) {
      const res = await call("PATCH", `/projects/${svc.project.id}`, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: "invalid_request", message: "Invalid body" });
    }
  });
});
