// Contract suite: bad input on EVERY /v1 route gets the right 4xx and the error envelope
// `{success:false, error, message}` (docs/api.md, "Envelope and errors"): never a 5xx, never a stack trace, SQL or an
// internal path in the body. Requests are derived with fast-check (fixed seeds, so a failure reproduces) from
// the route schemas in the service's own OpenAPI document: invalid JSON, wrong top-level types, body schema
// mutations (dropped required fields, swapped types, over-long and huge strings, NUL and lone surrogates, bad
// enum values, unknown fields, deep nesting), wrong content types, bodies over 1 MiB, and path and query junk.
// Only invalid inputs are generated (each checked against the schema), so no request may succeed. They are
// sent with a valid admin key, so they get past authentication.
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../../src/platform/errors.ts";
import { BODY_LIMIT } from "../../src/platform/http/app.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import {
  acceptsParam,
  buildUrl,
  type JsonSchema,
  label,
  loadOperations,
  type Operation,
  type Param,
  validRequestParts,
  validUrl,
} from "./openapi-routes.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

let svc: TestService;
let operations: Operation[];
let sent = 0;

beforeAll(async () => {
  // The generated traffic comes from one key; the per-key rate limit must not turn it into 429s.
  svc = await startTestService({ env: { VIGIA_RATE_LIMIT_PER_MINUTE: "10000000" } });
  operations = await loadOperations(svc.app!);
});
afterAll(async () => {
  await svc?.stop();
});

const scope = () => ({ projectId: svc.project.id });
const adminHeaders = () => auth(svc.project.keys.admin);
const json = { "content-type": "application/json" };

// ---------------------------------------------------------------------------------------------------------
// Sending and checking

interface BadRequest {
  method: Operation["method"];
  url: string;
  headers?: Record<string, string>;
  payload?: string;
}

/** Anything a server-side failure could leak: stack frames, source paths, SQL and driver messages. */
const LEAK =
  /\bat \S+ \(|\bat (file|node):|node_modules|\/src\/|\.[cm]?[jt]s:\d+|syntax error at|relation "|violates|duplicate key|invalid input syntax|invalid byte sequence|\bpglite\b|\bkysely\b|\bSQLSTATE\b|ECONNREFUSED|(Type|Range|Reference|Syntax)Error|FST_ERR/i;

/** Sends one bad request and throws (with the request in the message) unless it got an allowed 4xx envelope. */
async function expectRejected(req: BadRequest, allowed: number[], message?: string): Promise<void> {
  sent++;
  const res = await svc.app!.inject({
    method: req.method,
    url: req.url,
    headers: { ...adminHeaders(), ...req.headers },
    ...(req.payload === undefined ? {} : { payload: req.payload }),
  });
  const describeReq = () =>
    `${req.method} ${req.url.slice(0, 300)} ${JSON.stringify(req.headers ?? {})} ` +
    `${(req.payload ?? "").slice(0, 300)} -> ${res.statusCode} ${res.body.slice(0, 500)}`;
  if (!allowed.includes(res.statusCode)) throw new Error(`status not in ${allowed}: ${describeReq()}`);
  let body: { success?: unknown; error?: unknown; message?: unknown };
  try {
    body = res.json();
  } catch {
    throw new Error(`body is not JSON: ${describeReq()}`);
  }
  if (body.success !== false || typeof body.error !== "string" || typeof body.message !== "string") {
    throw new Error(`not the error envelope: ${describeReq()}`);
  }
  if (ERROR_STATUS[body.error as keyof typeof ERROR_STATUS] !== res.statusCode) {
    throw new Error(`error code does not match the status: ${describeReq()}`);
  }
  if (message !== undefined && body.message !== message)
    throw new Error(`message not ${message}: ${describeReq()}`);
  if (LEAK.test(res.body)) throw new Error(`internal detail leaked: ${describeReq()}`);
}

let generated = 0;
/** A fixed seed per property, from its name: adding a route changes no other property's requests. */
const seedOf = (name: string) => [...name].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 0x5eed);

/** Runs a property with a fixed seed; fast-check prints the seed and the counterexample on failure. */
async function check<T>(
  name: string,
  arb: fc.Arbitrary<T>,
  numRuns: number,
  run: (value: T) => Promise<void>,
) {
  await fc.assert(
    fc.asyncProperty(arb, async (value) => {
      generated++;
      await run(value);
    }),
    { numRuns, seed: seedOf(name) },
  );
}

