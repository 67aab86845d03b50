// The audit log as a hash chain per project (docs/operations.md, "The audit log"): every write links to the entry
// before it in its project's chain and moves the chain's signed head; `verifyAudit` (and `vigia audit verify`) finds
// an intact log intact, and names the first broken link when an entry is changed, removed or slipped in around the
// service; entries written before the chain existed are linked once, by the upgrade that brings the signed heads,
// never by an ordinary write; writers at once still make one line.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/platform/db/migrate.ts";
import { openDatabase } from "../../src/platform/db/open.ts";
import {
  insertProject,
  listHeads,
  sealChainsAtUpgrade,
  verifyAudit,
  writeAudit,
} from "../../src/projects/index.ts";
import type { DB } from "../../src/schema.ts";
import { openTestDatabase } from "../support/db-only.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

const cli = { kind: "cli" } as const;

async function newProject(name: string): Promise<number> {
  return database.db.transaction().execute((trx) => insertProject(trx, { name }, cli));
}

async function entriesOf(projectId: number) {
  return database.db
    .selectFrom("audit_log")
    .select(["id", "prev_hash", "hash", "details"])
    .where("project_id", "=", projectId)
    .orderBy("id")
    .execute();
}

describe("the audit chain", () => {
  it("links every entry to the one before it in its project's chain, in and out of transactions", async () => {
    const a = await newProject("Chain A");
    const b = await newProject("Chain B");
    await writeAudit(database.db, { projectId: a, actor: "cli", action: "test.one", details: { n: 1 } });
    await database.db.transaction().execute(async (trx) => {
      await writeAudit(trx, { projectId: b, actor: "key:9", action: "test.other", target: "x" });
      await writeAudit(trx, {
        projectId: a,
        actor: "key:7",
        action: "test.two",
        details: { z: [1, { y: "ñ", b: null }], a: 0.1 },
      });
    });
    await writeAudit(database.db, { projectId: null, actor: "system", action: "test.service" });
    const rows = await entriesOf(a);
    expect(rows).toHaveLength(3); // project.created, then the two above
    expect(rows[0]?.prev_hash).toBeNull();
    expect(rows[1]?.prev_hash).toBe(rows[0]?.hash);
    expect(rows[2]?.prev_hash).toBe(rows[1]?.hash);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.hash ?? ""))).toBe(true);
    // B's chain is its own: its second entry links to B's first, not to A's.
    const bRows = await entriesOf(b);
    expect(bRows[1]?.prev_hash).toBe(bRows[0]?.hash);
    const report = await verifyAudit(database.db);
    expect(report.firstBroken).toBeNull();
    expect(report.heads.find((h) => h.projectId === a)).toMatchObject({
      projectId: a,
      seq: 3,
      id: String(rows[2]?.id),
      hash: rows[2]?.hash,
    });
    expect(report.heads.some((h) => h.projectId === null)).toBe(true);
  });

  it("leaves no trace of an entry whose transaction rolled back", async () => {
    const p = await newProject("Rolled back");
    await database.db
      .transaction()
      .execute(async (trx) => {
        await writeAudit(trx, { projectId: p, actor: "cli", action: "test.vanishes" });
        throw new Error("roll back");
      })
      .catch(() => {});
    await writeAudit(database.db, { projectId: p, actor: "cli", action: "test.kept" });
    const rows = await entriesOf(p);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.prev_hash).toBe(rows[0]?.hash);
    expect((await verifyAudit(database.db)).firstBroken).toBeNull();
  });

  it("stays one line when many write at once", async () => {
    const p = await newProject("Busy");
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        database.db
          .transaction()
          .execute((trx) =>
            writeAudit(trx, { projectId: p, actor: "cli", action: "test.burst", details: { i } }),
          ),
      ),
    );
    const rows = await entriesOf(p);
    expect(rows).toHaveLength(21);
    for (let i = 1; i < rows.length; i++) expect(rows[i]?.prev_hash).toBe(rows[i - 1]?.hash);
    expect((await verifyAudit(database.db)).firstBroken).toBeNull();
  });

  it("names the first broken link: an entry changed, then one removed", async () => {
    await withOwnDatabase(async (db) => {
      const p = await projectIn(db, "Tampered");
      for (let i = 1; i <= 3; i++) await writeAudit(db, { projectId: p, actor: "cli", action: `test.t${i}` });
      const [, second, third, fourth] = await db.selectFrom("audit_log").selectAll().orderBy("id").execute();
      // Changed: one detail of the second entry.
      await db
        .updateTable("audit_log")
        .set({ details: JSON.stringify({ edited: true }) })
        .where("id", "=", second?.id as string)
        .execute();
      let report = await verifyAudit(db);
      expect(report.firstBroken).toMatchObject({ projectId: p, id: String(second?.id), problem: "changed" });
      expect(report.firstBroken?.message).toMatch(
        new RegExp(`^entry ${second?.id} \\(project ${p}, test\\.t1, .*\\) was changed after it was written`),
      );
      await db
        .updateTable("audit_log")
        .set({ details: JSON.stringify(second?.details) })
        .where("id", "=", second?.id as string)
        .execute();
      expect((await verifyAudit(db)).firstBroken).toBeNull();

      // Removed: the third entry; the fourth's link names what is no longer there.
      await db
        .deleteFrom("audit_log")
        .where("id", "=", third?.id as string)
        .execute();
      report = await verifyAudit(db);
      expect(report.firstBroken).toMatchObject({ id: String(fourth?.id), problem: "link" });
      expect(report.firstBroken?.message).toContain("an entry between them was removed");
    });
  });

  it("names an entry inserted without a hash after the chain began, and never links it", async () => {
    await withOwnDatabase(async (db) => {
      const p = await projectIn(db, "Slipped in");
      const slipped = await db
        .insertInto("audit_log")
        .values({ project_id: p, actor: "someone", action: "test.slipped", details: "{}" })
        .returning("id")
        .executeTakeFirstOrThrow();
      await writeAudit(db, { projectId: p, actor: "cli", action: "test.after" });
      const rows = await db.selectFrom("audit_log").selectAll().orderBy("id").execute();
      expect(rows.find((r) => r.id === slipped.id)?.hash).toBeNull();
      // The write after it links to the last linked entry, over the slipped one.
      expect(rows.at(-1)?.prev_hash).toBe(rows[0]?.hash);
      const report = await verifyAudit(db);
      expect(report.firstBroken).toMatchObject({ id: String(slipped.id), problem: "unlinked" });
      expect(report.firstBroken?.message).toContain("written around the service");
    });
  });
});

