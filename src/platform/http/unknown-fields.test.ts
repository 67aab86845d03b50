// A body field the schema does not list is refused with a 400 that names it (and the field probably meant), every
// such field at once, beside the first other error; a route that takes no body refuses one with fields.
import { Type } from "@sinclair/typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHttpApp, type HttpApp } from "./app.ts";
import { closedBody, nearestName } from "./unknown-fields.ts";

let app: HttpApp;

const Scan = Type.Object({
  addresses: Type.Array(Type.Object({ address: Type.String(), chainId: Type.String() }), { minItems: 1 }),
  maxDepth: Type.Optional(Type.Integer({ minimum: 1, maximum: 7, default: 3 })),
  skipExisting: Type.Optional(Type.Boolean()),
});

beforeAll(async () => {
  app = await buildHttpApp({
    logLevel: "silent",
    publicUrl: "http://127.0.0.1",
    rateLimitPerMinute: 1000,
    authenticate: async () => undefined,
    readiness: {},
    routes: (v1) => {
      v1.post("/scan", { config: { access: "public" }, schema: { body: Scan } }, async (req) => req.body);
      v1.post(
        "/settings",
        {
          config: { access: "public" },
          schema: {
            body: Type.Object({
              name: Type.Optional(Type.String()),
              routing: Type.Optional(
                Type.Union([Type.Object({ basis: Type.String(), otherwise: Type.String() }), Type.Null()]),
              ),
              free: Type.Optional(Type.Object({ a: Type.String() }, { additionalProperties: true })),
              tags: Type.Optional(Type.Record(Type.String(), Type.String())),
            }),
          },
        },
        async (req) => req.body,
      );
      v1.post("/rotate", { config: { access: "public" } }, async () => ({ rotated: true }));
    },
  });
});
afterAll(async () => {
  await app?.close();
});

const post = (url: string, payload: unknown) =>
  app.inject({
    method: "POST",
    url,
    payload: JSON.stringify(payload),
    headers: { "content-type": "application/json" },
  });