// ---------------------------------------------------------------------------------------------------------
// What is valid: the body schema (strict, as the service validates bodies), no NUL or lone surrogate in any
// string (the service refuses them), and for path and query parameters the coercion the service applies
// (plain decimal integers only).

const bodyAjv = addFormats(new Ajv({ useDefaults: true, coerceTypes: false, strict: false }));
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (text: string) => text.includes("\u0000") || LONE_SURROGATE.test(text);

function hasUnstorable(value: unknown): boolean {
  const pending = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string" && unstorable(item)) return true;
    if (item !== null && typeof item === "object") {
      for (const [k, v] of Object.entries(item)) {
        if (unstorable(k)) return true;
        pending.push(v);
      }
    }
  }
  return false;
}

const validators = new Map<JsonSchema, ReturnType<typeof bodyAjv.compile>>();
function bodyIsValid(schema: JsonSchema, body: unknown): boolean {
  let validate = validators.get(schema);
  if (!validate) {
    validate = bodyAjv.compile(schema);
    validators.set(schema, validate);
  }
  // Ajv's useDefaults writes into the value: validate a copy (a JSON one: structuredClone recurses too deep).
  return (validate(JSON.parse(JSON.stringify(body))) as boolean) && !hasUnstorable(body);
}

function rawParamIsValid(param: Param, raw: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return false;
  }
  if (decoded.length > 500 || unstorable(decoded)) return false;
  if (param.schema.type === "integer" && !/^-?\d+$/.test(decoded)) return false;
  return acceptsParam(param, decoded);
}

// ---------------------------------------------------------------------------------------------------------
// Generators

type JsonType = "string" | "integer" | "number" | "boolean" | "null" | "array" | "object";
const JSON_TYPES: JsonType[] = ["string", "integer", "number", "boolean", "null", "array", "object"];

const branches = (s: JsonSchema): JsonSchema[] => [...(s.anyOf ?? []), ...(s.oneOf ?? [])];

/** The JSON types a schema accepts; undefined when it does not say (anything goes). */
function acceptedTypes(s: JsonSchema): Set<JsonType> | undefined {
  if (branches(s).length > 0) {
    const all = new Set<JsonType>();
    for (const b of branches(s)) {
      const t = acceptedTypes(b);
      if (!t) return undefined;
      for (const x of t) all.add(x);
    }
    return all;
  }
  if (s.type === undefined) {
    if (s.enum) return new Set(s.enum.map((v) => (v === null ? "null" : (typeof v as JsonType))));
    return undefined;
  }
  const types = new Set((Array.isArray(s.type) ? s.type : [s.type]) as JsonType[]);
  if (types.has("number")) types.add("integer");
  return types;
}

const lone = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const NASTY_TEXT = [
  "😀",
  "👩‍👩‍👧‍👦",
  "\u202Eevil\u202C",
  "مرحبا",
  "שלום",
  "e\u0301",
  "\u200B",
  "\uFEFF",
  "𝕏",
];
/** Text that is never storable: NUL or a lone surrogate somewhere in otherwise ordinary or exotic text. */
const unstorableText = fc
  .tuple(
    fc.string({ unit: "grapheme", maxLength: 10 }),
    fc.oneof(fc.constant("\u0000"), lone, fc.constant("\ud800\ud800"), fc.constant("\udc00\ud800")),
    fc.oneof(fc.string({ unit: "grapheme", maxLength: 10 }), fc.constantFrom(...NASTY_TEXT)),
  )
  .map(([a, bad, b]) => `${a}${bad}${b}`);

function valueOfType(t: JsonType): fc.Arbitrary<unknown> {
  switch (t) {
    case "string":
      return fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("1", "true", "null", "", ...NASTY_TEXT));
    case "integer":
      return fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 53, -(2 ** 53)));
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x));
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 });
    case "object":
      return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
  }
}

/** A value of a type the schema does not accept, or undefined when it accepts every type. */
function wrongType(s: JsonSchema): fc.Arbitrary<unknown> | undefined {
  const accepted = acceptedTypes(s);
  if (!accepted) return undefined;
  const wrong = JSON_TYPES.filter((t) => !accepted.has(t) && !(t === "integer" && accepted.has("number")));
  return wrong.length > 0 ? fc.oneof(...wrong.map(valueOfType)) : undefined;
}

