// What a schema refused, as the `details` of an invalid request: one entry per field (its JSON pointer and Ajv's
// English words), each with the catalog message that says it in another language (ErrorText: an id of the form
// `error.detail.<keyword>` and the keyword's figures). A keyword without an entry here keeps its English words in
// every language.
import type { FastifyError } from "fastify";
import type { ErrorDetail, ErrorText } from "../errors.ts";

/** The most details one answer carries. */
const MAX_DETAILS = 20;

type Issue = NonNullable<FastifyError["validation"]>[number];

const str = (v: unknown) => (typeof v === "number" ? v : String(v ?? ""));

/** The catalog message of one refusal; undefined for a keyword the catalog does not word. */
function textOf(issue: Issue): ErrorText | undefined {
  const p = (issue.params ?? {}) as Record<string, unknown>;
  // A field the unknown-field check named carries its own words (unknown-fields.ts).
  if (p.text && typeof p.text === "object") return p.text as ErrorText;
  switch (issue.keyword) {
    case "required":
      return { id: "error.detail.required", params: { property: str(p.missingProperty) } };
    case "type":
      return { id: "error.detail.type", params: { type: str(p.type) } };
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
    case "minLength":
    case "maxLength":
    case "minItems":
    case "maxItems":
      return { id: `error.detail.${issue.keyword}`, params: { limit: str(p.limit) } };
    case "pattern":
      return { id: "error.detail.pattern", params: { pattern: str(p.pattern) } };
    case "format":
      // ICU select keys are words: date-time is date_time there.
      return { id: "error.detail.format", params: { format: String(p.format ?? "").replace(/-/g, "_") } };
    case "enum":
      return {
        id: "error.detail.enum",
        params: { values: Array.isArray(p.allowedValues) ? p.allowedValues.map(String).join(", ") : "" },
      };
    case "const":
      return { id: "error.detail.const", params: { value: JSON.stringify(p.allowedValue) } };
    case "anyOf":
      return { id: "error.detail.anyOf" };
    default:
      return undefined;
  }
}

/**
 * Ajv's English words for one refusal; an enum's name the values it allows, which Ajv's leave out ("must be equal
 * to one of the allowed values"), as the catalog's `error.detail.enum` does in every language.
 */
function englishOf(issue: Issue): string {
  const allowed = (issue.params as { allowedValues?: unknown } | undefined)?.allowedValues;
  if (issue.keyword === "enum" && Array.isArray(allowed))
    return `must be equal to one of the allowed values: ${allowed.map(String).join(", ")}`;
  return issue.message ?? "is invalid";
}

export function validationDetails(error: FastifyError): ErrorDetail[] {
  return (error.validation ?? []).slice(0, MAX_DETAILS).map((issue) => {
    const missing = (issue.params as { missingProperty?: string } | undefined)?.missingProperty;
    const path = `${issue.instancePath || ""}${missing ? `/${missing}` : ""}` || "/";
    const text = textOf(issue);
    return { path, message: englishOf(issue), ...(text ? { text } : {}) };
  });
}
