// A file a generation wants to write: its slot in the month (the kind and the user), its name, and how to render
// it. Rendering is told which avisos were already filed, so that a Mexican file of a filed month carries only the
// new and the corrected avisos (docs/reports/mx.md, "Filed months").
import type { Profile } from "../monitoring/index.ts";
import type { ReportEntry, ReportKind } from "./tables.ts";

export interface FiledAviso {
  digest: string;
  /** the folio the UIF gave the filing, when recorded */
  folio: string | null;
}

export type Rendered =
  | { ok: true; content: Buffer; entries: ReportEntry[] }
  /** nothing left to write (every aviso already filed as it is) */
  | { ok: true; content: undefined }
  | { ok: false; reason: string };

export interface Candidate {
  kind: ReportKind;
  userId: string | null;
  /** file name without version and extension: the user id, or the informe en ceros' name */
  stem: string;
  extension: "xml" | "txt";
  mediaType: string;
  /** the profile the file is built from, kept with it */
  profile: Profile | undefined;
  /** checks a rendered file before it is stored (the AVI's XSD); the errors say why it is refused */
  validate?: (content: Buffer) => Promise<string[]>;
  /** `filed`: the avisos of the slot's filed versions by reference (Mexico), when any version was filed */
  render(filed: ReadonlyMap<string, FiledAviso> | undefined): Rendered;
}

/** A file that could not be built at all (its profile could not be read, say): the slot keeps its old draft. */
export interface Refused {
  kind: ReportKind;
  userId: string | null;
  reason: string;
}
