// Migration 0024 (decision 0027): notifications queued before the international rules' laws carried
// countryCode "XB" get it, so that a retry or a redelivery sends what a new notification would; nothing else in a
// body changes (a user's text holding the same characters, an error message). On a store migrated up to 0023, then
// to the end. PGlite in memory, or a PostgreSQL schema with DATABASE_URL.
import { afterAll, describe, expect, it } from "vitest";
import { migrate, readMigrations } from "../../src/platform/db/migrate.ts";
import { openDatabase } from "../../src/platform/db/open.ts";
import type { DB } from "../../src/schema.ts";
import { testDatabase } from "../support/database.ts";

const target = testDatabase();
afterAll(() => target.drop());

const law = (countryCode: string | null) => ({
  name: "OFAC SDN: sanctioned counterparty",
  description: "…",
  source: "https://sanctionslist.ofac.treas.gov",
  risk: "illegal",
  country: "international",
  countryCode,
  id: "XB-OFAC",
  verified: true,
});

describe("migration 0024", () => {
  it("gives the queued notifications' international laws countryCode XB, and changes nothing else", async () => {
    const database = await openDatabase<DB>({
      databaseUrl: target.databaseUrl,
      dataDir: "memory://",
      schema: target.schema,
    });
    try {
      const all = readMigrations();
      expect(all.map((m) => m.name)).toContain("0024_international_country_code");
      await migrate(
        database,
        all.filter((m) => m.name < "0024"),
      );
      const db = database.db;
      const { id: projectId } = await db
        .insertInto("projects")
        .values({ name: "Before", updated_at: new Date() })
        .returning("id")
        .executeTakeFirstOrThrow();
      const bodies = {
        pending: {
          type: "notification",
          data: {
            address: { description: 'says "countryCode":null in its text' },
            inflictedLaws: [law(null), { ...law("MX"), country: "mexico", id: "MX-AVISO" }],
          },
        },
        delivered: { type: "notification", data: { inflictedLaws: [law(null)] } },
        error: { type: "error", data: 'User u-1: "countryCode":null' },
      };
      for (const [status, body] of Object.entries(bodies))
        await db
          .insertInto("notifications")
          .values({
            message_id: `msg_${status}`,
            project_id: projectId,
            address_id: null,
            chain_id: null,
            tx_hash: null,
            log_index: null,
            type: body.type as "notification" | "error",
            body: JSON.stringify(body),
            status: status === "delivered" ? "delivered" : "pending",
            last_error: null,
          })
          .execute();

      expect(await migrate(database, all)).toContain("0024_international_country_code");
      const rows = await db
        .selectFrom("notifications")
        .select(["message_id", "body"])
        .orderBy("message_id")
        .execute();
      const after = Object.fromEntries(rows.map((r) => [r.message_id.slice(4), JSON.parse(r.body)]));
      expect(after.pending.data.inflictedLaws.map((l: { countryCode: string }) => l.countryCode)).toEqual([
        "XB",
        "MX",
      ]);
      expect(after.pending.data.address.description).toBe('says "countryCode":null in its text');
      expect(after.delivered.data.inflictedLaws[0].countryCode).toBe("XB");
      expect(after.error).toEqual(bodies.error);
    } finally {
      await database.close();
    }
  });
});
