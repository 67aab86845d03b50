// The laws a notification names (`data.inflictedLaws` of the Events contract), in the one shape integrators read,
// whether the notification is of a transfer (src/monitoring) or of an exchange operation (src/exchange-operations);
// and the client's residence as the rules on residence read it from the profile the integrator answered.
import type { InflictedLaw } from "../regulation/index.ts";
import type { ProfileResult } from "./profile-reader.ts";

export function inflictedLawsOf(laws: readonly InflictedLaw[]) {
  return laws.map((l) => ({
    name: l.name,
    description: l.description,
    source: l.source,
    risk: l.risk,
    country: l.country,
    countryCode: l.countryCode,
    id: l.id,
    verified: l.verified,
  }));
}

/** The client's country of residence from its profile (upper case; null when it gives none), or why it is unknown. */
export function residenceOf(read: ProfileResult | null): { country: string | null } | string {
  if (!read) return "the client's profile could not be read";
  if (!read.ok) return `the client's profile could not be read: ${read.reason}`;
  const country = read.profile.address?.country;
  return { country: country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null };
}
