// Mexico's legal cases of clients on the UIF's Lista de Personas Bloqueadas (MX-LPB; test/jurisdictions/cases/mx.ts):
// the list imported, each client screened at its first checked transfer by the real checker, the 24-hour avisos
// written and validated against the official XSD. In a file of their own, so that the lists they build are seen
// by no other case. PGlite, or PostgreSQL with DATABASE_URL.
import { MX_LPB_CASES } from "./cases/mx.ts";
import { playCases } from "./support/legal-case.ts";

playCases("Mexico's legal cases: clients on the LPB", MX_LPB_CASES, 7);