/** A plausible (usually valid) value for a schema: the base that one mutation then breaks. */
function sample(s: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (s.enum && s.enum.length > 0) return fc.constantFrom(...s.enum);
  if (branches(s).length > 0) return fc.oneof(...branches(s).map((b) => sample(b, depth + 1)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "string":
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern));
      if (s.format === "date-time") return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      return fc.string({
        unit: "grapheme",
        minLength: s.minLength ?? 0,
        maxLength: Math.min(s.maxLength ?? 20, 20),
      });
    case "integer":
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 });
    case "number":
      return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(s.items && depth < 4 ? sample(s.items, depth + 1) : fc.jsonValue({ maxDepth: 1 }), {
        maxLength: Math.min((s.maxItems as number | undefined) ?? 3, 3),
      });
    case "object": {
      const props = s.properties ?? {};
      if (depth >= 4) return fc.constant({});
      return fc.record(
        Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sample(v, depth + 1)])) as Record<
          string,
          fc.Arbitrary<unknown>
        >,
        { requiredKeys: (s.required ?? []).filter((k) => k in props) },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const nested = (depth: number, kind: "array" | "object"): unknown => {
  let value: unknown = "deep";
  for (let i = 0; i < depth; i++) value = kind === "array" ? [value] : { a: value };
  return value;
};

/** Values that break a single property's schema: wrong types, too long, NUL/surrogates, not in the enum... */
function badValues(s: JsonSchema, depth: number): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const wrong = wrongType(s);
  if (wrong) out.push(wrong);
  const types = acceptedTypes(s);
  const stringy = types?.has("string") ?? false;
  if (stringy) {
    const max = Math.max(...[s, ...branches(s)].map((b) => (b.maxLength as number | undefined) ?? 0));
    // Longer than allowed (or, without a limit, big), but under the 1 MiB body limit.
    const n = fc.integer({ min: max > 0 ? max + 1 : 50_000, max: max > 0 ? max + 20_000 : 200_000 });
    out.push(fc.tuple(n, fc.constantFrom("x", "é", "😀", "\u202E")).map(([len, c]) => c.repeat(len)));
    out.push(unstorableText);
    if (s.enum || branches(s).some((b) => b.enum) || s.pattern || branches(s).some((b) => b.pattern)) {
      out.push(
        fc.oneof(
          fc.string({ unit: "grapheme", maxLength: 30 }),
          fc.constantFrom(...NASTY_TEXT, "ADMIN", " "),
        ),
      );
    }
  }
  if (types !== undefined && !types.has("array") && !types.has("object")) {
    out.push(
      fc
        .tuple(fc.integer({ min: 2, max: 1000 }), fc.constantFrom("array" as const, "object" as const))
        .map(([d, k]) => nested(d, k)),
    );
  }
  if (types?.has("array")) {
    const arr = [s, ...branches(s)].find((b) => b.type === "array");
    if (arr?.items && depth < 3) {
      const bad = badValues(arr.items, depth + 1);
      if (bad.length > 0) out.push(fc.array(fc.oneof(...bad), { minLength: 1, maxLength: 3 }));
    }
    if (arr?.maxItems !== undefined) {
      out.push(
        fc.array(arr.items ? sample(arr.items) : fc.integer(), { minLength: (arr.maxItems as number) + 1 }),
      );
    }
  }
  if (types?.has("object") && depth < 3) {
    for (const obj of [s, ...branches(s)].filter((b) => b.type === "object"))
      out.push(objectMutations(obj, depth + 1));
  }
  return out;
}

/** Objects that break an object schema in one place (checked against the schema by the caller). */
function objectMutations(s: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const props = s.properties ?? {};
  const required = s.required ?? [];
  const base = sample(s, depth) as fc.Arbitrary<Record<string, unknown>>;
  const muts: fc.Arbitrary<unknown>[] = [fc.constant({})];
  if (required.length > 0) {
    muts.push(
      fc.tuple(base, fc.subarray(required, { minLength: 1 })).map(([o, drop]) => {
        const copy = { ...o };
        for (const k of drop) delete copy[k];
        return copy;
      }),
    );
  }
  for (const [name, schema] of Object.entries(props)) {
    for (const bad of badValues(schema, depth)) {
      muts.push(fc.tuple(base, bad).map(([o, v]) => ({ ...o, [name]: v })));
    }
  }
  if (s.additionalProperties === false) {
    const unknownKey = fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.constantFrom(...NASTY_TEXT));
    muts.push(
      fc
        .tuple(
          base,
          unknownKey.filter((k) => !(k in props)),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map(([o, k, v]) => Object.defineProperty({ ...o }, k, { value: v, enumerable: true })),
    );
  }
  return fc.oneof(...muts);
}

