// Who the client is, as far as a payer's name, tax id or account can be compared with it: the names, tax ids and
// own accounts its profile (read from the integrator) gives. A deposit from the client's own account at another
// bank is the client's money, not a third party's; the rules that count payers leave such deposits out. The payers
// the profile declares as the client's sources of funds (`knownPayers`: its employer's payroll) are not the client,
// but their deposits are no third-party funding either.
import type { Profile } from "../jurisdictions/index.ts";
import { comparedTokens } from "../screening/index.ts";

export interface ClientIdentity {
  /** each name's compared tokens (accents, case, particles and legal forms removed) */
  names: string[][];
  /** tax ids and accounts, upper case, without punctuation */
  ids: Set<string>;
  /** the payers the profile declares as the client's sources of funds, compared as the client is */
  knownPayers: { names: string[][]; ids: Set<string> };
}

const TAX_ID_KEY =
  /^(rfc|curp|nit|cpf|cnpj|taxId|numeroIdentificacion|clabeInterbancaria|cuentaRelacionada)$/i;
const plain = (v: string) => v.replace(/[\s./-]/g, "").toUpperCase();

function collectIds(value: unknown, into: Set<string>): void {
  if (!value || typeof value !== "object") return;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === "string" && TAX_ID_KEY.test(k) && v.trim() !== "") into.add(plain(v));
    else if (typeof v === "object" && k !== "beneficiarioControlador") collectIds(v, into);
  }
}

/** The client's identity from its profile. */
export function identityOf(profile: Profile): ClientIdentity {
  const names: string[][] = [];
  const person = [profile.givenName, profile.paternalSurname, profile.maternalSurname]
    .filter(Boolean)
    .join(" ");
  if (person) names.push(comparedTokens(person, "person"));
  if (profile.denominacionRazon) names.push(comparedTokens(profile.denominacionRazon, "entity"));
  const ids = new Set<string>();
  const { knownPayers, ...own } = profile;
  collectIds(own, ids);
  const known = { names: [] as string[][], ids: new Set<string>() };
  for (const p of knownPayers ?? []) {
    if (p.name) known.names.push(comparedTokens(p.name));
    for (const id of [p.taxId, p.account]) if (id?.trim()) known.ids.add(plain(id));
  }
  known.names = known.names.filter((n) => n.length > 0);
  return { names: names.filter((n) => n.length > 0), ids, knownPayers: known };
}

/** Whether a payer or payee is the client itself: the same tax id or account, or the same name. */
export function isClient(
  identity: ClientIdentity,
  party: { name?: string; taxId?: string; account?: string },
): boolean {
  return matches(identity, party);
}

/** Whether a payer is the client or one of the sources of funds its profile declares (its employer). */
export function isKnownPayer(
  identity: ClientIdentity,
  party: { name?: string; taxId?: string; account?: string },
): boolean {
  return matches(identity, party) || matches(identity.knownPayers, party);
}

function matches(
  who: { names: readonly string[][]; ids: ReadonlySet<string> },
  party: { name?: string; taxId?: string; account?: string },
): boolean {
  if (party.taxId && who.ids.has(plain(party.taxId))) return true;
  if (party.account && who.ids.has(plain(party.account))) return true;
  if (!party.name) return false;
  const tokens = new Set(comparedTokens(party.name));
  // The same name in any order ("Pérez García Ana" for "Ana Pérez García"): every token of the name, and nothing of
  // two tokens or more besides (a namesake's second surname).
  return who.names.some(
    (n) => n.every((t) => tokens.has(t)) && [...tokens].filter((t) => !n.includes(t)).length === 0,
  );
}
