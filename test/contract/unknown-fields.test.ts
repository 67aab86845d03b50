// Contract suite: EVERY JSON request body refuses the fields it does not know, with a 400 whose details name each
// one (docs/api.md, "Envelope and errors"), so that a misspelt optional field is not silently ignored; and the
// bodies the original service's public clients send (docs/api.md, "Fields the original service's clients send")
// are accepted as they are. Operations are discovered from the service's own OpenAPI document, so a route added
// later is covered without editing this file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { label, loadOperations, type Operation, validUrl } from "./openapi-routes.ts";

let svc: TestService;
let operations: Operation[];

beforeAll(async () => {
  svc = await startTestService({ env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" } });
  operations = await loadOperations(svc.app!);
});
afterAll(async () => {
  await svc?.stop();
});

const admin = () => auth(svc.project.keys.admin);
const send = (method: Operation["method"], url: string, payload: unknown) =>
  svc.app!.inject({
    method,
    url,
    headers: { ...admin(), "content-type": "application/json" },
    payload: JSON.stringify(payload),
  });
const scope = () => ({ projectId: svc.project.id });
const UNKNOWN = "zzNotAField";

describe("unknown fields", () => {
  it("every body schema of the OpenAPI document refuses unknown fields at its top level", () => {
    const withBody = operations.filter((op) => op.body);
    expect(withBody.length).toBeGreaterThan(8);
    expect(withBody.filter((op) => op.body?.additionalProperties !== false).map(label)).toEqual([]);
  });

  it("every operation with a body answers 400 naming an unknown field, whatever else is wrong", async () => {
    const failures: string[] = [];
    for (const op of operations.filter((o) => o.body)) {
      const res = await send(op.method, validUrl(op, scope()), { [UNKNOWN]: 1 });
      const details = res.json().details as { path: string; message: string }[] | undefined;
      const named = details?.find((d) => d.path === `/${UNKNOWN}`);
      if (res.statusCode !== 400 || !named?.message.startsWith(`unknown field "${UNKNOWN}"`))
        failures.push(`${label(op)}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
  });

  it("a valid body (the operation's example) with one unknown field: 400 with that field as the only detail", async () => {
    const doc = (await svc.app!.inject({ url: "/v1/openapi.json" })).json() as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { example?: object }> } }>
      >;
    };
    const failures: string[] = [];
    for (const op of operations.filter((o) => o.body)) {
      const example =
        doc.paths[op.path]?.[op.method.toLowerCase()]?.requestBody?.content["application/json"]?.example;
      const res = await send(op.method, validUrl(op, scope()), { ...example, [UNKNOWN]: 1 });
      const expected = [
        { path: `/${UNKNOWN}`, message: expect.stringMatching(`^unknown field "${UNKNOWN}"`) },
      ];
      if (
        res.statusCode !== 400 ||
        !expect.objectContaining({ details: expected }).asymmetricMatch(res.json())
      )
        failures.push(`${label(op)}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
  });

  it("every operation without a body refuses one with fields, naming them", async () => {
    const failures: string[] = [];
    const bodiless = operations.filter((o) => !o.body && o.method !== "GET");
    expect(bodiless.length).toBeGreaterThan(2);
    for (const op of bodiless) {
      const res = await send(op.method, validUrl(op, scope()), { reason: "leaked" });
      if (
        res.statusCode !== 400 ||
        JSON.stringify(res.json().details) !==
          JSON.stringify([
            { path: "/reason", message: 'unknown field "reason": this operation takes no body' },
          ])
      )
        failures.push(`${label(op)}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
  });

  it("every operation refuses a query parameter it does not know, naming it and the parameters there are", async () => {
    const failures: string[] = [];
    let checked = 0;
    // The API's operations without a body (a body is validated before the query, so a body route would answer
    // for its body first; their queries go through the same check); the signed download's path is not one a
    // template can fill (its query is closed by its own schema).
    const api = operations.filter(
      (op) => op.path.startsWith("/v1/") && !op.body && !op.path.startsWith("/v1/files/"),
    );
    for (const op of api) {
      const url = validUrl(op, scope(), { [UNKNOWN]: "1" });
      const res = await svc.app!.inject({ method: op.method, url, headers: admin() });
      checked += 1;
      let details: { path: string; message: string }[] | undefined;
      try {
        details = (JSON.parse(res.body) as { details?: typeof details }).details;
      } catch {
        details = undefined;
      }
      const named = details?.find((d) => d.path === `/${UNKNOWN}`);
      const known = op.queryParams.map((p) => p.name);
      const words =
        known.length === 0
          ? `unknown field "${UNKNOWN}": this object has no fields`
          : `unknown field "${UNKNOWN}": the fields here are ${known.join(", ")}`;
      if (res.statusCode !== 400 || named?.message !== words)
        failures.push(`${label(op)}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    }
    expect(checked).toBeGreaterThan(30);
    expect(failures).toEqual([]);
  });

  it("GET /risk/quick with `chainid`: 400 suggesting chainId, not a verdict on the default chain", async () => {
    const res = await svc.app!.inject({
      url: "/v1/risk/quick?address=0x33a8cedfd6c123ccdb3d81a1cda5f28aec5832b6&chainid=137",
      headers: admin(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: "Invalid query",
      details: [{ path: "/chainid", message: 'unknown field "chainid": did you mean "chainId"?' }],
    });
  });

  it("POST /risk with `maxdepth`: 400 naming it and the fields there are, not a job at another depth", async () => {
    const res = await send("POST", "/v1/risk", {
      address: "0xa68086ae239c4904597f98146bdf4278f170463e",
      chainId: 1,
      maxdepth: 7,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: "invalid_request",
      message: "Invalid body",
      details: [
        {
          path: "/maxdepth",
          message: 'unknown field "maxdepth": the fields here are address, chainId, fromDate, toDate',
        },
      ],
    });
  });

  it("a scan with `maxdepth` or `chain_id`: 400 suggesting maxDepth and chainId", async () => {
    const res = await send("POST", `/v1/projects/${svc.project.id}/addresses/scan-risk`, {
      addresses: [{ address: "0xa68086ae239c4904597f98146bdf4278f170463e", chain_id: "1" }],
      maxdepth: 7,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { path: "/addresses/0/chain_id", message: 'unknown field "chain_id": did you mean "chainId"?' },
      { path: "/maxdepth", message: 'unknown field "maxdepth": did you mean "maxDepth"?' },
      { path: "/addresses/0/chainId", message: "must have required property 'chainId'" },
    ]);
  });
});

// The bodies the public clients of the original service send, field for field (docs/api.md lists their sources):
// every field is one the service reads, so none is refused.
describe("the original service's clients' bodies", () => {
  const wallet = "0x33a8cedfd6c123ccdb3d81a1cda5f28aec5832b6";

  it("POST /projects/{projectId}/keys {label}", async () => {
    const res = await send("POST", `/v1/projects/${svc.project.id}/keys`, { label: "Some label" });
    expect(res.statusCode, res.body).toBe(201);
  });

  it("POST /projects/{projectId}/addresses {address, description, foreign_user_id} (with chainId)", async () => {
    const res = await send("POST", `/v1/projects/${svc.project.id}/addresses`, {
      address: wallet,
      description: "Wallet principal del usuario",
      foreign_user_id: "user-123",
      chainId: 1,
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it("POST /projects/{projectId}/addresses/scan-risk {addresses[{address, chainId}], maxDepth, skipExisting}", async () => {
    const res = await send("POST", `/v1/projects/${svc.project.id}/addresses/scan-risk`, {
      addresses: [{ address: wallet, chainId: "1" }],
      maxDepth: 3,
      skipExisting: true,
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it("POST /projects/{projectId}/investigations {name, wallet, chainId, incremental}", async () => {
    const res = await send("POST", `/v1/projects/${svc.project.id}/investigations`, {
      name: "ArkScore wallet risk 0x33a8...32b6",
      wallet,
      chainId: "1",
      incremental: false,
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it("POST /risk {address, fromDate, toDate, chainId}", async () => {
    const res = await send("POST", "/v1/risk", {
      address: wallet,
      fromDate: "2025-01-01",
      toDate: "2025-06-30",
      chainId: 1,
    });
    expect(res.statusCode, res.body).toBe(202);
  });
});
