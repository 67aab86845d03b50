// The international rules' legal-case table (test/jurisdictions/cases/international.ts) on the real service: each case's transfers
// checked by the real checker and its months generated, every AVI validated against the official XSD and every
// Colombian file against its documented layout (support/legal-case.ts). PGlite, or PostgreSQL with DATABASE_URL.
import { INTERNATIONAL_CASES } from "./cases/international.ts";
import { playCases } from "./support/legal-case.ts";

playCases("The international rules' legal cases", INTERNATIONAL_CASES, 4);
