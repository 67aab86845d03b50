// Examples of the requests and responses of every operation and of every webhook of the OpenAPI document. Request
// examples are written into a route's schemas when the route is registered, so that the document carries one for
// each parameter and body and the docs page's "Try it out" fills in values that work (not "string" and 0); response
// and webhook examples are written into the document itself (`addDocumentExamples`, from the document's transform),
// one for each media type a response comes in. Which values is the caller's business (the composition root gives
// those of the devnet scenario); an example a route's schema gives itself is kept.
import type { RouteOptions } from "fastify";

export interface ApiExamples {
  /** A path or query parameter's example, by its name, for every operation that has one of that name. */
  params: Record<string, unknown>;
  /** By operation, as the OpenAPI document names it (`POST /v1/risk`): what differs from `params`, and its body. */
  operations: Record<string, { params?: Record<string, unknown>; body?: unknown }>;
  /**
   * By operation, then status (`"200"`), then media type (`application/json`, `text/markdown`): the example body of
   * each media type the response comes in.
   */
  responses?: Record<string, Record<string, Record<string, unknown>>>;
  /** By webhook, as the document's `webhooks` names it: its body and the values of its header parameters. */
  webhooks?: Record<string, { body: unknown; headers?: Record<string, string> }>;
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
export function addExamples(route: RouteOptions, examples: ApiExamples): void {
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

type Media = { schema?: unknown; example?: unknown; examples?: unknown };
type Operation = {
  parameters?: { name: string; in: string; example?: unknown; examples?: unknown }[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
};

const hasExample = (holder: { example?: unknown; examples?: unknown }) =>
  holder.example !== undefined || holder.examples !== undefined;

/**
 * Writes the response examples of every operation and the examples of every webhook into an OpenAPI document: into
 * each response's media type that has none. An example for a status or media type the operation does not document
 * is left out (the contract test names it).
 */
export function addDocumentExamples(doc: Record<string, unknown>, examples: ApiExamples): void {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const byStatus = examples.responses?.[`${method.toUpperCase()} ${path}`];
      for (const [status, byMedia] of Object.entries(byStatus ?? {})) {
        const content = operation.responses?.[status]?.content ?? {};
        for (const [type, value] of Object.entries(byMedia)) {
          const media = content[type];
          if (media && !hasExample(media)) media.example = value;
        }
      }
    }
  }
  const webhooks = (doc.webhooks ?? {}) as Record<string, Record<string, Operation>>;
  for (const [name, example] of Object.entries(examples.webhooks ?? {})) {
    const post = webhooks[name]?.post;
    if (!post) continue;
    const media = post.requestBody?.content?.["application/json"];
    if (media && !hasExample(media)) media.example = example.body;
    for (const parameter of post.parameters ?? []) {
      const value = example.headers?.[parameter.name];
      if (parameter.in === "header" && value !== undefined && !hasExample(parameter))
        parameter.example = value;
    }
  }
}
