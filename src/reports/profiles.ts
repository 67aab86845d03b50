// The clients a generation reports, as a jurisdiction sees them (src/jurisdictions' Client): each user's profile is
// read once per generation through the integrator's profile reader, and the jurisdiction that governs the client
// decides whether its operations go into this jurisdiction's files: per operation, the address's `jurisdiction`
// when it was registered with one, else the profile's country (src/jurisdictions/governing.ts).

import type { ProfileResult } from "../integrator/index.ts";
import { type Client, filingJurisdictions, governingJurisdiction } from "../jurisdictions/index.ts";
import type { Compliance } from "../projects/index.ts";
import { byTime, type ClientOperation } from "../regulation/index.ts";
import type { ReportsContext } from "./context.ts";

/** The code of a generation's note on a client another jurisdiction (or none) governs: not a failure. */
export const GOVERNED_ELSEWHERE = "governed_elsewhere";

export type ClientSource = (userId: string, operations: ClientOperation[]) => Promise<Client>;

/** The clients of a project for the jurisdiction `code`. */
export async function clientSource(
  ctx: ReportsContext,
  projectId: number,
  compliance: Compliance,
  code: string,
): Promise<ClientSource> {
  const read = new Map<string, Promise<ProfileResult>>();
  const profileOf = (userId: string) => {
    let found = read.get(userId);
    if (!found) {
      found = ctx.profiles.read(projectId, userId);
      read.set(userId, found);
    }
    return found;
  };
  return async (userId, operations) => {
    const overridden = operations.filter((op) => op.addressJurisdiction !== null);
    const others = operations.filter((op) => op.addressJurisdiction === null);
    const here = overridden.filter((op) => op.addressJurisdiction === code);
    const profile = await profileOf(userId);
    if (!profile.ok) {
      // Operations of addresses registered under another jurisdiction are that one's, profile or not.
      if (here.length === 0 && others.length === 0)
        return { kind: "elsewhere", governedBy: overridden[0]?.addressJurisdiction ?? null };
      return { kind: "unreadable", reason: profile.reason };
    }
    const governing = governingJurisdiction(
      compliance.jurisdictions,
      compliance.clientJurisdiction,
      profile.profile,
      null,
    );
    // A client another jurisdiction governs is this one's too when it files the client by nationality.
    const filing = filingJurisdictions(
      compliance.jurisdictions,
      compliance.clientJurisdiction,
      profile.profile,
      null,
    );
    const mine = [...here, ...(filing.includes(code) ? others : [])].sort(byTime);
    if (mine.length === 0)
      return {
        kind: "elsewhere",
        governedBy: others.length > 0 ? governing : (overridden[0]?.addressJurisdiction ?? null),
      };
    return { kind: "here", profile: profile.profile, operations: mine };
  };
}
