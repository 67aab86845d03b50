// A migrated database for tests that need storage but no HTTP service.
import { migrate } from "../../src/platform/db/migrate.ts";
import { type Database, openDatabase } from "../../src/platform/db/open.ts";
import type { DB } from "../../src/schema.ts";
import { testDatabase } from "./database.ts";

export async function openTestDatabase(): Promise<Database<DB> & { drop(): Promise<void> }> {
  const target = testDatabase();
  const database = await openDatabase<DB>(target);
  await migrate(database);
  return Object.assign(database, {
    async drop() {
      await database.close();
      await target.drop();
    },
  });
}
