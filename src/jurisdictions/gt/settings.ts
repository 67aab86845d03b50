// Guatemala's settings in a project (`jurisdiction_settings.GT`): none are needed yet; an empty object is accepted so
// that the settings of every jurisdiction have one shape.
import { Type } from "@sinclair/typebox";

export const GtSettingsSchema = Type.Object({}, { additionalProperties: false });
