// The one port every jurisdiction implements (mx/, co/, sv/, gt/): its code, name, time zone and currency; its law
// rules as dated data with their sources (a RuleBook, src/regulation) and its accumulation functions, which both the
// transfer checker and the monthly files call; its monthly files and urgent avisos; its filing calendar; the schema
// of its reporting-entity settings; and what it needs of a client's profile. Adding a country is adding a folder
// that implements this port and a line in registry.ts.
import type { TSchema } from "@sinclair/typebox";
import type { ClientOperation, RuleBook, ThresholdSpec } from "../regulation/index.ts";
import type { Profile } from "./profile.ts";

/** What names one operation: one transfer seen from one monitored address of a user. */
export type OperationId = Pick<ClientOperation, "userId" | "addressId" | "chainId" | "txHash" | "logIndex">;

/** Where a file of a month goes: the user's monthly file, a 24-hour aviso, or a month's nil report. */
export type FileKind = "monthly" | "urgent" | "zero";

/** What a file's avisos were when written: a filed one that changes later becomes a correction (Mexico). */
export interface FileEntry {
  reference: string;
  digest: string;
}

export interface FiledAviso {
  digest: string;
  /** the folio the regulator gave the filing, when recorded */
  folio: string | null;
}

export type Rendered =
  | { ok: true; content: Buffer; entries: FileEntry[] }
  /** nothing left to write (every aviso already filed as it is) */
  | { ok: true; content: undefined }
  | { ok: false; reason: string };

/** A file a generation wants to write: its slot (kind and stem), its name, and how to render it. */
export interface ClientFile {
  kind: FileKind;
  userId: string | null;
  /** file name without version and extension: the user id, `<user>.24h.<reference>`, or the nil report's name */
  stem: string;
  extension: "xml" | "txt";
  mediaType: string;
  /** the profile the file is built from, kept with it */
  profile: Profile | undefined;
  /** checks a rendered file before it is stored (the AVI's XSD); the errors say why it is refused */
  validate?: (content: Buffer) => Promise<string[]>;
  /** `filed`: the avisos of the slot's filed versions by reference, when any version was filed */
  render(filed: ReadonlyMap<string, FiledAviso> | undefined): Rendered;
}

/** Why a client's file could not be built, naming the profile field where one is at fault. */
export interface Blocked {
  /** a short, stable reason class for the metric: profile_unreadable, profile_incomplete, no_value, ... */
  code: string;
  reason: string;
  /** the profile field at fault (`mexico.documentoIdentificacion`), when one is */
  field?: string;
}

/** A file that could not be built at all: its slot keeps its old draft, and the failure is reported. */
export interface Refused extends Blocked {
  kind: FileKind;
  userId: string | null;
  /** the file it blocks, as a person reads it ("the monthly AVI of 2026-05") */
  blocks: string;
}

/** A client, as the reports see it for one jurisdiction. */
export type Client =
  /** governed here: the profile, and the operations this jurisdiction reports */
  | { kind: "here"; profile: Profile; operations: ClientOperation[] }
  /** governed by another enabled jurisdiction, or by none of the project's (`governedBy` null) */
  | { kind: "elsewhere"; governedBy: string | null }
  /** the profile could not be read: which jurisdiction governs is unknown, and no file can be built */
  | { kind: "unreadable"; reason: string };

export interface MonthInput {
  projectId: number;
  period: string;
  /** the month's first instant and the next month's, in the jurisdiction's time zone */
  bounds: { start: Date; end: Date };
  /** the jurisdiction's settings in the project (its reporting entity), checked against `settings.schema` */
  settings: unknown;
  /** the project's checked operations from `lookbackStart(period)` to the month's end, oldest first per user */
  operations: ClientOperation[];
  /** urgent avisos (24-hour) the month owes, written or not */
  urgentAvisos: number;
  /** operations of the month without a settled verdict (waiting to be checked, or not judgeable yet) */
  unsettled: number;
  /** the client of `userId` and which of these operations this jurisdiction reports */
  client(userId: string, operations: ClientOperation[]): Promise<Client>;
}

export interface MonthBuild {
  files: ClientFile[];
  refused: Refused[];
  /** clients with reportable operations that another jurisdiction (or none) governs */
  elsewhere: { userId: string; governedBy: string | null }[];
  /** problems of the whole month (no reporting entity in the settings) */
  problems: Blocked[];
}

