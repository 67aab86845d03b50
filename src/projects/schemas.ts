// TypeBox schemas of a project's own settings (docs/api.md, "Projects and keys"): its name, jurisdictions and their
// settings. The parts other rooms own (src/projects/settings-part.ts) add theirs beside these.
import { type Static, type TProperties, Type } from "@sinclair/typebox";
import {
  ClientJurisdictionSchema,
  JURISDICTION_CODES,
  JURISDICTIONS,
  MEXICO,
} from "../jurisdictions/index.ts";
import { StringEnum } from "../platform/http/schemas.ts";

/** The MX settings without the accumulation choice: the earlier `mx_reporting_entity`. */
export const MxReportingEntitySchema = Type.Omit(MEXICO.settings, ["accumulation"], {
  additionalProperties: false,
});

/** Each jurisdiction's settings, by code, as its own schema wants them (null removes them). */
const JurisdictionSettingsPatch = Type.Object(
  Object.fromEntries(
    JURISDICTIONS.map((j) => [j.code, Type.Optional(Type.Union([j.settings, Type.Null()]))]),
  ),
  {
    additionalProperties: false,
    description:
      'each jurisdiction\'s reporting entity settings, by code (docs/api.md, "Project settings of the jurisdictions")',
  },
);
const JurisdictionSettingsView = Type.Object(
  Object.fromEntries(JURISDICTIONS.map((j) => [j.code, Type.Optional(j.settings)])),
);

const JurisdictionsSchema = Type.Array(StringEnum(JURISDICTION_CODES), {
  maxItems: JURISDICTION_CODES.length,
  uniqueItems: true,
});

/** The project's own fields of GET /projects/{id}. */
export const ProjectFields = {
  id: Type.Integer(),
  name: Type.String(),
  jurisdictions: Type.Array(Type.String()),
  jurisdiction_settings: JurisdictionSettingsView,
  client_jurisdiction: Type.Union([ClientJurisdictionSchema, Type.Null()]),
  mx_reporting_entity: Type.Union([MxReportingEntitySchema, Type.Null()], {
    description: "jurisdiction_settings.MX without `accumulation` (its earlier name)",
  }),
  created_at: Type.String({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
} satisfies TProperties;

/** The project's own fields of PATCH /projects/{id}. */
export const ProjectPatchFields = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  jurisdictions: Type.Optional(JurisdictionsSchema),
  jurisdiction_settings: Type.Optional(JurisdictionSettingsPatch),
  client_jurisdiction: Type.Optional(Type.Union([ClientJurisdictionSchema, Type.Null()])),
  mx_reporting_entity: Type.Optional(
    Type.Union([MxReportingEntitySchema, Type.Null()], {
      description: "sets jurisdiction_settings.MX's entity",
    }),
  ),
} satisfies TProperties;

const ProjectOwnView = Type.Object(ProjectFields);
const ProjectOwnPatch = Type.Object(ProjectPatchFields);

/** A project's settings as GET /projects/{id} shows them, with the fields of the parts other rooms own. */
export type ProjectView = Static<typeof ProjectOwnView> & Record<string, unknown>;
/** A PATCH /projects/{id} body: the project's own fields and those of the other parts. */
export type ProjectPatch = Static<typeof ProjectOwnPatch> & Record<string, unknown>;

export const AuditSchema = Type.Object({
  id: Type.String(),
  actor: Type.String(),
  actorName: Type.Union([Type.String(), Type.Null()], {
    description:
      "who the actor is, in words: a person's display name for `user:<id>`, a key's label for `key:<id>`; null for `cli`, `system` or one no longer known",
  }),
  action: Type.String(),
  target: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.String({ format: "date-time" }),
});
