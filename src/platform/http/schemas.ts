// Schemas shared by every route: the envelopes of docs/api.md.
import { type TSchema, Type } from "@sinclair/typebox";

export const ErrorResponse = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: "Stable error code, e.g. invalid_request, unauthorized, not_found" }),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: undefined, description: "Error envelope" },
);

/** `{success: true, data}` around a payload schema. */
export const Ok = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Literal(true), data, message: Type.Optional(Type.String()) });

export const OkEmpty = Type.Object({ success: Type.Literal(true), message: Type.Optional(Type.String()) });

export const ok = <T>(data: T) => ({ success: true as const, data });
