// The audit log cannot be laundered (docs/operations.md, "The audit log"; docs/decisions/0037-audit-head.md): whoever
// can write the database blanks the hash columns, edits, removes or cuts off entries, seals the chain again by hand,
// or lets an ordinary write seal it; every one of these is named by `verifyAudit` (`vigia audit verify`), against the
// chain's signed head and against the heads recorded before (`vigia audit head`, given back with `--head`). Each case
// tampers with a chain of its own (one project each). PGlite, or PostgreSQL with DATABASE_URL; the command line runs
// on an embedded data dir.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/platform/db/migrate.ts";
import { openDatabase } from "../../src/platform/db/open.ts";
import { entryHash } from "../../src/projects/audit-chain.ts";
import {
  type AuditHead,
  insertProject,
  listHeads,
  verifyAudit,
  writeAudit,
} from "../../src/projects/index.ts";
import type { DB } from "../../src/schema.ts";
import { openTestDatabase } from "../support/db-only.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Kysely<DB>;
beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
});
afterAll(async () => {
  await database?.drop();
});

/** A project whose chain holds project.created and three more entries; the heads as `vigia audit head` prints. */
async function chainOfFour(name: string): Promise<{ p: number; witness: AuditHead[] }> {
  const p = await db.transaction().execute((trx) => insertProject(trx, { name }, { kind: "cli" }));
  for (let i = 1; i <= 3; i++)
    await writeAudit(db, { projectId: p, actor: "key:1", action: "key.created", details: { n: i } });
  const witness = (await listHeads(db)).filter((h) => h.projectId === p);
  expect(witness).toMatchObject([{ projectId: p, seq: 4 }]);
  return { p, witness };
}

const entries = (p: number) =>
  db.selectFrom("audit_log").selectAll().where("project_id", "=", p).orderBy("id").execute();

/** What verify finds in the project's chain, without and with the heads recorded before. */
async function problems(p: number, witness: AuditHead[]) {
  const of = (r: Awaited<ReturnType<typeof verifyAudit>>) =>
    r.problems.filter((b) => b.projectId === p).map((b) => b.problem);
  return { alone: of(await verifyAudit(db)), witnessed: of(await verifyAudit(db, { witness })) };
}

const blank = (p: number) =>
  db.updateTable("audit_log").set({ hash: null, prev_hash: null }).where("project_id", "=", p).execute();

const ordinaryWrite = (p: number) => writeAudit(db, { projectId: p, actor: "key:1", action: "key.revoked" });

/** Seals the chain by hand, as anyone who reads src/projects/audit-chain.ts can. */
async function resealByHand(p: number) {
  let prev: string | null = null;
  for (const row of await entries(p)) {
    const hash = entryHash({ ...row, id: String(row.id), prev_hash: prev });
    await db.updateTable("audit_log").set({ prev_hash: prev, hash }).where("id", "=", row.id).execute();
    prev = hash;
  }
}

