// Where `vigia lists refresh KIND` fetches each list from, and the download itself: through the safe outbound
// client (its address policy, a size limit, a total timeout) to a temporary file the caller removes. The UIF's
// Lista de Personas Bloqueadas is not public (the UIF gives it to the obligated subject), so it has no URL; an
// OpenSanctions dataset is chosen by the operator, whose licence decides which one (docs/person-lists.md).
// Every official URL is https: each of these publishers serves its list over https, and a list fetched in the clear
// could be swapped on the way for one that leaves people out. A plain-http address given with --url is still
// fetched (a mirror on the operator's own network, a stand-in in tests), with a warning (plainHttpWarning).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type OutboundClient, OutboundError } from "../../platform/outbound/index.ts";
import type { ListKind } from "../../screening/index.ts";
import { OFAC_SDN_URL } from "../sanctions/update.ts";

export const OFFICIAL_URLS: Record<ListKind, string | undefined> = {
  // The SDN list with aliases, dates of birth, nationalities and identifiers in one file.
  "ofac-sdn": OFAC_SDN_URL,
  un: "https://scsanctions.un.org/resources/xml/en/consolidated.xml",
  "sat-69b": "https://omawww.sat.gob.mx/cifras_sat/Documents/Listado_Completo_69-B.csv",
  "mx-lpb": undefined,
  ftm: undefined,
};

export const NO_URL: Record<ListKind, string> = {
  "ofac-sdn": "",
  un: "",
  "sat-69b": "",
  "mx-lpb":
    "the UIF's Lista de Personas Bloqueadas is not public: import the copy the UIF gave you with `vigia lists import mx-lpb FILE --project N` (its CSV layout: docs/person-lists.md)",
  ftm: "an OpenSanctions dataset is yours to choose under its licence (CC BY-NC 4.0 for non-commercial use; a commercial licence otherwise): give its FollowTheMoney export with --url, e.g. https://data.opensanctions.org/datasets/latest/peps/entities.ftm.json",
};

/** What to tell the operator before a list is fetched without TLS, or nothing for an https URL. */
export function plainHttpWarning(url: string): string | undefined {
  if (new URL(url).protocol !== "http:") return undefined;
  return `${url} is plain http: the list is not protected in transit (anyone on the path could alter it); use an https address where the publisher offers one`;
}

/** The largest list accepted (OpenSanctions' PEP export is a few hundred megabytes). */
const MAX_BYTES = 4 * 1024 * 1024 * 1024;

export async function downloadList(
  outbound: OutboundClient,
  kind: ListKind,
  url: string,
  timeoutMs = 600_000,
  /** cancels the download (a worker stopping) */
  signal?: AbortSignal,
): Promise<string> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), `vigia-${kind}-`));
  const file = path.join(dir, path.basename(new URL(url).pathname) || `${kind}.list`);
  try {
    const response = await outbound.request({
      method: "GET",
      url,
      timeoutMs,
      maxResponseBytes: MAX_BYTES,
      toFile: file,
      sameHostRedirects: 3,
      ...(signal ? { signal } : {}),
    });
    if (response.status < 200 || response.status >= 300) throw new Error(`${url}: HTTP ${response.status}`);
  } catch (error) {
    await fs.promises.rm(dir, { recursive: true, force: true });
    throw error instanceof OutboundError ? new Error(`${url}: ${error.message}`) : error;
  }
  return file;
}
