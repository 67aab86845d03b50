// The file of one 24-hour aviso (prioridad 2), whatever made it due, a transfer (urgent.ts) or knowledge alone
// (known-avisos.ts): the reporting entity from the project's settings, one aviso in an AVI file of the month, probed
// once so that a profile it cannot be written from is refused with the field at fault, and a filed aviso that has not
// changed not written again (a changed one becomes a new version).
import type { Blocked, ClientFile, UrgentAvisos } from "../port.ts";
import type { Profile } from "../profile.ts";
import { type AviAviso, aviFile } from "./avi.ts";
import { checkAgainstXsd, MX_XML } from "./monthly.ts";
import { mxSettings } from "./settings.ts";

export function urgentAviFile(input: {
  settings: unknown;
  aviso: AviAviso;
  userId: string;
  stem: string;
  profile: Profile;
  period: string;
}): ReturnType<UrgentAvisos["build"]> {
  const entity = mxSettings(input.settings);
  if (!entity)
    return {
      ok: false,
      blocked: {
        code: "no_reporting_entity",
        reason: "the project has no Mexican reporting entity (`jurisdiction_settings.MX`)",
        field: "jurisdiction_settings.MX",
      },
    };
  const render = () =>
    aviFile({
      period: input.period,
      entity,
      userId: input.userId,
      profile: input.profile,
      avisos: [input.aviso],
    });
  const probe = render();
  if (!probe.ok) {
    const blocked: Blocked = {
      code: probe.field ? "profile_incomplete" : "no_value",
      reason: probe.reason,
      ...(probe.field ? { field: probe.field } : {}),
    };
    return { ok: false, blocked };
  }
  const file: ClientFile = {
    kind: "urgent",
    userId: input.userId,
    stem: input.stem,
    extension: "xml",
    mediaType: MX_XML,
    profile: input.profile,
    validate: checkAgainstXsd,
    render: (filed) => {
      const built = render();
      if (!built.ok) return built;
      const entry = built.entries[0];
      if (filed && entry && filed.get(entry.reference)?.digest === entry.digest)
        return { ok: true, content: undefined };
      return { ok: true, content: Buffer.from(built.xml), entries: built.entries };
    },
  };
  return { ok: true, file };
}
