// Schemas shared by every route: the envelopes of docs/api.md, the string enum every closed list of words is
// written with, and the shapes of responses that are not JSON (files, redirects) for the OpenAPI document.
import { Kind, type SchemaOptions, type TSchema, type TUnsafe, Type, TypeRegistry } from "@sinclair/typebox";
import { ERROR_STATUS, type ErrorCode } from "../errors.ts";

const STRING_ENUM = "StringEnum";
// TypeBox's own checks (Value.Check, used on a few schemas that also reach routes) know the kind; to Ajv and to the
// OpenAPI document the schema is plain JSON Schema, `{type: "string", enum: [...]}`.
if (!TypeRegistry.Has(STRING_ENUM))
  TypeRegistry.Set<{ enum: readonly unknown[] }>(
    STRING_ENUM,
    (schema, value) => typeof value === "string" && schema.enum.includes(value),
  );

/**
 * One of a closed list of strings, as `{type: "string", enum: [...]}`, typed as the union of its values. Written
 * instead of a union of literals, which JSON Schema says as an `anyOf` of constants: a client generator reads that
 * as "string", and a refused value is told "must be equal to constant … must match a schema in anyOf" without the
 * values allowed; an enum's refusal names them (validation-details.ts).
 */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> =>
  Type.Unsafe<T[number]>({ ...options, [Kind]: STRING_ENUM, type: "string", enum: [...values] });

export const ErrorResponse = Type.Object(
  {
    success: Type.Literal(false),
    error: StringEnum(Object.keys(ERROR_STATUS) as ErrorCode[], {
      description: 'Stable error code: the HTTP status follows from it (docs/api.md, "Envelope and errors")',
    }),
    message: Type.String({
      description: "In the request's language (Accept-Language, the person's setting)",
    }),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.String({ description: "JSON pointer of the field at fault, `/` for the whole request" }),
          message: Type.String(),
        }),
        { description: "One entry per refused field (400 invalid_request)" },
      ),
    ),
  },
  { $id: undefined, description: "Error envelope" },
);

/** `{success: true, data}` around a payload schema. */
export const Ok = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Literal(true), data, message: Type.Optional(Type.String()) });

export const OkEmpty = Type.Object({ success: Type.Literal(true), message: Type.Optional(Type.String()) });

export const ok = <T>(data: T) => ({ success: true as const, data });

/**
 * A response whose body is not JSON (a file, markdown), for the OpenAPI document: its description and the schema of
 * each media type it may come in. Fastify sends the route's string or buffer as it is: these schemas serialize
 * nothing.
 */
export const FileResponse = (description: string, media: Record<string, TSchema>) => ({
  description,
  content: Object.fromEntries(Object.entries(media).map(([type, schema]) => [type, { schema }])),
});

/** A redirect (no body), for the OpenAPI document: where `Location` points. */
export const RedirectResponse = (description: string, location: string) => ({
  description,
  type: "null",
  headers: { location: { type: "string", description: location } },
});
