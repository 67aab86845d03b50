// Avisos due from knowledge rather than from a transfer (docs/api.md, "Avisos"): a Mexican client found on the UIF's
// Lista de Personas Bloqueadas by a screening, whether or not it has operated since, and the avisos an officer
// raises herself (POST /projects/{id}/avisos: behaviour, adverse information, a listed person, an attempt). Each is recorded once, with the
// moment the provider learned of it and the deadline that runs from then; the reports write its file
// (src/reports/known-avisos.ts) and the filing calendar owes it.
export {
  type Aviso,
  avisoByReference,
  avisosOfAlert,
  avisosOfClient,
  avisosOfMonth,
  avisosOfProject,
  markAviso,
  unsettledAvisos,
} from "./read.ts";
export { type AvisoOrigin, knownReference, type NewAviso, recordAviso } from "./record.ts";
export type { AvisoListing, AvisoTables } from "./tables.ts";
