// Colombia's legal-case table (test/jurisdictions/cases/co.ts) on the real service: each case's transfers
// checked by the real checker and its months generated, every AVI validated against the official XSD and every
// Colombian file against its documented layout (support/legal-case.ts). PGlite, or PostgreSQL with DATABASE_URL.
import { CO_CASES } from "./cases/co.ts";
import { playCases } from "./support/legal-case.ts";

playCases("Colombia's legal cases", CO_CASES, 2);
