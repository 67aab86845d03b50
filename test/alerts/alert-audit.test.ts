// The case file in the audit log (docs/api.md, "Alerts" and "Monitored addresses"; docs/operations.md, "The audit
// log"): every change of an alert (raised, each triage change and note, closed) and each address registered or
// stopped writes an audit entry in the same transaction; an alert is served with its history checked against those
// entries (`historyAudit`), so that a history row edited, removed or slipped in around the service is named rather
// than served as genuine. PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertOrOpen } from "../../src/alerts/open-alert.ts";
import { appendHistory } from "../../src/alerts/raise.ts";
import { verifyAudit } from "../../src/projects/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

function api(method: "GET" | "PATCH" | "POST" | "DELETE", url: string, key: string, payload?: unknown) {
  return svc.app!.inject({ method, url, headers: auth(key), ...(payload ? { payload } : {}) });
}

interface AuditRow {
  action: string;
  actor: string;
  target: string | null;
  details: Record<string, unknown>;
}

async function auditOf(target: string): Promise<AuditRow[]> {
  const res = await api("GET", `/v1/projects/${svc.project.id}/audit?limit=100`, svc.project.keys.admin);
  expect(res.statusCode).toBe(200);
  return (res.json().data as AuditRow[]).filter((a) => a.target === target).reverse();
}

/** An alert raised as the raisers raise one: inserted, and its history's first row, in one transaction. */
async function raise(address: string): Promise<string> {
  const now = new Date();
  return svc.database.db.transaction().execute(async (trx) => {
    const alert = await insertOrOpen(trx, {
      projectId: svc.project.id,
      chainId: 1,
      address,
      userId: "u1",
      cause: "law",
      causeKey: "MX-TEST",
      level: "high",
      reason: "a test rule",
      evidence: { transfers: [], laws: [], wallets: [address] },
      addressId: null,
      now,
    });
    await appendHistory(trx, alert.id, "system", { event: "raised", txHash: "0xabc" }, now);
    return alert.id;
  });
}

const url = (id: string) => `/v1/projects/${svc.project.id}/alerts/${id}`;
const officer = () => svc.project.keys.officer;