/** Raw path segments and query values (already URL-encoded) that no integer or id parameter should take. */
const JUNK = [
  "%00",
  "1%00",
  "..%2f",
  "..%2f..%2fchains",
  "..%2F..%2F",
  "%2e%2e%2f",
  "%2e%2e",
  "%2F",
  "abc",
  "-1",
  "-0.5",
  "1.5",
  "1.0",
  "1e3",
  "1e309",
  "0x10",
  "0b1",
  "%201",
  "1%20",
  "+1",
  "NaN",
  "Infinity",
  "-Infinity",
  "null",
  "undefined",
  "true",
  "%5B%5D",
  "%7B%7D",
  "%27%20OR%201%3D1--",
  "%3Cscript%3E",
  "%F0%9F%98%80",
  "%E2%80%AE1",
  "%D9%A1", // Arabic-Indic digit one
  "%EF%BC%91", // fullwidth digit one
  "%ED%A0%80", // a lone surrogate as UTF-8: not a valid URL component
  "%ZZ",
  "%",
  "%E0%A4%A",
  "99999999999999999999999999",
  "2147483648",
  "9007199254740993",
];

const encodeLoose = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate cannot be encoded as UTF-8: send the bytes of its (invalid) three-byte form.
    return [...text]
      .map((ch) => {
        const c = ch.charCodeAt(0);
        if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) {
          return `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`.toUpperCase();
        }
        return encodeURIComponent(ch);
      })
      .join("");
  }
};

function junkValue(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...JUNK),
    fc.constantFrom(...JUNK).map((j) => `${valid}${j}`),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }).map(encodeURIComponent),
    unstorableText.map(encodeLoose),
    fc.integer({ min: -(2 ** 31), max: -1 }).map(String),
    fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .filter((x) => !Number.isInteger(x))
      .map((x) => encodeURIComponent(String(x))),
    fc.bigInt({ min: 2n ** 63n, max: 2n ** 256n }).map(String),
    fc.bigInt({ min: -(2n ** 256n), max: -(2n ** 63n) }).map(String),
    fc.integer({ min: 501, max: 8000 }).map((n) => "9".repeat(n)),
    fc
      .tuple(fc.integer({ min: 40, max: 2000 }), fc.constantFrom("a", "%00", "..%2f", "%F0%9F%98%80"))
      .map(([n, c]) => c.repeat(n)),
  );
}

// ---------------------------------------------------------------------------------------------------------

const byKind = () => ({
  withBody: operations.filter((op) => op.body),
  withPath: operations.filter((op) => op.pathParams.length > 0),
  withQuery: operations.filter((op) => op.queryParams.length > 0),
  // Routes that read a request body (fastify ignores GET bodies).
  readingBody: operations.filter((op) => op.method !== "GET"),
});

