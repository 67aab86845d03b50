// Which of a project's jurisdictions governs a client relationship, so that a client's data goes only into the files
// of the regulator that has a claim on it (sending it to another breaks confidentiality duties such as the Mexican
// RCG Art. 31). In order:
//  1. the jurisdiction the address was registered under (`jurisdiction` on POST /projects/{id}/addresses);
//  2. the client's country, read from the profile (`address.country`, else `nationality`; or the other way round
//     with `basis: "nationality"`), mapped through the project's `countries` table, else to the jurisdiction of the
//     same code, when the project enables it;
//  3. the project's `otherwise` jurisdiction; without one, the project's only jurisdiction when it enables exactly
//     one (a Mexican provider files for every client it serves, wherever the client lives), else none.
// A client governed by none of the enabled jurisdictions is reported nowhere, and each generation says so. With
// `alsoByNationality`, a client one jurisdiction governs is also filed in each listed jurisdiction whose country is
// the client's nationality (Mexico's law reaches its nationals' operations abroad): `filingJurisdictions`.
import { type Static, Type } from "@sinclair/typebox";
import { StringEnum } from "../platform/http/schemas.ts";
import type { Profile } from "./profile.ts";

const Code = Type.String({ pattern: "^[A-Z]{2}$" });

export const ClientJurisdictionSchema = Type.Object(
  {
    basis: Type.Optional(
      StringEnum(["residence", "nationality"], {
        description: "which of the profile's countries decides (default residence: `address.country`)",
      }),
    ),
    countries: Type.Optional(
      Type.Record(Type.String({ pattern: "^[A-Z]{2}$" }), Code, {
        description: 'clients of these countries go to this jurisdiction, e.g. {"US": "MX"}',
      }),
    ),
    alsoByNationality: Type.Optional(
      Type.Array(Code, {
        maxItems: 10,
        uniqueItems: true,
        description:
          'jurisdictions that also file, by nationality, a client another governs by residence: ["MX"] files a Mexican national living in Colombia in Mexico too (LFPIORPI Art. 17 XVI as reformed in 2025); each must be enabled',
      }),
    ),
    otherwise: Type.Optional(
      Type.Union([Code, Type.Null()], {
        description:
          "the jurisdiction of clients no other entry places; null: none. Default: the project's only jurisdiction when it enables one",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ClientJurisdiction = Static<typeof ClientJurisdictionSchema>;

/** The client's country as the basis reads it, upper case, or undefined when the profile gives none. */
export function clientCountry(profile: Profile, basis: ClientJurisdiction["basis"]): string | undefined {
  const residence = profile.address?.country;
  const nationality = profile.nationality;
  const found = basis === "nationality" ? (nationality ?? residence) : (residence ?? nationality);
  return found && /^[A-Za-z]{2}$/.test(found) ? found.toUpperCase() : undefined;
}

/** The enabled jurisdiction that governs the client, or null when none does. */
export function governingJurisdiction(
  enabled: readonly string[],
  settings: ClientJurisdiction | null | undefined,
  profile: Profile | undefined,
  addressJurisdiction: string | null,
): string | null {
  if (addressJurisdiction !== null) return enabled.includes(addressJurisdiction) ? addressJurisdiction : null;
  const country = profile ? clientCountry(profile, settings?.basis) : undefined;
  if (country !== undefined) {
    const mapped = settings?.countries?.[country] ?? country;
    if (enabled.includes(mapped)) return mapped;
  }
  if (settings?.otherwise !== undefined)
    return settings.otherwise !== null && enabled.includes(settings.otherwise) ? settings.otherwise : null;
  return enabled.length === 1 ? (enabled[0] as string) : null;
}

/**
 * Every enabled jurisdiction that files the client: the governing one, and those of `alsoByNationality` whose country
 * is the client's nationality (an address registered under a jurisdiction is that one's alone). Empty when none
 * governs.
 */
export function filingJurisdictions(
  enabled: readonly string[],
  settings: ClientJurisdiction | null | undefined,
  profile: Profile | undefined,
  addressJurisdiction: string | null,
): string[] {
  const governing = governingJurisdiction(enabled, settings, profile, addressJurisdiction);
  if (governing === null) return [];
  if (addressJurisdiction !== null) return [governing];
  const nationality = profile?.nationality?.toUpperCase();
  const also = (settings?.alsoByNationality ?? []).filter(
    (code) => code !== governing && code === nationality && enabled.includes(code),
  );
  return [governing, ...also];
}
