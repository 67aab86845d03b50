// Examples of the requests of every operation, written into its route's schemas when the route is registered, so
// that the OpenAPI document carries one for each parameter and body and the docs page's "Try it out" fills in
// values that work (not "string" and 0). Which values is the caller's business (the composition root gives those of
// the devnet scenario); an example a route's schema gives itself is kept.
import type { RouteOptions } from "fastify";

export interface RequestExamples {
  /** A path or query parameter's example, by its name, for every operation that has one of that name. */
  params: Record<string, unknown>;
  /** By operation, as the OpenAPI document names it (`POST /v1/risk`): what differs from `params`, and its body. */
  operations: Record<string, { params?: Record<string, unknown>; body?: unknown }>;
}

type Schema = Record<string | symbol, unknown>;
const isObject = (value: unknown): value is Schema => value !== null && typeof value === "object";

/** The OpenAPI name of a route: its method and its URL with `{name}` for fastify's `:name` (and `{*}` for `*`). */
export const operationName = (method: string, url: string) =>
  `${method} ${url.replace(/:(\w+)/g, "{$1}").replace(/\*$/, "{*}")}`;

/** A copy of an object schema whose properties without an example get one from `values`. */
function withPropertyExamples(schema: unknown, values: (name: string) => unknown): unknown {
  if (!isObject(schema) || !isObject(schema.properties)) return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, property]) => {
      const value = values(name);
      return isObject(property) && property.examples === undefined && value !== undefined
        ? [name, { ...property, examples: [value] }]
        : [name, property];
    }),
  );
  return { ...schema, properties };
}

/** Writes the examples of one route into (copies of) its params, querystring and body schemas. */
export function addExamples(route: RouteOptions, examples: RequestExamples): void {
  const schema = route.schema;
  if (!schema) return;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const operation = methods
    .map((method) => examples.operations[operationName(method, route.url)])
    .find((found) => found !== undefined);
  const value = (name: string) => operation?.params?.[name] ?? examples.params[name];
  if (schema.params) schema.params = withPropertyExamples(schema.params, value);
  if (schema.querystring) schema.querystring = withPropertyExamples(schema.querystring, value);
  if (isObject(schema.body) && schema.body.examples === undefined && operation?.body !== undefined)
    schema.body = { ...schema.body, examples: [operation.body] };
}
