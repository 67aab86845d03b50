// Contract suite: what the OpenAPI document and its docs page tell an integrator beyond the operations' examples
// (openapi-examples.test.ts). The document describes the notification the service POSTs to the integrator as a
// 3.1 `webhook`, with both signing schemes' headers and an example signed as the service signs; the error envelope is
// one component every error answer points to; no schema is an `anyOf` of constants (a closed list of words is an
// enum, and a refused value is told the values allowed, in English and Spanish); the docs page carries the
// project's name, not the framework's.
import crypto from "node:crypto";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_WEBHOOK_AT, EXAMPLE_WEBHOOK_SECRETS } from "../../src/devnet/webhook-example.ts";
import { sampleNotification } from "../../src/integrator/endpoint-check.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false }));

interface HeaderParameter {
  name: string;
  in: string;
  description: string;
  example?: string;
}
interface Webhook {
  parameters: HeaderParameter[];
  requestBody: { content: Record<string, { schema: object; example?: unknown }> };
  responses: Record<string, { description: string }>;
}
type Document = {
  webhooks?: Record<string, { post?: Webhook }>;
  components: { schemas: Record<string, object> };
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
};

/** A JSON value with the keys of every object sorted, inside arrays too: the body as the service sends it. */
const sortedDeep = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sortedDeep)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, sortedDeep((value as Record<string, unknown>)[key])]),
        )
      : value;

let svc: TestService;
let doc: Document;

beforeAll(async () => {
  svc = await startTestService();
  doc = (await svc.app!.inject({ url: "/v1/openapi.json" })).json() as Document;
});
afterAll(async () => {
  await svc?.stop();
});

describe("the webhook an integrator receives", () => {
  const post = () => {
    const found = doc.webhooks?.notification?.post;
    if (!found) throw new Error("the document has no notification webhook");
    return found;
  };

  it("is documented with its body, the headers of both signing schemes and the answers it expects", () => {
    const webhook = post();
    expect(webhook.parameters.filter((p) => p.in === "header").map((p) => p.name)).toEqual([
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
      "x-wavynode-hmac",
      "x-wavynode-timestamp",
    ]);
    for (const p of webhook.parameters)
      expect(p.description).toMatch(/^(standard-webhooks|hmac-canonical): /);
    expect(Object.keys(webhook.responses)).toEqual(expect.arrayContaining(["2XX", "default"]));
    const media = webhook.requestBody.content["application/json"];
    expect(media?.example).toBeDefined();
    const validate = ajv.compile(media?.schema ?? {});
    expect(validate(media?.example), ajv.errorsText(validate.errors)).toBe(true);
    // It takes every body the service sends (the endpoint check's sample, an error about a client) and refuses one
    // of another shape: it describes, not merely accepts.
    expect(
      validate(JSON.parse(JSON.stringify(sampleNotification(1, "ana", new Date())))),
      ajv.errorsText(validate.errors),
    ).toBe(true);
    expect(
      validate({
        type: "error",
        data: "User ana (address 0x…, address id 1): the client's profile could not be read",
      }),
    ).toBe(true);
    expect(validate({ type: "notification", data: { id: 1 } })).toBe(false);
  });

  it("carries an example whose headers are the signatures of its body in each scheme, as the headers say", () => {
    // Computed here from the headers' descriptions (docs/api.md), not by the service's signer: an integrator's code
    // checked against the example is checked against what the document says.
    const webhook = post();
    const header = (name: string) => webhook.parameters.find((p) => p.name === name)?.example ?? "";
    const body = webhook.requestBody.content["application/json"]?.example;
    const hmac = (key: Buffer | string, text: string) =>
      crypto.createHmac("sha256", key).update(text).digest("base64");
    const sent = JSON.stringify(sortedDeep(body));
    const standardKey = Buffer.from(
      EXAMPLE_WEBHOOK_SECRETS["standard-webhooks"].slice("whsec_".length),
      "base64",
    );
    expect(header("webhook-timestamp")).toBe(String(EXAMPLE_WEBHOOK_AT / 1000));
    expect(header("webhook-signature")).toBe(
      `v1,${hmac(standardKey, `${header("webhook-id")}.${header("webhook-timestamp")}.${sent}`)}`,
    );
    expect(header("x-wavynode-timestamp")).toBe(String(EXAMPLE_WEBHOOK_AT));
    expect(header("x-wavynode-hmac")).toBe(
      hmac(
        EXAMPLE_WEBHOOK_SECRETS["hmac-canonical"],
        `POST::/webhook::${sent}::${header("x-wavynode-timestamp")}`,
      ),
    );
  });
});

