// El Salvador's and Guatemala's legal-case table (test/jurisdictions/cases/sv-gt.ts) on the real service: each case's transfers
// checked by the real checker and its months generated, every AVI validated against the official XSD and every
// Colombian file against its documented layout (support/legal-case.ts). PGlite, or PostgreSQL with DATABASE_URL.
import { SV_GT_CASES } from "./cases/sv-gt.ts";
import { playCases } from "./support/legal-case.ts";

playCases("El Salvador's and Guatemala's legal cases", SV_GT_CASES, 3);