describe("bad input on every /v1 route", () => {
  it("discovers the routes to exercise", () => {
    const kinds = byKind();
    expect(operations.length).toBeGreaterThanOrEqual(9);
    expect(kinds.withBody.length).toBeGreaterThan(0);
    expect(kinds.withPath.length).toBeGreaterThan(0);
    expect(kinds.withQuery.length).toBeGreaterThan(0);
  });

  it("body schema mutations: 400 Invalid body", async () => {
    for (const op of byKind().withBody) {
      const schema = op.body!;
      const arb = objectMutations(schema).filter((body) => !bodyIsValid(schema, body));
      await check(`body ${label(op)}`, arb, 150, (body) =>
        expectRejected(
          { method: op.method, url: validUrl(op, scope()), payload: JSON.stringify(body), headers: json },
          [400],
          "Invalid body",
        ),
      );
    }
  });

  it("a body of the wrong top-level type: 400 Invalid body", async () => {
    for (const op of byKind().withBody) {
      const schema = op.body!;
      // `null` is no body where the body is optional (a client that sends none with a JSON content type).
      const arb = (wrongType(schema) ?? fc.constant(null)).filter(
        (body) => !bodyIsValid(schema, body) && (op.bodyRequired || body !== null),
      );
      await check(`top-level type ${label(op)}`, arb, 30, (body) =>
        expectRejected(
          { method: op.method, url: validUrl(op, scope()), payload: JSON.stringify(body), headers: json },
          [400],
          "Invalid body",
        ),
      );
    }
  });

  it("invalid JSON: 400 Invalid body", async () => {
    const broken = fc.oneof(
      fc.constantFrom(
        "",
        " ",
        "{",
        "}",
        "[1,]",
        '{"a":1,}',
        "{'label':'x'}",
        "{label:1}",
        "NaN",
        "undefined",
        '{"a":1}{"b":2}',
        '{"a":"\\x41"}',
        '{"a":"\\u12"}',
        '{"a":"line\nbreak"}',
        '{"a":"nul\u0000"}',
        "\uFEFF\uFEFF{}",
        "/* c */ {}",
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{"admin":true}}}',
        `${"[".repeat(200_000)}${"]".repeat(199_999)}`,
      ),
      // Valid JSON cut short, or with a stray character inserted.
      fc
        .tuple(
          fc.jsonValue({ maxDepth: 3 }),
          fc.nat(),
          fc.constantFrom("", ",", "}", "'", "\\", "\u0000", "]"),
        )
        .map(([v, at, c]) => {
          const text = JSON.stringify(v);
          const cut = at % Math.max(text.length, 1);
          return `${text.slice(0, cut)}${c}`;
        }),
      fc.string({ unit: "grapheme", maxLength: 40 }),
    );
    const isBroken = (text: string) => {
      try {
        JSON.parse(text);
        return false;
      } catch {
        return true;
      }
    };
    // An empty body with a JSON content type is no body where none is required (a DELETE sent by a client that
    // always sets the header); where one is, it is refused like any broken JSON.
    const blank = (text: string) => text.trim() === "";
    for (const op of byKind().readingBody) {
      const arb = broken.filter((text) => isBroken(text) && (op.bodyRequired || !blank(text)));
      await check(`invalid JSON ${label(op)}`, arb, 50, (payload) =>
        expectRejected(
          { method: op.method, url: validUrl(op, scope()), payload, headers: json },
          [400],
          "Invalid body",
        ),
      );
    }
  });

  it("a content type other than JSON: 415 unsupported_media_type", async () => {
    const token = fc.stringMatching(/^[a-z][a-z0-9.+-]{0,15}$/);
    const contentType = fc.oneof(
      fc.constantFrom(
        "text/plain",
        "text/plain; charset=utf-8",
        "application/xml",
        "text/xml",
        "text/html",
        "text/csv",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded",
        "application/octet-stream",
        "application/javascript",
        "application/jsonx",
        "application/vnd.api+json",
        "application/ld+json",
        "image/png",
        "json",
        "*/*",
      ),
      fc.tuple(token, token).map(([a, b]) => `${a}/${b}`),
    );
    const payload = fc.constantFrom("{}", '{"label":"x"}', "<a/>", "a=1&b=2", "hello", "--x\r\n\r\n--x--");
    for (const op of byKind().readingBody) {
      const arb = fc.tuple(
        contentType.filter((c) => !/^application\/json\b/i.test(c)),
        payload,
      );
      await check(`content type ${label(op)}`, arb, 40, ([type, body]) =>
        expectRejected(
          { method: op.method, url: validUrl(op, scope()), payload: body, headers: { "content-type": type } },
          [415],
        ),
      );
      // A body with no content type at all.
      await expectRejected({ method: op.method, url: validUrl(op, scope()), payload: "{}" }, [415]);
    }
  });

  it("a body over 1 MiB: 413 payload_too_large", async () => {
    for (const op of byKind().readingBody) {
      const arb = fc.tuple(fc.integer({ min: 1, max: 200_000 }), fc.constantFrom("x", "é", "😀"));
      await check(`oversize ${label(op)}`, arb, 8, ([extra, c]) => {
        const filler = c.repeat(Math.ceil((BODY_LIMIT + extra) / Buffer.byteLength(c)));
        return expectRejected(
          { method: op.method, url: validUrl(op, scope()), payload: `{"label":"${filler}"}`, headers: json },
          [413],
        );
      });
    }
  });

  it("path junk: 400 Invalid path (403 for another projectId, 404 for no such route)", async () => {
    for (const op of byKind().withPath) {
      const { pathValues, query } = validRequestParts(op, scope());
      const arb = fc
        .constantFrom(...op.pathParams)
        .chain((param) => fc.tuple(fc.constant(param), junkValue(pathValues[param.name]!)))
        .filter(([param, raw]) => !rawParamIsValid(param, raw));
      await check(`path ${label(op)}`, arb, 100, ([param, raw]) =>
        expectRejected(
          { method: op.method, url: buildUrl(op, { ...pathValues, [param.name]: raw }, query) },
          // The auth hook compares the raw projectId first: junk there is another project. A segment that is
          // a dot segment once decoded (`%2e%2e`) is resolved away by URL parsing: no such route, 404.
          param.name === "projectId" ? [400, 403, 404] : [400, 404],
        ),
      );
    }
  });

  it("query junk: 400 Invalid query", async () => {
    for (const op of byKind().withQuery) {
      const { pathValues, query } = validRequestParts(op, scope());
      const arb = fc.oneof(
        fc
          .constantFrom(...op.queryParams)
          .chain((param) => fc.tuple(fc.constant(param), junkValue("1")))
          .filter(([param, raw]) => !rawParamIsValid(param, raw))
          .map(([param, raw]) => ({
            name: param.name,
            query: [...query.filter(([k]) => k !== param.name), [param.name, raw] as [string, string]],
          })),
        // The same parameter twice.
        fc.constantFrom(...op.queryParams).map((param) => ({
          name: param.name,
          query: [...query, [param.name, "1"] as [string, string], [param.name, "2"] as [string, string]],
        })),
        // A required parameter left out.
        ...op.queryParams
          .filter((p) => p.required)
          .map((p) => fc.constant({ name: p.name, query: query.filter(([k]) => k !== p.name) })),
      );
      await check(`query ${label(op)}`, arb, 100, ({ name, query: q }) =>
        expectRejected(
          { method: op.method, url: buildUrl(op, pathValues, q) },
          name === "projectId" ? [400, 403] : [400],
        ),
      );
    }
  });

  it("deeply nested JSON (100,000 levels) in every body field: 400 Invalid body", async () => {
    for (const op of byKind().withBody) {
      for (const field of Object.keys(op.body!.properties ?? { x: {} })) {
        const nestings: Array<[string, string]> = [
          ["[", "]"],
          ['{"a":', "}"],
        ];
        for (const [open, close] of nestings) {
          const n = 100_000;
          const payload = `{"${field}":${open.repeat(n)}1${close.repeat(n)}}`;
          await expectRejected(
            { method: op.method, url: validUrl(op, scope()), payload, headers: json },
            [400],
          );
        }
      }
    }
  });

  it("sent at least 1,000 generated malformed requests", () => {
    expect(generated).toBeGreaterThanOrEqual(1000);
    console.info(`bad-input: ${generated} generated malformed requests, ${sent} in all so far`);
  });
});

