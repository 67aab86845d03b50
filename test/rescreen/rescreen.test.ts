// Re-screening (docs/api.md, "Alerts"): a label learnt after an address was registered (an import of tags, an update
// of the sanctions list) re-scores the monitored addresses whose neighbourhood it reaches, and a rise in level
// raises an alert of cause `rescreen` naming the label and its source; an address it does not reach is not touched;
// the running worker acts within seconds of the import's commit; a run that dies after claiming its addresses
// leaves them to the next run, which completes them. On the devnet world (chain 1), PGlite, or PostgreSQL with
// DATABASE_URL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLabels } from "../../src/ingest/labels/import-labels.ts";
import { updateSanctions } from "../../src/ingest/sanctions/update.ts";
import { rescreenOnce, startRescreening } from "../../src/rescreen/index.ts";
import { rescoreQueued } from "../../src/rescreen/rescore.ts";
import { devnetWorld, writeWorldToStore } from "../../src/worlds/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const world = devnetWorld();
let svc: TestService;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-rescreen-"));

beforeAll(async () => {
  svc = await startTestService();
  await writeWorldToStore(svc.database.db, world, 1);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = (method: "GET" | "POST", url: string, key: string, payload?: object) =>
  svc.app!.inject({ method, url, headers: auth(key), ...(payload ? { payload } : {}) });
const everyChain = () => [1];
const run = (extra: Parameters<typeof rescreenOnce>[0] extends infer O ? Partial<O> : never = {}) =>
  rescreenOnce({ analysis: svc.analysis, everyChain, alertLevel: "high", ...extra });

async function scanLevel(address: string, projectId = svc.project.id, key = svc.project.keys.developer) {
  const res = await call("POST", `/v1/projects/${projectId}/addresses/scan-risk`, key, {
    addresses: [{ address, chainId: "1" }],
    maxDepth: 3,
    skipExisting: false,
  });
  return res.json().data.results[0].riskLevel as string;
}
async function register(address: string, user: string) {
  const res = await call("POST", `/v1/projects/${svc.project.id}/addresses`, svc.project.keys.admin, {
    address,
    chainId: 1,
    foreign_user_id: user,
  });
  expect(res.statusCode, res.body).toBe(201);
}
async function rescreenAlerts() {
  const res = await call(
    "GET",
    `/v1/projects/${svc.project.id}/alerts?cause=rescreen&limit=100`,
    svc.project.keys.viewer,
  );
  return res.json().data as {
    id: string;
    subject: { address: string; userId: string };
    causeKey: string;
    level: string;
    reason: string;
    evidence: { labels: { address: string; label: string; source: string | null }[]; analyses: unknown[] };
  }[];
}

/**
 * Ordinary users of the world with a minimal verdict, each with an unlabelled counterparty it paid that is not a
 * service: labelling that counterparty sanctioned must raise the user's level.
 */
async function ordinaryPayers(n: number): Promise<{ user: string; payee: string }[]> {
  const db = svc.database.db;
  const found: { user: string; payee: string }[] = [];
  const labelled = new Set((await db.selectFrom("labels").select("address").execute()).map((l) => l.address));
  const pairs = await db
    .selectFrom("transfers")
    .select(["from_address", "to_address"])
    .distinct()
    .where("chain_id", "=", 1)
    .orderBy("from_address")
    .orderBy("to_address")
    .execute();
  const used = new Set<string>();
  for (const { from_address: user, to_address: payee } of pairs) {
    if (found.length >= n) break;
    if (used.has(user) || used.has(payee) || user === payee) continue;
    if (labelled.has(user) || labelled.has(payee)) continue;
    if ((await scanLevel(user, svc.other.id, svc.other.keys.admin)) !== "minimal") {
      used.add(user);
      continue;
    }
    found.push({ user, payee });
    used.add(user);
    used.add(payee);
  }
  if (found.length < n) throw new Error(`the devnet world has ${found.length} ordinary payers, not ${n}`);
  return found;
}

let payers: { user: string; payee: string }[];
const FAR = `0x${"f0".repeat(19)}01`; // no transfer at all: no label reaches it

beforeAll(async () => {
  payers = await ordinaryPayers(4);
  for (const [i, p] of payers.entries()) {
    await register(p.user, `client-${i}`);
    expect(await scanLevel(p.user)).toBe("minimal"); // its verdict before
  }
  await register(FAR, "client-far");
  // What the service learnt before (the deposit-address inference's attributions of the world's exchanges) is
  // re-screened first; then nothing is waiting.
  for (let i = 0; i < 20; i++) {
    const drained = await run();
    if (drained.changes + drained.scored + drained.failed === 0) break;
  }
  expect(await rescreenAlerts()).toEqual([]);
  expect(await run()).toMatchObject({ changes: 0, scored: 0 });
  const attributions = await svc.database.db
    .selectFrom("label_changes")
    .select("label")
    .where("source", "=", "deposit-inference")
    .execute();
  expect(attributions.length).toBeGreaterThan(0);
  expect(attributions.every((a) => a.label.startsWith("deposit address of "))).toBe(true);
}, 120_000);

describe("re-screening", () => {
  it("a tags import labelling a counterparty sanctioned re-scores the client it reaches and raises a rescreen alert", async () => {
    const { user, payee } = payers[0]!;
    const file = path.join(dir, "tags.csv");
    fs.writeFileSync(
      file,
      `address,chain_id,label,category,source\n${payee},1,Sanctioned test entity,sanctioned,test-list-2026\n`,
    );
    await importLabels(svc.database.db, file);
    const outcome = await run();
    expect(outcome).toMatchObject({ changes: 1, scored: 1, rises: 1, failed: 0, truncated: 0 });
    const [alert] = (await rescreenAlerts()).filter((a) => a.subject.address === user);
    expect(alert).toMatchObject({ subject: { userId: "client-0" }, causeKey: `${payee}:test-list-2026` });
    expect(alert!.reason).toMatch(
      new RegExp(
        `Re-screened after ${payee} \\(1 hop away\\) was labelled "Sanctioned test entity" \\(sanctioned, source test-list-2026\\).*minimal \\(\\d+\\) → (high|critical)`,
      ),
    );
    expect(alert!.evidence.labels[0]).toEqual({
      address: payee,
      label: "Sanctioned test entity",
      category: "sanctioned",
      source: "test-list-2026",
    });
    expect(alert!.evidence.analyses).toHaveLength(1);
    // the re-scoring is a stored scan: the client's stored result is the new one
    const stored = await call(
      "GET",
      `/v1/projects/${svc.project.id}/addresses/scan-risk?addresses=${user}`,
      svc.project.keys.viewer,
    );
    expect(stored.json().data.results[0].riskLevel).toBe(alert!.level);
    // nothing else was queued: the address with no transfers is not reached, and a second run does nothing
    expect(await run()).toMatchObject({ changes: 0, scored: 0 });
    expect((await rescreenAlerts()).map((a) => a.subject.address)).toEqual([user]);
    // the same import again changes no label: no news, no work
    await importLabels(svc.database.db, file);
    expect(await run()).toMatchObject({ changes: 0, scored: 0 });
  });

  it("the running worker acts on a sanctions update within seconds of its commit", async () => {
    const { user, payee } = payers[1]!;
    const worker = startRescreening({ analysis: svc.analysis, everyChain, alertLevel: "high", pollMs: 200 });
    try {
      const file = path.join(dir, "sdn.xml");
      fs.writeFileSync(file, sdnList(payee));
      const committed = Date.now();
      await updateSanctions(svc.database.db, file);
      let alert: Awaited<ReturnType<typeof rescreenAlerts>>[number] | undefined;
      for (let i = 0; i < 300 && !alert; i++) {
        alert = (await rescreenAlerts()).find((a) => a.subject.address === user);
        if (!alert) await new Promise((r) => setTimeout(r, 100));
      }
      expect(alert, "no rescreen alert 30 s after the update").toBeDefined();
      expect(Date.now() - committed).toBeLessThan(60_000);
      expect(alert!.causeKey).toBe(`${payee}:ofac-sdn`);
      expect(alert!.reason).toMatch(/OFAC SDN: RESCREEN TEST ENTITY.*source ofac-sdn/);
    } finally {
      await worker.stop();
    }
  });

  it("a run that dies after claiming its addresses leaves them to the next run, which completes them", async () => {
    const db = svc.database.db;
    const [a, b] = [payers[2]!, payers[3]!];
    const file = path.join(dir, "tags-2.csv");
    fs.writeFileSync(
      file,
      `address,chain_id,label,category,source\n${a.payee},1,Scam wallet A,illicit,test-list-2026\n${b.payee},1,Scam wallet B,illicit,test-list-2026\n`,
    );
    await importLabels(db, file);
    // Traced, then the worker dies holding its claim (the claim is made, nothing scored, nothing deleted).
    const now = new Date();
    const traced = await run({ batch: 0 });
    expect(traced).toMatchObject({ changes: 2, scored: 0 });
    const dying = await rescoreQueued(
      {
        ...svc.analysis,
        registry: {
          get: () => {
            throw new Error("killed");
          },
        } as never,
      },
      { batch: 10, leaseMs: 120_000, depth: 3, alertLevel: "high" },
      () => now,
    ).catch((error: Error) => error.message);
    expect(dying).toBe("killed");
    // the two clients who paid them (and any other client within three hops of them) are queued and claimed
    const held = await db.selectFrom("rescreen_pending").select(["address", "claimed_until"]).execute();
    expect(held.map((h) => h.address)).toEqual(expect.arrayContaining([a.user, b.user]));
    expect(held.every((h) => h.claimed_until !== null)).toBe(true);
    // Within the lease, another run leaves them alone; after it, it scores both.
    expect(await run({ now: () => new Date(now.getTime() + 60_000) })).toMatchObject({ scored: 0 });
    const after = await run({ now: () => new Date(now.getTime() + 121_000) });
    expect(after.scored).toBe(held.length);
    expect(await db.selectFrom("rescreen_pending").selectAll().execute()).toEqual([]);
    const raised = (await rescreenAlerts()).filter((x) => [a.user, b.user].includes(x.subject.address));
    expect(raised).toHaveLength(2);
  });
});

function sdnList(address: string): string {
  return `<?xml version="1.0" standalone="yes"?>
<sdnList xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML">
  <publshInformation>
    <Publish_Date>11/27/2026</Publish_Date>
    <Record_Count>1</Record_Count>
  </publshInformation>
  <sdnEntry>
    <uid>990001</uid>
    <lastName>RESCREEN TEST ENTITY</lastName>
    <sdnType>Entity</sdnType>
    <programList><program>CYBER2</program></programList>
    <idList><id><uid>1</uid><idType>Digital Currency Address - ETH</idType><idNumber>${address}</idNumber></id></idList>
  </sdnEntry>
</sdnList>
`;
}