describe("an alert's changes in the audit log", () => {
  it("records its raising and every triage change and note, each with who", async () => {
    const id = await raise(`0x${"a1".repeat(20)}`);
    for (const patch of [
      { status: "in_review" },
      { assignee: "dev" },
      { note: "called the client" },
      { status: "open", assignee: null },
      { status: "closed", resolution: "false_positive", note: "known counterparty" },
    ]) {
      const res = await api("PATCH", url(id), officer(), patch);
      expect(res.statusCode, res.body).toBe(200);
    }
    const entries = await auditOf(`alert:${id}`);
    expect(entries.map((e) => e.action)).toEqual([
      "alert.raised",
      "alert.status_changed",
      "alert.reassigned",
      "alert.noted",
      "alert.status_changed",
      "alert.closed",
    ]);
    expect(entries[0]).toMatchObject({ actor: "system", details: { change: { event: "raised" } } });
    expect(entries[2]?.details).toMatchObject({ change: { assignee: { from: null, to: "dev" } } });
    expect(entries[3]?.details).toMatchObject({ change: { note: "called the client" } });
    expect(entries[5]?.details).toMatchObject({
      change: { status: { to: "closed" }, resolution: "false_positive", note: "known counterparty" },
    });
    expect(entries.slice(1).every((e) => /^key:\d+$/.test(e.actor))).toBe(true);

    const served = (await api("GET", url(id), svc.project.keys.viewer)).json().data;
    expect(served.history).toHaveLength(6);
    expect(served.historyAudit).toEqual({ verified: true, beforeAudit: 0, differences: [] });
    expect((await verifyAudit(svc.database.db)).firstBroken).toBeNull();
  });

  it("serves an edited, removed or slipped-in history row as such, not as genuine", async () => {
    const id = await raise(`0x${"b2".repeat(20)}`);
    expect((await api("PATCH", url(id), officer(), { note: "first look: benign" })).statusCode).toBe(200);
    expect((await api("PATCH", url(id), officer(), { status: "escalated" })).statusCode).toBe(200);
    const db = svc.database.db;
    const rows = await db
      .selectFrom("alert_history")
      .selectAll()
      .where("alert_id", "=", id)
      .orderBy("id")
      .execute();
    expect(rows).toHaveLength(3);

    // Edited: the note says something else now.
    await db
      .updateTable("alert_history")
      .set({ change: JSON.stringify({ note: "first look: suspicious" }) })
      .where("id", "=", rows[1]?.id as string)
      .execute();
    let served = (await api("GET", url(id), svc.project.keys.viewer)).json().data;
    expect(served.history[1].change).toEqual({ note: "first look: suspicious" });
    expect(served.historyAudit).toMatchObject({
      verified: false,
      differences: [
        {
          historyId: String(rows[1]?.id),
          index: 1,
          problem: "changed",
          recorded: { change: { note: "first look: benign" } },
        },
      ],
    });

    // Removed: the escalation is gone.
    await db
      .deleteFrom("alert_history")
      .where("id", "=", rows[2]?.id as string)
      .execute();
    // Slipped in: a row the service never wrote.
    await db
      .insertInto("alert_history")
      .values({ alert_id: id, at: new Date(), actor: "key:1", change: JSON.stringify({ note: "all clear" }) })
      .execute();
    served = (await api("GET", url(id), svc.project.keys.viewer)).json().data;
    expect(served.historyAudit.verified).toBe(false);
    expect(
      served.historyAudit.differences.map((d: { problem: string; index: number | null }) => [
        d.problem,
        d.index,
      ]),
    ).toEqual([
      ["changed", 1],
      ["unrecorded", 2],
      ["removed", null],
    ]);
    expect(served.historyAudit.differences[2].recorded.change).toEqual({
      status: { from: "open", to: "escalated" },
    });

    // An audit entry edited to agree with the edited row is no cover: the entry no longer holds its hash.
    const entry = await db
      .selectFrom("audit_log")
      .select(["id", "details"])
      .where("target", "=", `alert:${id}`)
      .where("action", "=", "alert.noted")
      .executeTakeFirstOrThrow();
    await db
      .updateTable("audit_log")
      .set({ details: JSON.stringify({ ...entry.details, change: { note: "first look: suspicious" } }) })
      .where("id", "=", entry.id)
      .execute();
    served = (await api("GET", url(id), svc.project.keys.viewer)).json().data;
    expect(served.historyAudit.differences[0]).toMatchObject({ index: 1, problem: "audit_entry_changed" });
    // Put the audit entry back, for the tests after this one.
    await db
      .updateTable("audit_log")
      .set({ details: JSON.stringify(entry.details) })
      .where("id", "=", entry.id)
      .execute();
  });
});

describe("monitored addresses in the audit log", () => {
  it("records each address registered and stopped, with who", async () => {
    const address = `0x${"c3".repeat(20)}`;
    const created = await api(
      "POST",
      `/v1/projects/${svc.project.id}/addresses`,
      svc.project.keys.developer,
      {
        address,
        chainId: 1,
        foreign_user_id: "client-7",
      },
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id;
    const stopped = await api(
      "DELETE",
      `/v1/projects/${svc.project.id}/addresses/${id}`,
      svc.project.keys.developer,
    );
    expect(stopped.statusCode).toBe(200);
    // Stopping it again changes nothing, and audits nothing.
    expect(
      (await api("DELETE", `/v1/projects/${svc.project.id}/addresses/${id}`, svc.project.keys.developer))
        .statusCode,
    ).toBe(200);
    const entries = await auditOf(`address:${id}`);
    expect(entries.map((e) => e.action)).toEqual(["address.registered", "address.stopped"]);
    expect(entries[0]).toMatchObject({
      actor: expect.stringMatching(/^key:\d+$/),
      details: { chainId: 1, address: address.toLowerCase(), foreignUserId: "client-7" },
    });
    expect(entries[1]?.details).toMatchObject({ foreignUserId: "client-7" });
  });
});