describe("laundering the audit chain", () => {
  it("an untouched chain is intact, alone and against the heads recorded", async () => {
    const { p, witness } = await chainOfFour("Untouched");
    await ordinaryWrite(p);
    expect(await problems(p, witness)).toEqual({ alone: [], witnessed: [] });
  });

  it("blank, edit, then an ordinary write: the write seals nothing, and the edit shows", async () => {
    const { p, witness } = await chainOfFour("Blank and edit");
    await blank(p);
    const [, second] = await entries(p);
    await db
      .updateTable("audit_log")
      .set({ details: JSON.stringify({ n: 99 }) })
      .where("id", "=", second?.id as string)
      .execute();
    let found = await problems(p, witness);
    expect(found.alone).toEqual(["unlinked", "unlinked", "unlinked", "unlinked", "resealed"]);
    await ordinaryWrite(p);
    const rows = await entries(p);
    expect(rows.slice(0, 4).every((r) => r.hash === null)).toBe(true); // nothing re-sealed
    found = await problems(p, witness);
    expect(found.alone).toContain("unlinked");
    expect(found.alone).toContain("link"); // the new entry links to the signed head, not to what is there now
    expect(found.witnessed).toContain("resealed");
  });

  it("blank, edit, seal again by hand: the signed head's hash is no longer in the chain", async () => {
    const { p, witness } = await chainOfFour("Resealed by hand");
    await blank(p);
    const [, second] = await entries(p);
    await db
      .updateTable("audit_log")
      .set({ actor: "key:2" })
      .where("id", "=", second?.id as string)
      .execute();
    await resealByHand(p);
    let found = await problems(p, witness);
    expect(found.alone).toEqual(["resealed"]);
    expect(found.witnessed).toEqual(["resealed", "resealed"]);
    await ordinaryWrite(p);
    found = await problems(p, witness);
    expect(found.alone).toEqual(["link"]);
    expect(found.witnessed).toEqual(["link", "resealed"]);
  });

  it("blank, delete an entry, then an ordinary write", async () => {
    const { p, witness } = await chainOfFour("Blank and delete");
    await blank(p);
    const [, , third] = await entries(p);
    await db
      .deleteFrom("audit_log")
      .where("id", "=", third?.id as string)
      .execute();
    await ordinaryWrite(p);
    const found = await problems(p, witness);
    expect(found.alone).toEqual(["unlinked", "unlinked", "unlinked", "link"]);
    expect(found.witnessed).toContain("resealed");
  });

  it("cut off the newest entries, then an ordinary write", async () => {
    const { p, witness } = await chainOfFour("Truncated");
    const rows = await entries(p);
    await db
      .deleteFrom("audit_log")
      .where("id", ">", rows[1]?.id as string)
      .where("project_id", "=", p)
      .execute();
    let found = await problems(p, witness);
    expect(found.alone).toEqual(["truncated"]);
    expect(found.witnessed).toEqual(["truncated", "truncated"]);
    await ordinaryWrite(p);
    found = await problems(p, witness);
    expect(found.alone).toEqual(["link"]);
    expect(found.witnessed).toEqual(["link", "truncated"]);
  });

  it("cut off, blank and seal by hand, then an ordinary write", async () => {
    const { p, witness } = await chainOfFour("Truncated and resealed");
    const rows = await entries(p);
    await db
      .deleteFrom("audit_log")
      .where("id", ">", rows[1]?.id as string)
      .where("project_id", "=", p)
      .execute();
    await blank(p);
    await resealByHand(p);
    expect((await problems(p, witness)).alone).toEqual(["truncated"]);
    await ordinaryWrite(p);
    const found = await problems(p, witness);
    expect(found.alone).toEqual(["link"]);
    expect(found.witnessed).toEqual(["link", "truncated"]);
  });

  it("blank everything and remove the head, then an ordinary write: the chain starts over, and it shows", async () => {
    const { p, witness } = await chainOfFour("Head removed");
    await blank(p);
    await db.deleteFrom("audit_heads").where("chain", "=", p).execute();
    expect((await problems(p, witness)).alone).toEqual([
      "unlinked",
      "unlinked",
      "unlinked",
      "unlinked",
      "head-missing",
    ]);
    await ordinaryWrite(p);
    const found = await problems(p, witness);
    expect(found.alone).toEqual(["unlinked", "unlinked", "unlinked", "unlinked"]);
    expect(found.witnessed).toEqual(["unlinked", "unlinked", "unlinked", "unlinked", "rollback", "resealed"]);
  });

  it("a head written around the service carries no valid signature", async () => {
    const { p, witness } = await chainOfFour("Head forged");
    const rows = await entries(p);
    await db
      .deleteFrom("audit_log")
      .where("id", "=", rows[3]?.id as string)
      .execute();
    await db
      .updateTable("audit_heads")
      .set({ entry_id: String(rows[2]?.id), hash: rows[2]?.hash as string, seq: 3 })
      .where("chain", "=", p)
      .execute();
    const found = await problems(p, witness);
    expect(found.alone).toEqual(["head-signature"]);
    expect(found.witnessed).toEqual(["head-signature", "rollback", "truncated"]);
    // The next write does not trust it: it starts over, and the break stays.
    await ordinaryWrite(p);
    expect((await problems(p, witness)).alone).toEqual(["link"]);
  });

  it("an older signed head put back with the chain cut to it: only the heads recorded before show it", async () => {
    const { p, witness: older } = await chainOfFour("Rolled back");
    const saved = await db
      .selectFrom("audit_heads")
      .selectAll()
      .where("chain", "=", p)
      .executeTakeFirstOrThrow();
    await ordinaryWrite(p);
    await ordinaryWrite(p);
    const witness = (await listHeads(db)).filter((h) => h.projectId === p);
    const rows = await entries(p);
    await db
      .deleteFrom("audit_log")
      .where("id", ">", rows[3]?.id as string)
      .where("project_id", "=", p)
      .execute();
    await db.updateTable("audit_heads").set(saved).where("chain", "=", p).execute();
    expect(await problems(p, older)).toEqual({ alone: [], witnessed: [] });
    expect((await problems(p, witness)).witnessed).toEqual(["rollback", "truncated"]);
  });
});

describe("vigia audit head and vigia audit verify --head", () => {
  it("name the laundering an ordinary write would have sealed", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-launder-"));
    const env = { ...process.env, DATABASE_URL: "", VIGIA_DATA_DIR: dataDir, VIGIA_LOG_LEVEL: "silent" };
    const vigia = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, "bin", "vigia.js"), ...args], {
        cwd: ROOT,
        env,
        encoding: "utf8",
        timeout: 120_000,
      });
    const headFile = path.join(dataDir, "head.json");
    try {
      expect(vigia("projects", "create", "--name", "Audited").status).toBe(0);
      expect(vigia("keys", "create", "--project", "1", "--label", "two", "--role", "viewer").status).toBe(0);
      const head = vigia("audit", "head");
      expect(head.status, head.stderr).toBe(0);
      const printed = JSON.parse(head.stdout);
      expect(printed.heads).toMatchObject([{ projectId: 1, seq: 3, id: "3" }]);
      fs.writeFileSync(headFile, head.stdout);
      let run = vigia("audit", "verify", "--head", headFile);
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ intact: true, witnessed: 1, firstBroken: null });

      // Blank the hashes, remove the newest entry, then an ordinary write through the command line.
      const store = await openDatabase<DB>({ dataDir });
      await migrate(store);
      await sql`UPDATE audit_log SET hash = NULL, prev_hash = NULL`.execute(store.db);
      await sql`DELETE FROM audit_log WHERE id = 3`.execute(store.db);
      await store.close();
      expect(vigia("keys", "create", "--project", "1", "--label", "three", "--role", "viewer").status).toBe(
        0,
      );

      run = vigia("audit", "verify");
      expect(run.status).toBe(1);
      const alone = JSON.parse(run.stdout);
      expect(alone.intact).toBe(false);
      expect(alone.firstBroken).toMatchObject({ id: "1", problem: "unlinked" });
      expect(run.stderr).toMatch(/^vigia: the audit log is broken: entry 1 .* has no hash/);

      run = vigia("audit", "verify", "--head", headFile);
      expect(run.status).toBe(1);
      const witnessed = JSON.parse(run.stdout);
      expect(witnessed.problems.map((b: { problem: string }) => b.problem)).toEqual([
        "unlinked",
        "unlinked",
        "link",
        "truncated",
      ]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
