// A migrated database for tests that need storage but no HTTP service; audit entries are signed with the test secret's
// keys, as a service would (src/projects/audit-head.ts).
import { deriveKeys } from "../../src/platform/crypto/secrets.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import { type Database, openDatabase } from "../../src/platform/db/open.ts";
import { useAuditKeys } from "../../src/projects/index.ts";
import type { DB } from "../../src/schema.ts";
import { testDatabase } from "./database.ts";
import { TEST_SECRET } from "./service.ts";

export async function openTestDatabase(): Promise<Database<DB> & { drop(): Promise<void> }> {
  const target = testDatabase();
  const database = await openDatabase<DB>(target);
  await migrate(database);
  useAuditKeys(deriveKeys(TEST_SECRET));
  return Object.assign(database, {
    async drop() {
      await database.close();
      await target.drop();
    },
  });
}