/** An urgent aviso (Mexico's 24 hours): built for one operation as soon as the checker finds it. */
export interface UrgentAvisos {
  /** the rules whose infringement makes an urgent aviso */
  rules: readonly string[];
  /** how long after the operation is detected the aviso is due */
  dueWithinMs: number;
  /** the stem of the operation's file (its slot, whether or not it can be built) */
  stemOf(operation: OperationId): string;
  build(input: {
    settings: unknown;
    operation: ClientOperation;
    profile: Profile;
    period: string;
  }): { ok: true; file: ClientFile } | { ok: false; blocked: Blocked };
  /** the grounds of avisos due from knowledge alone, with their sources and dates */
  bases: readonly AvisoBasis[];
  /**
   * the lists of persons a client found a `match` on owes an aviso from that moment (Mexico's LPB), with the ground
   * of the aviso, and the ground of the aviso owed when a person on it tried to operate and did not
   */
  listings: readonly { list: string; basis: string; attemptBasis: string }[];
  /** the stem of the file of an aviso due from knowledge */
  knownStemOf(aviso: { userId: string; reference: string }): string;
  /** the file of an aviso due from knowledge (no transfer made it due) */
  buildKnown(input: {
    settings: unknown;
    aviso: KnownAviso;
    profile: Profile;
    period: string;
  }): { ok: true; file: ClientFile } | { ok: false; blocked: Blocked };
}

/** One version of a ground for an aviso due from knowledge alone: its text and source on the days it is in force. */
export interface AvisoBasisVersion {
  /** first day in force (the jurisdiction's time zone), inclusive */
  validFrom: string;
  /** last day in force, inclusive; absent while in force */
  validTo?: string;
  description: string;
  source: string;
}

/**
 * A ground on which an aviso is due from what the provider learns, with no transfer to anchor it: a client found on
 * a list of blocked persons, an attempted operation, the officer's suspicion. A closed catalog per jurisdiction.
 */
export interface AvisoBasis {
  id: string;
  name: string;
  /** the alert code the aviso carries (Mexico's tipo_alerta) */
  alertCode: number;
  versions: readonly AvisoBasisVersion[];
}

/** An aviso due from knowledge, as the reports build its file. */
export interface KnownAviso {
  userId: string;
  /** the aviso's reference (Mexico's referencia_aviso): stable, derived from the aviso's identity */
  reference: string;
  basis: AvisoBasis;
  /** the facts, as the file's description of the alert says them */
  narrative: string;
  /** the account the aviso names (a monitored address), when one is known */
  account?: string;
  /** operations the aviso reports, when it is about some (the officer's, by their hashes) */
  operations: ClientOperation[];
}

/** One filing a period owes a regulator. */
export interface FilingDefinition {
  /** stable id within the jurisdiction: MX-AVI-MONTHLY, CO-TRANSACTIONS, CO-ROS-ABSENCE, ... */
  id: string;
  name: string;
  /** the last instant it may be filed */
  deadline: Date;
  /** the legal source of the deadline */
  source: string;
  /** false when the deadline was read in secondary sources, not in the law's own text (`source` says which) */
  verified?: boolean;
  /**
   * the file kinds of the month that make it (its state follows theirs); null for a filing Vigía writes no file
   * for (its state follows what an officer records with POST /reports/calendar/filed)
   */
  fileKinds: readonly FileKind[] | null;
}

export interface Jurisdiction extends RuleBook {
  /**
   * the files' alphabet has no lower case (Mexico's AVI: `[A-Z0-9]`): addresses whose case matters (Tron's
   * base58check) are written in a case-free form (Tron's hex, `41…`)
   */
  upperCaseFiles?: boolean;
  /** ISO 3166-1 code of the country, which is also the jurisdiction's code */
  countryCode: string;
  /** the country's name in its language */
  name: string;
  /** the regulator the files go to */
  regulator: string;
  /** the reporting-entity settings of a project (`jurisdiction_settings.<code>`) */
  settings: TSchema;
  /** the reporting thresholds the structuring detector measures against */
  thresholds: readonly ThresholdSpec[];
  /** why the profile cannot serve this jurisdiction's files, naming the field; undefined when it can */
  profileGap(profile: Profile): Blocked | undefined;
  /** where the month's files start reading operations (a lookback for accumulations) */
  lookbackStart(bounds: { start: Date; end: Date }): Date;
  /** the month's files */
  monthly(input: MonthInput): Promise<MonthBuild>;
  urgent?: UrgentAvisos;
  /** the filings a period (YYYY-MM) owes */
  calendar(period: string): FilingDefinition[];
}
