// The jurisdictions room in a running service: Mexico's UMA of the years imported after this release
// (`vigia import uma`), read at the start and every minute, so a year imported while the service runs is judged by
// every process within a minute.
import type { Base } from "../platform/assembly.ts";
import type { DB } from "../schema.ts";
import { importedUma, useImportedUma } from "./mx/index.ts";

const UMA_READ_EVERY_MS = 60_000;

export async function wireJurisdictions(base: Base<DB>): Promise<void> {
  const log = base.log("uma");
  const readUma = () =>
    importedUma(base.db).then(useImportedUma, (error: Error) =>
      log.error({ err: error.message }, "the imported UMA values could not be read: kept as they were"),
    );
  await readUma();
  const refresh = setInterval(readUma, UMA_READ_EVERY_MS);
  refresh.unref();
  base.assembly.onClose(() => clearInterval(refresh));
}