describe("unicode in free text", () => {
  it("emoji, RTL and combining text in a label round-trip; NUL and lone surrogates are 400", async () => {
    const project = svc.project.id;
    for (const text of NASTY_TEXT.map((t) => `label ${t}`)) {
      const res = await svc.app!.inject({
        method: "POST",
        url: `/v1/projects/${project}/keys`,
        headers: adminHeaders(),
        payload: { label: text, role: "viewer" },
      });
      expect(res.statusCode, text).toBe(201);
      const id = res.json().data;
      const list = await svc.app!.inject({
        method: "GET",
        url: `/v1/projects/${project}/keys?limit=100`,
        headers: adminHeaders(),
      });
      expect(list.json().data.find((k: { id: number }) => k.id === id).label).toBe(text);
    }
    for (const escaped of ["a\\u0000b", "\\ud800", "x\\udfffy", "\\udc00\\ud800", "ok\\ud83d"]) {
      for (const [method, url, field] of [
        ["POST", `/v1/projects/${project}/keys`, "label"],
        ["PATCH", `/v1/projects/${project}`, "name"],
      ] as const) {
        await expectRejected(
          { method, url, payload: `{"${field}":"${escaped}"}`, headers: json },
          [400],
          "Invalid body",
        );
      }
    }
    // A valid surrogate pair written as escapes is just an emoji.
    const pair = await svc.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${project}`,
      headers: { ...adminHeaders(), ...json },
      payload: '{"name":"Proyecto \\ud83d\\ude80 \\u202eمرحبا\\u202c"}',
    });
    expect(pair.statusCode).toBe(200);
    expect(pair.json().data.name).toBe("Proyecto 🚀 \u202eمرحبا\u202c");
  });
});
