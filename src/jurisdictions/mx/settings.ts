// Mexico's settings in a project (`jurisdiction_settings.MX`): the reporting entity (sujeto obligado) as the AVI XML
// names it, and how the six-month accumulation groups operations. Reglamento LFPIORPI Art. 7 (DOF 27-03-2026)
// accumulates "por tipo de acto u operación" without defining the types of fraction XVI; the AVI XSD reports sends
// and receipts in separate groups, so by default they accumulate apart (`by-type`). An officer who reads receipts
// and sends as one type can choose `combined` (docs/regulation.md, "Mexico").
import { type Static, Type } from "@sinclair/typebox";
import { StringEnum } from "../../platform/http/schemas.ts";

const RFC_OR_CLAVE = "^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$";

export const MxSettingsSchema = Type.Object(
  {
    clave_sujeto_obligado: Type.String({ pattern: RFC_OR_CLAVE, description: "RFC of the reporting entity" }),
    dominio_plataforma: Type.String({
      pattern: "^[A-Z0-9][A-Z0-9-]{0,98}[A-Z0-9]$",
      description: "Platform domain as the AVI XSD wants it (upper case, no dots)",
    }),
    clave_entidad_colegiada: Type.Optional(Type.String({ pattern: "^[A-ZÑ&]{3}[0-9]{6}[A-Z0-9]{3}$" })),
    exento: Type.Optional(Type.Boolean()),
    accumulation: Type.Optional(
      StringEnum(["by-type", "combined"], {
        description:
          "by-type (default): receipts and sends accumulate apart (Reglamento Art. 7, 'por tipo de acto u operación'); combined: together",
      }),
    ),
  },
  { additionalProperties: false },
);
export type MxSettings = Static<typeof MxSettingsSchema>;

/** The reporting entity as the AVI needs it: the settings without the accumulation choice. */
export type MxReportingEntity = Omit<MxSettings, "accumulation">;

/** The settings, when a project has them (the caller checked them against the schema when they were saved). */
export const mxSettings = (settings: unknown): MxSettings | undefined =>
  settings && typeof settings === "object" && "clave_sujeto_obligado" in settings
    ? (settings as MxSettings)
    : undefined;

/** How the accumulation groups operations: `by-type` unless the settings say `combined`. */
export const accumulationMode = (settings: unknown): "by-type" | "combined" =>
  (settings as { accumulation?: string } | undefined)?.accumulation === "combined" ? "combined" : "by-type";
