// The last touches of the OpenAPI document the service serves, made by @fastify/swagger's transform (app.ts): the
// error envelope as one component (`#/components/schemas/Error`) that every error response points to, each with an
// example of its status, and the examples of the responses and webhooks (examples.ts).
import { type ApiExamples, addDocumentExamples } from "./examples.ts";
import { ErrorResponse } from "./schemas.ts";

/** The name of the error envelope among the document's schemas. */
export const ERROR_COMPONENT = "Error";

/**
 * An answer of each error status the routes document, as the service gives it (docs/api.md, "Envelope and
 * errors"): what any route answers, so the 404 is that of a mistyped path.
 */
const ERROR_EXAMPLES: Record<string, object> = {
  "400": {
    success: false,
    error: "invalid_request",
    message: "Invalid query",
    details: [{ path: "/chainId", message: "must be integer" }],
  },
  "401": { success: false, error: "unauthorized", message: "The api key is invalid" },
  "403": { success: false, error: "forbidden", message: "Forbidden" },
  "404": { success: false, error: "not_found", message: "Route GET /v1/projects/1/alert not found" },
  "413": { success: false, error: "payload_too_large", message: "Request body is larger than 1 MiB" },
  "415": {
    success: false,
    error: "unsupported_media_type",
    message: "Content-Type must be application/json",
  },
  "429": {
    success: false,
    error: "rate_limited",
    message: "Rate limit of 6000 requests per minute exceeded",
  },
  "500": { success: false, error: "internal_error", message: "Internal server error" },
};

type Media = { schema?: { description?: unknown; $ref?: string }; example?: unknown; examples?: unknown };
type Responses = Record<string, { content?: Record<string, Media> }>;

/** The error envelope's schema as plain JSON (TypeBox's symbols left out). */
const errorSchema = () => JSON.parse(JSON.stringify(ErrorResponse)) as Record<string, unknown>;

/**
 * Points every error response whose body is the envelope at the one component, and gives each an example of its
 * status; then writes the examples of the responses and webhooks. Made once: the document is built once and kept.
 */
export function finishDocument(doc: Record<string, unknown>, examples: ApiExamples | undefined): void {
  const components = (doc.components ?? {}) as Record<string, unknown>;
  components.schemas = { ...(components.schemas as object | undefined), [ERROR_COMPONENT]: errorSchema() };
  doc.components = components;
  const ref = { $ref: `#/components/schemas/${ERROR_COMPONENT}` };
  const paths = (doc.paths ?? {}) as Record<string, Record<string, { responses?: Responses }>>;
  for (const methods of Object.values(paths)) {
    for (const operation of Object.values(methods)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const media = response.content?.["application/json"];
        if (Number(status) < 400 || !media?.schema) continue;
        if (media.schema.description !== ErrorResponse.description) continue;
        media.schema = { ...ref };
        const example = ERROR_EXAMPLES[status];
        if (example && media.example === undefined && media.examples === undefined) media.example = example;
      }
    }
  }
  if (examples) addDocumentExamples(doc, examples);
}
