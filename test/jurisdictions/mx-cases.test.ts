// Mexico's legal-case table (test/jurisdictions/cases/mx.ts) on the real service: each case's transfers
// checked by the real checker and its months generated, every AVI validated against the official XSD and every
// Colombian file against its documented layout (support/legal-case.ts). PGlite, or PostgreSQL with DATABASE_URL.
import { MX_CASES } from "./cases/mx.ts";
import { playCases } from "./support/legal-case.ts";

playCases("Mexico's legal cases", MX_CASES, 1);
