// A person match side by side (GET /projects/{projectId}/alerts/{alertId}/match): the profile's person as screened
// and the list entry as listed, the score and why in the reader's language, and the officer's decision if any (and
// an earlier one a changed entry or profile reopened).
import type { Kysely } from "kysely";
import {
  actorWords,
  type Names,
  personMatchAlert,
  projectNames,
  type RecordedReview,
} from "../../alerts/index.ts";
import { type Lang, translate } from "../../messages/index.ts";
import { visibleName } from "../../platform/visible-text.ts";
import type { DB } from "../../schema.ts";
import type { PersonInput } from "../schemas.ts";
import { profileFingerprint } from "./fingerprint.ts";
import { listedEntry, screenedPerson } from "./read.ts";
import type { MatchView } from "./schemas.ts";
import { when } from "./when.ts";
import { whyOf } from "./why.ts";

const ROLES = ["client", "representative", "fiduciary_delegate", "beneficial_owner"] as const;

const roleText = (lang: Lang, role: string) =>
  ROLES.includes(role as (typeof ROLES)[number])
    ? translate(lang, `match.role.${role as (typeof ROLES)[number]}`)
    : role;

const reviewOf = (lang: Lang, r: RecordedReview, names: Names) => ({
  decision: r.decision,
  decisionText: translate(lang, `match.decision.${r.decision}`),
  reason: r.reason,
  by: r.by,
  byName: actorWords(lang, r.by, names),
  at: r.at,
});

export async function matchView(
  db: Kysely<DB>,
  projectId: number,
  alertId: string,
  lang: Lang,
  timeZone?: string,
): Promise<MatchView> {
  const alert = await personMatchAlert(db, projectId, alertId);
  const c = alert.candidate;
  const [kept, listed, names] = await Promise.all([
    screenedPerson(db, projectId, alert.userId, c),
    listedEntry(db, projectId, c),
    projectNames(db, projectId),
  ]);
  // The person as screened for this alert (kept with it), else as the profile holds them now.
  const person = (c.person as PersonInput | undefined) ?? kept ?? { name: c.subject };
  const read = visibleName(person.name);
  const e = listed.entry;
  const earlier = alert.earlierReview;
  return {
    alertId: alert.id,
    status: alert.status,
    level: alert.level,
    client: {
      userId: alert.userId,
      role: c.role,
      roleText: roleText(lang, c.role),
      type: person.type ?? "person",
      names: [person.name],
      nameAsRead: read.visible !== person.name ? read.visible : null,
      birthDate: person.birthdate ?? null,
      incorporationDate: person.incorporationDate ?? null,
      nationality: person.nationality ?? null,
      identifiers: person.identifiers ?? [],
      profileChanged: !kept || profileFingerprint(c.role, kept) !== profileFingerprint(c.role, person),
    },
    entry: {
      list: c.list,
      listVersion: listed.listVersion,
      listDate: listed.listDate,
      alertedVersion: c.listVersion,
      source: listed.source,
      entryId: c.entryId,
      type: e.type,
      names: e.names,
      matchedName: c.matchedName,
      birthDate: e.dates[0] ?? null,
      birthDates: e.dates,
      nationality: e.countries[0] ?? null,
      nationalities: e.countries,
      identifiers: e.identifiers,
      programme: e.programs.length > 0 ? e.programs.join(", ") : null,
      programmes: e.programs,
      remarks: e.remarks ?? null,
    },
    score: c.score,
    matchedFields: c.matchedFields,
    why: whyOf(lang, {
      person,
      entry: e,
      list: c.list,
      listVersion: c.listVersion,
      matchedName: c.matchedName,
      score: c.score,
      verdict: c.verdict,
      matchedFields: c.matchedFields,
      notes: c.notes,
    }),
    notes: c.notes,
    ...(alert.review ? { review: reviewOf(lang, alert.review, names) } : {}),
    ...(earlier
      ? {
          earlierReview: {
            ...reviewOf(lang, earlier, names),
            alertId: earlier.alertId,
            changed: earlier.changed,
            text: translate(lang, "match.why.earlier", {
              decision: earlier.decision,
              alertId: earlier.alertId,
              by: actorWords(lang, earlier.by, names),
              at: when(lang, earlier.at, timeZone),
              reason: earlier.reason,
              changed: earlier.changed.length > 1 ? "both" : (earlier.changed[0] ?? "both"),
            }),
          },
        }
      : {}),
  };
}