/** A database of the test's own, for what breaks a chain on purpose. */
async function withOwnDatabase(fn: (db: Kysely<DB>) => Promise<void>): Promise<void> {
  const own = await openTestDatabase();
  try {
    await fn(own.db);
  } finally {
    await own.drop();
  }
}

async function projectIn(db: Kysely<DB>, name: string): Promise<number> {
  return db.transaction().execute((trx) => insertProject(trx, { name }, cli));
}

describe("entries written before the chain existed", () => {
  async function oldEntries(db: Kysely<DB>): Promise<number> {
    const { id: p } = await db
      .insertInto("projects")
      .values({ name: "Old", updated_at: new Date() })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const action of ["old.one", "old.two"])
      await db
        .insertInto("audit_log")
        .values({ project_id: p, actor: "cli", action, details: "{}" })
        .execute();
    return p;
  }

  it("are linked in id order, and their head signed, once by the upgrade", async () => {
    await withOwnDatabase(async (db) => {
      const p = await oldEntries(db);
      expect(await sealChainsAtUpgrade(db)).toBe(1);
      let report = await verifyAudit(db);
      expect(report).toMatchObject({ entries: 2, firstBroken: null });
      await writeAudit(db, { projectId: p, actor: "cli", action: "new.one" });
      report = await verifyAudit(db);
      expect(report).toMatchObject({ entries: 3, firstBroken: null });
      expect(report.heads).toMatchObject([{ projectId: p, seq: 3 }]);
      const rows = await db.selectFrom("audit_log").select(["prev_hash", "hash"]).orderBy("id").execute();
      expect(rows[0]?.prev_hash).toBeNull();
      expect(rows[1]?.prev_hash).toBe(rows[0]?.hash);
      expect(rows[2]?.prev_hash).toBe(rows[1]?.hash);
      // Never twice: a chain with a head is left alone.
      expect(await sealChainsAtUpgrade(db)).toBe(0);
    });
  });

  it("are never linked by an ordinary write: they stay unlinked, and verify names them", async () => {
    await withOwnDatabase(async (db) => {
      const p = await oldEntries(db);
      let report = await verifyAudit(db);
      expect(report.problems.map((b) => b.problem)).toEqual(["unlinked", "unlinked", "head-missing"]);
      await writeAudit(db, { projectId: p, actor: "cli", action: "new.one" });
      const rows = await db.selectFrom("audit_log").select(["prev_hash", "hash"]).orderBy("id").execute();
      expect(rows.slice(0, 2).every((r) => r.hash === null)).toBe(true);
      expect(rows[2]?.prev_hash).toBeNull();
      report = await verifyAudit(db);
      expect(report.firstBroken).toMatchObject({ problem: "unlinked" });
      expect((await listHeads(db))[0]).toMatchObject({ projectId: p, seq: 1 });
    });
  });
});

describe("vigia audit verify", () => {
  it("exits 0 on an intact log and 1 on a tampered one, naming the entry", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-audit-"));
    const env = { ...process.env, DATABASE_URL: "", VIGIA_DATA_DIR: dataDir, VIGIA_LOG_LEVEL: "silent" };
    const vigia = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, "bin", "vigia.js"), ...args], {
        cwd: ROOT,
        env,
        encoding: "utf8",
        timeout: 120_000,
      });
    try {
      expect(vigia("projects", "create", "--name", "Audited").status).toBe(0);
      let run = vigia("audit", "verify");
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        intact: true,
        entries: 2,
        chains: 1,
        firstBroken: null,
      });

      const store = await openDatabase<DB>({ dataDir });
      await migrate(store);
      await sql`UPDATE audit_log SET actor = 'key:1' WHERE id = 1`.execute(store.db);
      await store.close();
      run = vigia("audit", "verify");
      expect(run.status).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({
        intact: false,
        firstBroken: { id: "1", problem: "changed" },
      });
      expect(run.stderr).toMatch(
        /^vigia: the audit log is broken: entry 1 \(project 1, project\.created, .*\) was changed/,
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