describe("unknown body fields", () => {
  it("refuses a misspelt optional field, naming it and the field meant, instead of ignoring it", async () => {
    const res = await post("/v1/scan", { addresses: [{ address: "0xabc", chainId: "1" }], maxdepth: 7 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: "invalid_request",
      message: "Invalid body",
      details: [{ path: "/maxdepth", message: 'unknown field "maxdepth": did you mean "maxDepth"?' }],
    });
  });

  it("names every unknown field at once, at any depth, with the first other error after them", async () => {
    const res = await post("/v1/scan", {
      adresses: [],
      addresses: [
        { address: "0xabc", chainId: "1" },
        { address: "0xdef", chain_id: "1" },
      ],
      max_depth: 2,
      colour: "red",
      skipExisting: "yes",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { path: "/adresses", message: 'unknown field "adresses": did you mean "addresses"?' },
      { path: "/addresses/1/chain_id", message: 'unknown field "chain_id": did you mean "chainId"?' },
      { path: "/max_depth", message: 'unknown field "max_depth": did you mean "maxDepth"?' },
      {
        path: "/colour",
        message: 'unknown field "colour": the fields here are addresses, maxDepth, skipExisting',
      },
      { path: "/addresses/1/chainId", message: "must have required property 'chainId'" },
    ]);
  });

  it("names an unknown field when a required one is missing too (a misspelt required field)", async () => {
    const res = await post("/v1/scan", { adresses: [{ address: "0xabc", chainId: "1" }] });
    expect(res.json().details).toEqual([
      { path: "/adresses", message: 'unknown field "adresses": did you mean "addresses"?' },
      { path: "/addresses", message: "must have required property 'addresses'" },
    ]);
  });

  it("follows the object branch of a union with null; leaves open what a schema leaves open", async () => {
    const res = await post("/v1/settings", { routing: { basis: "residence", otherwize: "MX" } });
    expect(res.json().details).toEqual([
      { path: "/routing/otherwize", message: 'unknown field "otherwize": did you mean "otherwise"?' },
      { path: "/routing/otherwise", message: "must have required property 'otherwise'" },
      // Ajv's own account of the union, as for any error in one.
      { path: "/routing", message: "must be null" },
      { path: "/routing", message: "must match a schema in anyOf" },
    ]);
    const open = await post("/v1/settings", {
      free: { a: "x", b: "y" },
      tags: { any: "thing" },
      routing: null,
    });
    expect(open.statusCode).toBe(200);
    expect(open.json()).toEqual({ free: { a: "x", b: "y" }, tags: { any: "thing" }, routing: null });
  });

  it("cuts a long unknown name in the answer", async () => {
    const name = "x".repeat(5000);
    const res = await post("/v1/settings", { [name]: 1 });
    const [detail] = res.json().details;
    expect(detail.path).toBe(`/${"x".repeat(80)}…`);
    expect(detail.message.length).toBeLessThan(200);
  });

  it("accepts a body of known fields, defaults filled in", async () => {
    const res = await post("/v1/scan", { addresses: [{ address: "0xabc", chainId: "1" }] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ addresses: [{ address: "0xabc", chainId: "1" }], maxDepth: 3 });
  });

  it("a route that takes no body refuses one with fields, and lets {} and no body through", async () => {
    const res = await post("/v1/rotate", { reason: "leaked" });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { path: "/reason", message: 'unknown field "reason": this operation takes no body' },
    ]);
    expect((await post("/v1/rotate", {})).statusCode).toBe(200);
    expect((await app.inject({ method: "POST", url: "/v1/rotate" })).statusCode).toBe(200);
  });

  it("the OpenAPI document shows the objects closed", async () => {
    const doc = (await app.inject({ url: "/v1/openapi.json" })).json();
    const schema = doc.paths["/v1/scan"].post.requestBody.content["application/json"].schema;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.addresses.items.additionalProperties).toBe(false);
  });
});

describe("nearestName", () => {
  const fields = ["address", "chainId", "fromDate", "toDate", "foreign_user_id", "maxDepth"];
  it.each([
    ["maxdepth", "maxDepth"],
    ["max_depth", "maxDepth"],
    ["chain_id", "chainId"],
    ["chainid", "chainId"],
    ["foreignUserId", "foreign_user_id"],
    ["adress", "address"],
    ["fromdate", "fromDate"],
    ["chain", "chainId"],
    ["toDaet", "toDate"],
  ])("%s -> %s", (typo, meant) => expect(nearestName(typo, fields)).toBe(meant));

  it.each(["colour", "x", "depth", "wallet"])("%s -> nothing", (name) =>
    expect(nearestName(name, fields)).toBeUndefined(),
  );
});

describe("closedBody", () => {
  it("closes objects that list their properties, in copies, and leaves data and explicit choices alone", () => {
    const shared = Type.Object({ a: Type.String() });
    const body = Type.Object({
      one: shared,
      open: Type.Object({ b: Type.String() }, { additionalProperties: true }),
      map: Type.Record(Type.String(), Type.Number()),
      list: Type.Array(Type.Union([shared, Type.Null()])),
      withDefault: Type.Optional(Type.Object({ c: Type.String() }, { default: { c: "x", extra: 1 } })),
    });
    const closed = closedBody(body) as unknown as { properties: { map: object } };
    expect(closed).toMatchObject({
      additionalProperties: false,
      properties: {
        one: { additionalProperties: false },
        open: { additionalProperties: true },
        list: { items: { anyOf: [{ additionalProperties: false }, { type: "null" }] } },
        withDefault: { additionalProperties: false, default: { c: "x", extra: 1 } },
      },
    });
    expect((closed as { properties: { map: object } }).properties.map).not.toHaveProperty(
      "additionalProperties",
    );
    expect(shared).not.toHaveProperty("additionalProperties");
    expect(body).not.toHaveProperty("additionalProperties");
  });
});
