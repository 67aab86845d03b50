// Contract suite: EVERY operation of the OpenAPI document a running service serves has an example for each of its
// path and query parameters, for its JSON body and for each media type of its success answer, and each example is
// valid against its own schema (the body's as strictly as the service validates bodies: no unknown field, no
// string for a number), so that the docs page's "Try it out" fills in values that work, not "string", and an
// integrator sees what comes back. The examples are the devnet scenario's (src/devnet/examples.ts and beside it).
// A route added later without one fails here.
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoAddresses } from "../../src/devnet/addresses.ts";
import { devnetApiExamples } from "../../src/devnet/examples.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, coerceTypes: false, useDefaults: false }));

interface Parameter {
  name: string;
  in: string;
  schema: object;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Media {
  schema: object;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface OperationObject {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}

let svc: TestService;
let doc: { paths: Record<string, Record<string, OperationObject>> };
const operations: { name: string; method: string; path: string; op: OperationObject }[] = [];

beforeAll(async () => {
  svc = await startTestService({ env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" } });
  const url = await svc.listen(0);
  const res = await fetch(`${url}/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as typeof doc;
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods))
      if (["get", "post", "put", "patch", "delete"].includes(method))
        operations.push({ name: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, op });
});
afterAll(async () => {
  await svc?.stop();
});

/** The examples a parameter or media object carries: `example`, or each value of `examples`. */
const examplesOf = (holder: { example?: unknown; examples?: Record<string, { value: unknown }> }) => [
  ...(holder.example !== undefined ? [holder.example] : []),
  ...Object.values(holder.examples ?? {}).map((e) => e.value),
];

const invalid = (schema: object, value: unknown): string | undefined => {
  const validate = ajv.compile(schema);
  return validate(value) ? undefined : ajv.errorsText(validate.errors);
};

describe("OpenAPI examples", () => {
  it("the document has operations with parameters and bodies to check, and is the same when served again", async () => {
    expect(operations.filter((o) => o.op.parameters?.length).length).toBeGreaterThan(20);
    expect(operations.filter((o) => o.op.requestBody).length).toBeGreaterThan(8);
    expect((await svc.app!.inject({ url: "/v1/openapi.json" })).json()).toEqual(doc);
  });

  it("every path and query parameter has an example that its schema accepts", () => {
    const problems: string[] = [];
    for (const { name, op } of operations) {
      for (const p of (op.parameters ?? []).filter((p) => p.in === "path" || p.in === "query")) {
        const values = examplesOf(p);
        if (values.length === 0) problems.push(`${name}: ${p.in} parameter ${p.name} has no example`);
        for (const value of values) {
          const why = invalid(p.schema, value);
          if (why) problems.push(`${name}: ${p.name} example ${JSON.stringify(value)}: ${why}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("every JSON body has an example that its schema accepts as strictly as the service", () => {
    const problems: string[] = [];
    for (const { name, op } of operations) {
      if (!op.requestBody) continue;
      const media = op.requestBody.content?.["application/json"];
      if (!media) {
        problems.push(`${name}: its body is not application/json`);
        continue;
      }
      const values = examplesOf(media);
      if (values.length === 0) problems.push(`${name}: its body has no example`);
      for (const value of values) {
        const why = invalid(media.schema, value);
        if (why) problems.push(`${name}: body example ${JSON.stringify(value)}: ${why}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("every operation answers with an example of each media type its success answer comes in, valid against its schema", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const { name, op } of operations) {
      const successes = Object.entries(op.responses ?? {}).filter(([status]) => /^[23]/.test(status));
      if (successes.length === 0) problems.push(`${name}: documents no success answer`);
      for (const [status, response] of successes) {
        const content = Object.entries(response.content ?? {});
        // A redirect (3xx) and 204 have no body: nothing to exemplify. Any other success must describe its body.
        if (content.length === 0) {
          if (!/^(3\d\d|204)$/.test(status)) problems.push(`${name} ${status}: describes no body`);
          continue;
        }
        for (const [type, media] of content) {
          const values = examplesOf(media);
          if (values.length === 0) problems.push(`${name} ${status} ${type}: no example`);
          for (const value of values) {
            checked++;
            if (type.includes("json")) {
              const why = invalid(media.schema, value);
              if (why)
                problems.push(`${name} ${status}: example ${JSON.stringify(value).slice(0, 200)}: ${why}`);
            } else if (typeof value !== "string" || value.trim() === "") {
              // Markdown, XML, text files: the example is the document itself.
              problems.push(`${name} ${status} ${type}: the example is not the text of the file`);
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(60);
  });

  it("every answer example given is for a status and media type its operation documents", () => {
    const stray: string[] = [];
    for (const [name, byStatus] of Object.entries(devnetApiExamples().responses ?? {})) {
      const [method = "", path = ""] = name.split(" ");
      const op = doc.paths[path]?.[method.toLowerCase()];
      for (const [status, byMedia] of Object.entries(byStatus))
        for (const type of Object.keys(byMedia))
          if (!op?.responses?.[status]?.content?.[type]) stray.push(`${name} ${status} ${type}`);
    }
    expect(stray).toEqual([]);
  });

  it("no example is the placeholder a generator writes ('string', 'stringstri...')", () => {
    const text = JSON.stringify(
      operations.map(({ op }) => [
        (op.parameters ?? []).map(examplesOf),
        op.requestBody?.content?.["application/json"]
          ? examplesOf(op.requestBody.content["application/json"])
          : [],
        Object.values(op.responses ?? {}).flatMap((r) => Object.values(r.content ?? {}).map(examplesOf)),
      ]),
    );
    expect(text).not.toMatch(/"string\w*"/);
  });

  it("the examples are the devnet scenario's: its chain and addresses", () => {
    const text = JSON.stringify(doc.paths);
    expect(text).toContain("31337");
    const used = demoAddresses().filter((a) => text.includes(a.address));
    expect(used.map((a) => a.pattern)).toEqual(
      expect.arrayContaining([
        "mixing",
        "peel_chain",
        "round_tripping",
        "wash_trading",
        "sanctions_exposure",
      ]),
    );
  });

  it("the service does not refuse its own GET examples as invalid (as Try it out sends them)", async () => {
    const refused: string[] = [];
    for (const { name, method, path, op } of operations.filter((o) => o.method === "GET")) {
      const params = op.parameters ?? [];
      const value = (p: Parameter) => String(examplesOf(p)[0]);
      const url =
        path.replace(/\{([^}]+)\}/g, (_, n: string) => {
          const p = params.find((x) => x.in === "path" && x.name === n);
          return p ? (n === "*" ? value(p) : encodeURIComponent(value(p))) : n;
        }) +
        params
          .filter((p) => p.in === "query")
          .map((p, i) => `${i === 0 ? "?" : "&"}${p.name}=${encodeURIComponent(value(p))}`)
          .join("");
      const res = await svc.app!.inject({ method, url, headers: auth(svc.project.keys.admin) });
      // 404 (nothing made yet), 403 (an expired signed URL) and 503 (no chain node here) are answers; 400 is not.
      if (res.statusCode === 400 || res.statusCode === 500)
        refused.push(`${name} (${url}): ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(refused).toEqual([]);
  });
});
