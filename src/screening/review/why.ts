// Why the matcher found a profile's person to be a list's entry, as sentences in the reader's language: the score
// and what it means on its list, then each field the matcher weighed (the name or an alias, the date, the
// nationality, the identifiers), read from what it recorded as agreeing (`matchedFields`) and from its notes where
// only they tell (a date close without agreeing, an RFC's homoclave, a name of common words, a hidden character).
import { type Lang, translate } from "../../messages/index.ts";
import { visibleName } from "../../platform/visible-text.ts";
import type { Identifier } from "../entry.ts";
import type { PersonInput } from "../schemas.ts";

export interface WhyInput {
  person: PersonInput;
  entry: {
    type: string;
    names: readonly string[];
    dates: readonly string[];
    countries: readonly string[];
    identifiers: readonly Identifier[];
  };
  list: string;
  listVersion: string;
  matchedName: string;
  score: number;
  verdict: string;
  matchedFields: readonly string[];
  notes: readonly string[];
}

const normalised = (v: string) => v.replace(/[^0-9A-Za-z]/g, "").toUpperCase();

export function whyOf(lang: Lang, m: WhyInput): string[] {
  const t = (id: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) =>
    translate(lang, id, params);
  const p = m.person;
  const type = p.type ?? "person";
  const out = [
    t("match.why.score", { score: m.score, list: m.list, listVersion: m.listVersion, verdict: m.verdict }),
    t(m.matchedFields.includes("alias") ? "match.why.alias" : "match.why.name", {
      client: p.name,
      listed: m.matchedName,
    }),
  ];
  const read = visibleName(p.name);
  if (read.hidden.length > 0 || read.mixedScripts)
    out.push(t("match.why.disguised", { compared: read.visible }));
  if (type !== m.entry.type) out.push(t("match.why.type_differs", { client: type, listed: m.entry.type }));
  if (m.notes.some((n) => n.startsWith("a name of common given names")))
    out.push(t("match.why.common_names"));

  const date = type === "entity" ? (p.incorporationDate ?? p.birthdate) : p.birthdate;
  const dateType = m.entry.type === "entity" ? "entity" : "person";
  if (!date || m.entry.dates.length === 0)
    out.push(t("match.why.date_unknown", { type: dateType, side: date ? "entry" : "client" }));
  else {
    const listed = m.entry.dates.join(", ");
    const near = m.notes.some((n) => n.includes(`${date} is close to`));
    out.push(
      t(
        m.matchedFields.includes("date")
          ? "match.why.date_agrees"
          : near
            ? "match.why.date_near"
            : "match.why.date_differs",
        { type: dateType, client: date, listed },
      ),
    );
  }

  if (p.nationality && m.entry.countries.length > 0)
    out.push(
      t(m.matchedFields.includes("country") ? "match.why.country_agrees" : "match.why.country_differs", {
        client: p.nationality,
        listed: m.entry.countries.join(", "),
      }),
    );

  // The identifiers the profile and the entry share, and an RFC that differs only in its homoclave.
  const listedIds = new Set(m.entry.identifiers.map((i) => normalised(i.value)));
  const shared = (p.identifiers ?? []).filter((i) => listedIds.has(normalised(i.value)));
  for (const i of shared)
    out.push(t("match.why.identifier_agrees", { kind: i.kind.toUpperCase(), value: i.value }));
  const stems = (p.identifiers ?? []).filter(
    (i) =>
      i.kind === "rfc" &&
      !shared.includes(i) &&
      m.entry.identifiers.some(
        (e) => e.kind === "rfc" && normalised(e.value).slice(0, 10) === normalised(i.value).slice(0, 10),
      ),
  );
  for (const i of stems) out.push(t("match.why.identifier_stem", { value: i.value }));
  if (shared.length + stems.length === 0 && (p.identifiers?.length ?? 0) > 0)
    out.push(t("match.why.identifier_none"));
  return out;
}