describe("the error envelope", () => {
  it("is one component, which every error answer of /v1 points to, with an example of its status", () => {
    const error = doc.components.schemas.Error as {
      required?: string[];
      properties?: Record<string, object>;
    };
    expect(error.required).toEqual(expect.arrayContaining(["success", "error", "message"]));
    expect(error.properties?.error).toMatchObject({
      enum: expect.arrayContaining(["invalid_request", "not_found"]),
    });
    const validate = ajv.compile(error);
    let errors = 0;
    // (/auth/login's 400 has a shape of its own: `totp_required` with the e-mail's state.)
    for (const methods of Object.entries(doc.paths).flatMap(([path, m]) =>
      path.startsWith("/v1/") ? [m] : [],
    ))
      for (const op of Object.values(methods))
        for (const [status, response] of Object.entries(op.responses))
          if (Number(status) >= 400 && response.content?.["application/json"]) {
            errors++;
            const media = response.content["application/json"] as { schema: object; example?: unknown };
            expect(media.schema).toEqual({ $ref: "#/components/schemas/Error" });
            expect(validate(media.example), `${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
          }
    expect(errors).toBeGreaterThan(300);
  });
});

describe("closed lists of words", () => {
  it("are enums: no anyOf in the whole document has only constants for members", () => {
    const constant = (m: unknown) =>
      m !== null &&
      typeof m === "object" &&
      ("const" in m ||
        (Array.isArray((m as { enum?: unknown }).enum) && (m as { enum: unknown[] }).enum.length === 1));
    const found: string[] = [];
    let enums = 0;
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) {
        node.forEach((child, i) => {
          walk(child, `${where}/${i}`);
        });
        return;
      }
      if (node === null || typeof node !== "object") return;
      const anyOf = (node as { anyOf?: unknown }).anyOf;
      if (Array.isArray(anyOf) && anyOf.length > 1 && anyOf.every(constant)) found.push(where);
      if (Array.isArray((node as { enum?: unknown }).enum) && (node as { enum: unknown[] }).enum.length > 1)
        enums++;
      for (const [key, child] of Object.entries(node)) walk(child, `${where}/${key}`);
    };
    walk(doc, "");
    expect(found).toEqual([]);
    expect(enums).toBeGreaterThan(50);
  });

  it("refuse a value outside them naming the values allowed, in the request's language", async () => {
    const ask = (lang: string) =>
      svc.app!.inject({
        url: `/v1/projects/${svc.project.id}/alerts?status=archived`,
        headers: { ...auth(svc.project.keys.viewer), "accept-language": lang },
      });
    const en = await ask("en");
    expect(en.statusCode).toBe(400);
    expect(en.json().details).toEqual([
      {
        path: "/status",
        message: "must be equal to one of the allowed values: open, in_review, escalated, closed",
      },
    ]);
    const es = await ask("es");
    expect(es.statusCode).toBe(400);
    expect(es.json().details).toEqual([
      {
        path: "/status",
        message: "debe ser uno de los valores admitidos: open, in_review, escalated, closed",
      },
    ]);
  });

  it("refuse a value outside a list that may also be null naming the values allowed", async () => {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.developer),
      payload: {
        address: "0x00000000000000000000000000000000000a11ce",
        chainId: 31337,
        foreign_user_id: "ana",
        jurisdiction: "AR",
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(
      expect.arrayContaining([
        { path: "/jurisdiction", message: expect.stringMatching(/allowed values: MX, CO, SV, GT$/) },
      ]),
    );
  });
});

describe("the docs page", () => {
  it("carries the project's name in its title, its header's logo and its icon, not the framework's", async () => {
    const page = await svc.app!.inject({ url: "/v1/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("<title>Vigía API</title>");
    expect(page.body).not.toContain("<title>Swagger UI</title>");
    const icon = page.body.match(/<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/)?.[1];
    expect(icon).toBeDefined();
    const favicon = await svc.app!.inject({ url: icon?.startsWith("/") ? icon : `/v1/docs/${icon}` });
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers["content-type"]).toContain("image/svg+xml");

    const initializer = await svc.app!.inject({ url: "/v1/docs/static/swagger-initializer.js" });
    expect(initializer.statusCode).toBe(200);
    const logo = initializer.body.match(/data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/)?.[1];
    expect(logo).toBeDefined();
    expect(Buffer.from(logo ?? "", "base64").toString("utf8")).toContain(">Vigía API</text>");
  });
});
