// Colombia's settings in a project (`jurisdiction_settings.CO`): the reporting entity as SIREL knows it.
import { type Static, Type } from "@sinclair/typebox";

export const CoSettingsSchema = Type.Object(
  {
    codigo_sirel: Type.String({
      pattern: "^[A-Za-z0-9-]{1,20}$",
      description: "the entity code the UIAF gave the provider on registering in SIREL",
    }),
  },
  { additionalProperties: false },
);
export type CoSettings = Static<typeof CoSettingsSchema>;

export const coSettings = (settings: unknown): CoSettings | undefined =>
  settings && typeof settings === "object" && "codigo_sirel" in settings
    ? (settings as CoSettings)
    : undefined;
