// The browser pages in a running service (the graph viewer, the officer's desk): served outside /v1.
import type { Base } from "../platform/assembly.ts";
import type { DB } from "../schema.ts";
import { registerViewerRoutes } from "./routes.ts";

export function wireViewer(base: Base<DB>): void {
  base.assembly.pages((root) => registerViewerRoutes(root));
}
