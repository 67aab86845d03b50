// The integrator's profile of each user a generation reports, read once per user and generation through the
// monitoring's profile reader (signed, validated, and for Mexico checked against the person-type rules).
import { projectIntegration } from "../keys/index.ts";
import type { ProfileResult } from "../monitoring/index.ts";
import type { ReportsContext } from "./context.ts";
import type { CountryCode } from "./tables.ts";

export async function profileSource(
  ctx: ReportsContext,
  projectId: number,
  countryCode: CountryCode,
): Promise<(userId: string) => Promise<ProfileResult>> {
  const integration = await projectIntegration(ctx.keys, projectId, new Date(ctx.now()));
  const read = new Map<string, Promise<ProfileResult>>();
  return (userId) => {
    let found = read.get(userId);
    if (!found) {
      found = integration.integrationUrl
        ? ctx.profiles.read(projectId, integration, [countryCode], userId)
        : Promise.resolve({
            ok: false,
            reason: "the project has no integration_url to read the user's profile from",
          } as const);
      read.set(userId, found);
    }
    return found;
  };
}
