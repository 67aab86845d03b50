// El Salvador's settings in a project (`jurisdiction_settings.SV`): none are needed yet (the working record names
// the project); an empty object is accepted so that the settings of every jurisdiction have one shape.
import { Type } from "@sinclair/typebox";

export const SvSettingsSchema = Type.Object({}, { additionalProperties: false });
