// The shapes of the sign-in and user routes (docs/api.md, "People and sessions").
import { Type } from "@sinclair/typebox";
import { ROLES } from "../platform/http/auth.ts";
import { StringEnum } from "../platform/http/schemas.ts";

export const RoleSchema = StringEnum(ROLES, { description: "viewer < developer < officer < admin" });

const DateTime = Type.String({ format: "date-time" });

export const UserSummarySchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  displayName: Type.String(),
  role: RoleSchema,
  disabledAt: Type.Union([DateTime, Type.Null()]),
});

export const SessionUserSchema = Type.Object({
  id: Type.Integer(),
  projectId: Type.Integer(),
  email: Type.String(),
  displayName: Type.String(),
  role: RoleSchema,
  lang: StringEnum(["es", "en"]),
  timeZone: Type.String(),
  totpEnabled: Type.Boolean(),
});

export const SessionSchema = Type.Object({
  user: SessionUserSchema,
  csrfToken: Type.String({
    description: "send it back in the header x-csrf-token on every request other than GET",
  }),
});

export const Email = Type.String({ minLength: 3, maxLength: 254, pattern: "^[^\\s@]+@[^\\s@]+$" });
/** Long enough for any allowed password; the rules themselves say the limits (password-rules.ts). */
export const PasswordText = Type.String({ minLength: 1, maxLength: 1024 });

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: PasswordText,
  totp: Type.Optional(
    Type.String({ maxLength: 12, description: "the 6-digit code, when the account has TOTP" }),
  ),
});

export const SettingsBody = Type.Object({
  lang: Type.Optional(StringEnum(["es", "en"])),
  timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "an IANA zone" })),
});

export const NewUserBody = Type.Object({
  email: Email,
  displayName: Type.String({ minLength: 1, maxLength: 200 }),
  role: RoleSchema,
  password: Type.Optional(PasswordText),
});

export const UserPatchBody = Type.Object({
  role: Type.Optional(RoleSchema),
  displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  disabled: Type.Optional(Type.Boolean()),
});

export const UserParams = Type.Object({
  projectId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  userId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});
