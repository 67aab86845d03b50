// The client cases in a running service: their routes.
import type { Base } from "../platform/assembly.ts";
import type { DB } from "../schema.ts";
import { registerCaseRoutes } from "./routes.ts";

export function wireCases(base: Base<DB>): void {
  base.assembly.routes((v1) => registerCaseRoutes(v1, { db: base.db, now: base.now }));
}
