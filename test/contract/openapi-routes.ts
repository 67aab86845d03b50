// Shared by the contract suites in this folder: reads the service's own OpenAPI document and turns each
// operation into something a test can call (method, path template, parameters, body schema, required role),
// with plausible valid values for its path and query parameters. Routes added later are picked up here
// without editing the tests.
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import type { HttpApp } from "../../src/platform/http/app.ts";
import { isRole, type Role } from "../../src/platform/http/auth.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export type JsonSchema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
  additionalProperties?: boolean | JsonSchema;
};

export interface Param {
  name: string;
  in: "path" | "query";
  /** Required and without a default (a parameter with a default may be left out). */
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI path template, e.g. `/v1/projects/{projectId}/keys`. */
  path: string;
  /** True when the operation needs an API key (`security` in the document). */
  secured: boolean;
  /** The lowest role allowed (the `x-required-role` extension). */
  role: Role | undefined;
  pathParams: Param[];
  queryParams: Param[];
  /** The application/json request body schema, when the operation takes a body. */
  body: JsonSchema | undefined;
  /** The body must be sent (`requestBody.required`); otherwise none, an empty one or `null` means no body. */
  bodyRequired: boolean;
}

export const label = (op: Operation) => `${op.method} ${op.path}`;

/** Every operation of the service's `GET /v1/openapi.json`. */
export async function loadOperations(app: HttpApp): Promise<Operation[]> {
  const res = await app.inject({ method: "GET", url: "/v1/openapi.json" });
  if (res.statusCode !== 200) throw new Error(`openapi.json answered ${res.statusCode}`);
  const doc = res.json() as { paths: Record<string, Record<string, Record<string, unknown>>> };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const params = ((raw.parameters ?? []) as Array<Param & { required?: boolean }>)
        .filter((p) => p.in === "path" || p.in === "query")
        .map((p) => ({
          name: p.name,
          in: p.in,
          schema: p.schema,
          required: p.in === "path" || (Boolean(p.required) && p.schema.default === undefined),
        }));
      const security = raw.security as unknown[] | undefined;
      const role = raw["x-required-role"];
      const requestBody = raw.requestBody as
        | { required?: boolean; content?: Record<string, { schema?: JsonSchema }> }
        | undefined;
      const content = requestBody?.content;
      operations.push({
        method: method.toUpperCase() as Operation["method"],
        path,
        secured: Array.isArray(security) && security.length > 0,
        role: isRole(role) ? role : undefined,
        pathParams: params.filter((p) => p.in === "path"),
        queryParams: params.filter((p) => p.in === "query"),
        body: content?.["application/json"]?.schema,
        bodyRequired: requestBody?.required === true,
      });
    }
  }
  return operations;
}

// Path and query values arrive as strings and are coerced, as the service does.
const paramAjv = addFormats(new Ajv({ coerceTypes: "array", strict: false, useDefaults: true }));
const compiled = new Map<string, ReturnType<Ajv["compile"]>>();

/** True when `value` (a raw path or query string) satisfies the parameter's schema. */
export function acceptsParam(param: Param, value: string): boolean {
  const schema = { type: "object", properties: { [param.name]: param.schema }, required: [param.name] };
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = paramAjv.compile(schema);
    compiled.set(key, validate);
  }
  return validate({ [param.name]: value }) as boolean;
}

export interface Scope {
  projectId: number;
}

/** A valid value for a path or query parameter: the test's project for `projectId`, else something plausible. */
export function plausibleValue(param: Param, scope: Scope): string {
  if (param.name === "projectId") return String(scope.projectId);
  const s = param.schema;
  const candidates: string[] = [];
  if (/chain/i.test(param.name)) candidates.push("1");
  if (Array.isArray(s.enum) && s.enum.length > 0) candidates.push(String(s.enum[0]));
  // A union of literals (TypeBox's Type.Union of Type.Literal): its first value.
  for (const option of s.anyOf ?? []) {
    if (option.const !== undefined) candidates.push(String(option.const));
    if (Array.isArray(option.enum) && option.enum.length > 0) candidates.push(String(option.enum[0]));
  }
  if (s.default !== undefined) candidates.push(String(s.default));
  if (/address|wallet/i.test(param.name)) candidates.push(`0x${"ab".repeat(20)}`);
  // An id of the right shape that no test creates: reads answer 404, deletes change nothing.
  candidates.push("999999", "00000000-0000-4000-8000-000000000000", `0x${"ab".repeat(20)}`, "2026-01", "1");
  if (typeof s.minimum === "number") candidates.push(String(s.minimum));
  candidates.push("abc");
  const found = candidates.find((c) => acceptsParam(param, c));
  if (found === undefined) throw new Error(`no plausible value for parameter ${param.name}`);
  return found;
}

/** Builds `/v1/...?...` from a path template, raw (already encoded) path values and raw query pairs. */
export function buildUrl(op: Operation, pathValues: Record<string, string>, query: Array<[string, string]>) {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = pathValues[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${op.path}`);
    return value;
  });
  const qs = query.map(([k, v]) => `${k}=${v}`).join("&");
  return qs ? `${path}?${qs}` : path;
}

/** Valid path values and required query pairs (URL-encoded) for an operation. */
export function validRequestParts(op: Operation, scope: Scope) {
  const pathValues: Record<string, string> = {};
  for (const p of op.pathParams) pathValues[p.name] = encodeURIComponent(plausibleValue(p, scope));
  const query: Array<[string, string]> = op.queryParams
    .filter((p) => p.required || p.name === "projectId")
    .map((p) => [p.name, encodeURIComponent(plausibleValue(p, scope))]);
  return { pathValues, query };
}

/** The URL of an operation with valid parameters, optionally overriding some of them (raw, encoded). */
export function validUrl(op: Operation, scope: Scope, override: Record<string, string> = {}): string {
  const { pathValues, query } = validRequestParts(op, scope);
  for (const [name, value] of Object.entries(override)) {
    if (name in pathValues) pathValues[name] = value;
    else {
      const i = query.findIndex(([k]) => k === name);
      if (i >= 0) query[i] = [name, value];
      else query.push([name, value]);
    }
  }
  return buildUrl(op, pathValues, query);
}
