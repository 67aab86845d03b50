// What one entry of a list of persons is, whatever list it came from (OFAC's SDN list, the UN Security Council's
// consolidated list, the SAT's Art. 69-B list, the UIF's Lista de Personas Bloqueadas, an OpenSanctions source in
// FollowTheMoney form): the names it is known by, the dates, nationalities and identifiers that confirm or rule out
// a namesake, and the programmes or list sections it is on. The importers (src/ingest/person-lists) turn each
// format into these; the matcher (match/) reads only these.
import { type Static, Type } from "@sinclair/typebox";
import { StringEnum } from "../platform/http/schemas.ts";

/** The lists Vigía reads, by the name `vigia lists import KIND` takes. */
export const LIST_KINDS = ["ofac-sdn", "un", "sat-69b", "mx-lpb", "ftm"] as const;
export type ListKind = (typeof LIST_KINDS)[number];

export const IDENTIFIER_KINDS = ["rfc", "curp", "passport", "national_id", "tax_id", "other"] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

export const IdentifierSchema = Type.Object({
  kind: StringEnum(IDENTIFIER_KINDS),
  value: Type.String({ minLength: 1, maxLength: 100 }),
  /** ISO 3166-1 alpha-2 of the issuing country, when the list says */
  country: Type.Optional(Type.String({ pattern: "^[A-Z]{2}$" })),
});
export type Identifier = Static<typeof IdentifierSchema>;

export const ListEntrySchema = Type.Object({
  /** the list's own id of the entry (OFAC's ent_num, the UN's reference number, the SAT's RFC, FtM's id) */
  entryId: Type.String({ minLength: 1 }),
  type: Type.Union([Type.Literal("person"), Type.Literal("entity")]),
  /** the primary name first, then the aliases, as the list writes them */
  names: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  /** dates of birth (persons) or of incorporation (entities): YYYY, YYYY-MM or YYYY-MM-DD */
  dates: Type.Array(Type.String({ pattern: "^\\d{4}(-\\d{2}(-\\d{2})?)?$" })),
  /** nationalities or citizenships (persons), countries of incorporation (entities): ISO 3166-1 alpha-2 */
  countries: Type.Array(Type.String({ pattern: "^[A-Z]{2}$" })),
  identifiers: Type.Array(IdentifierSchema),
  /** the programmes, sections or situations it is listed under (SDGT, "Definitivo", role.pep, ...) */
  programs: Type.Array(Type.String()),
  /** what the list says beside (remarks, the listing's reason), kept short */
  remarks: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type ListEntry = Static<typeof ListEntrySchema>;

/** What an importer knows of the list as a whole. */
export interface ListInfo {
  kind: ListKind;
  /**
   * the list's own version when it gives one (OFAC's publish date and record count, the UN's dateGenerated, the
   * SAT file's update date); otherwise the importer leaves it undefined and the store names the version by the
   * content's digest
   */
  version: string | undefined;
  /** the date the list was published or last updated (YYYY-MM-DD), when it says */
  listDate: string | undefined;
  /** where it came from: the official URL, or the file read */
  source: string;
  /** the project whose own list it is (the UIF's LPB, delivered to each provider); absent for a service-wide list */
  projectId?: number;
}

/** The kinds of list each project holds its own of: the UIF delivers the LPB to each obligated subject. */
export const PROJECT_LIST_KINDS: readonly ListKind[] = ["mx-lpb"];
