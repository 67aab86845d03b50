// Benchmark `screening` (its second section, `screening-lpb`): an LPB import naming 100 of 100,000 monitored clients,
// and the time until the last of their 24-hour avisos is written (LFPIORPI Art. 18 VI counts the 24 hours from the
// moment the provider learns of the listing). The real service runs in this process with its workers (the client
// re-screening loop and the writer of urgent avisos, as `vigia serve` runs them), on each database of BENCH_DATABASES;
// profiles come from an integrator on 127.0.0.1. The clients were screened before against the service-wide lists of
// the screening benchmark (OFAC SDN, UN, SAT 69-B and an OpenSanctions PEP source, 175,000 entries: what a provider
// holds), so the LPB import makes all 100,000 due again, each screened from the persons kept against every list.
// Seeded that way without their earlier candidates, the pass also raises the alerts of their namesakes on the old
// lists: more work than a real re-screening, which would know them already.
//
// Target: the last aviso written within 10 minutes of the import (the law gives 24 hours; the officer needs time
// to read them).
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { createProject } from "../src/keys/index.ts";
import { loadConfig } from "../src/platform/config.ts";
import { importPersonList, Screener } from "../src/screening/index.ts";
import { startService } from "../src/service.ts";
import { clientBase, type Population, populations } from "./screening.ts";
import { machine, postgresAnswers, wantedDatabases } from "./support.ts";

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const CLIENTS = Number(process.env.BENCH_LPB_CLIENTS || 100_000);
const LISTED = 100;
const TARGET_S = 600;
const TIMEOUT_S = 1800;
const SEED = 20_261_129;

const int = (n: number) => Math.round(n).toLocaleString("en-US");

interface Client {
  userId: string;
  name: string;
  birthdate: string;
  given?: string;
  surnames?: string[];
}

interface LpbRun {
  database: string;
  skipped?: string;
  seedSeconds: number;
  importSeconds: number;
  /** from the import's commit */
  allScreenedSeconds: number;
  avisosRecordedSeconds: number;
  lastAvisoWrittenSeconds: number;
  avisosWritten: number;
  alerts: number;
  rssPeakMb: number;
}

/** The client base: ordinary clients of the screening benchmark's population, and LISTED persons of its LPB. */
function clients(lists: Population[]): { clients: Client[]; lpb: Population } {
  const lpb = lists.find((l) => l.info.kind === "mx-lpb") as Population;
  const listed = lpb.listed.filter((l) => l.date?.length === 10).slice(0, LISTED);
  const ordinary = clientBase(lists, Math.ceil((CLIENTS - LISTED) * 1.05), SEED)
    .filter((q) => !q.listed)
    .slice(0, CLIENTS - LISTED);
  const out: Client[] = ordinary.map((q, i) => ({
    userId: `u-${i}`,
    name: q.person.name,
    birthdate: q.person.birthdate ?? "1980-01-01",
  }));
  for (const [i, l] of listed.entries())
    out.push({
      userId: `u-lpb-${i}`,
      name: [...l.name.given, ...l.name.surnames].join(" "),
      birthdate: l.date as string,
      given: l.name.given.join(" "),
      surnames: l.name.surnames,
    });
  return { clients: out, lpb };
}

/** A listed client's profile, complete for the AVI (as the integrator would serve it). */
function profileOf(c: Client) {
  return {
    givenName: c.given,
    paternalSurname: c.surnames?.[0],
    ...(c.surnames?.[1] ? { maternalSurname: c.surnames[1] } : {}),
    birthdate: c.birthdate,
    nationality: "MX",
    address: { country: "MX", colonia: "Centro", street: "Madero", exteriorNumber: "5", postalCode: "06000" },
    mexico: {
      actividadEconomica: 8250100,
      documentoIdentificacion: { tipoIdentificacion: 1, numeroIdentificacion: "IDMEX1234567" },
    },
  };
}

const address = (i: number) => `0x${(0xb0000000 + i).toString(16).padStart(40, "0")}`;

async function runOn(
  database: "pglite" | "postgres",
  lists: Population[],
  base: { clients: Client[]; lpb: Population },
): Promise<LpbRun> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `vigia-bench-lpb-${database}-`));
  const schema = `bench_${crypto.randomBytes(6).toString("hex")}`;
  const listedProfiles = new Map(base.clients.filter((c) => c.given).map((c) => [c.userId, profileOf(c)]));
  const integrator = http.createServer((req, res) => {
    // The webhook's notifications (the alerts' messages) are taken, as a receiver would.
    if (req.method === "POST") {
      req.resume();
      return req.on("end", () => res.writeHead(200).end());
    }
    const user = decodeURIComponent(/\/users\/([^/?]+)/.exec(req.url ?? "")?.[1] ?? "");
    const profile = listedProfiles.get(user);
    if (!profile) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(profile));
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  // No chain: the avisos from knowledge need none, and no indexer should retry an absent node meanwhile.
  const chains = path.join(workDir, "chains.json");
  fs.writeFileSync(chains, "[]");
  const config = loadConfig({
    VIGIA_CHAINS: chains,
    VIGIA_SECRET: crypto.randomBytes(32).toString("base64"),
    VIGIA_LOG_LEVEL: "warn",
    // The lists' scheduled refresh (an internet download) is no part of what is measured.
    VIGIA_LIST_REFRESH_HOURS: "0",
    PORT: "0",
    VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
    VIGIA_DATA_DIR: path.join(workDir, "data"),
    ...(database === "postgres" ? { DATABASE_URL: POSTGRES_URL } : {}),
  });
  const t0 = performance.now();
  const service = await startService(config, {
    http: true,
    workers: true,
    ...(database === "postgres" ? { schema } : {}),
  });
  let peakRss = process.memoryUsage().rss;
  try {
    const db = service.database.db;
    const project = await createProject(service.keys, { name: "Bench LPB" }, { kind: "cli" });
    const patch = await service.app?.inject({
      method: "PATCH",
      url: `/v1/projects/${project.projectId}`,
      headers: { "x-api-key": `ApiKey ${project.key}` },
      payload: {
        integration_url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`,
        jurisdictions: ["MX"],
        jurisdiction_settings: {
          MX: { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" },
        },
      },
    });
    if (patch?.statusCode !== 200) throw new Error(`PATCH project: ${patch?.statusCode} ${patch?.body}`);
    // The service-wide lists, then the clients as screened against them (no candidate kept).
    for (const p of lists.filter((l) => l.info.kind !== "mx-lpb"))
      await db.transaction().execute((trx) =>
        importPersonList(
          trx,
          p.info,
          (async function* () {
            yield* p.entries;
          })(),
        ),
      );
    const before = await new Screener(db).current();
    const now = new Date();
    for (let i = 0; i < base.clients.length; i += 2000) {
      await db
        .insertInto("client_screenings")
        .values(
          base.clients.slice(i, i + 2000).map((c, j) => ({
            project_id: project.projectId,
            user_id: c.userId,
            subjects: JSON.stringify([
              {
                role: "client",
                person: { name: c.name, type: "person", birthdate: c.birthdate, nationality: "MX" },
              },
            ]),
            profile_digest: "bench",
            lists_key: before.key,
            verdict: "clear",
            candidates: "[]",
            chain_id: 31337,
            address: address(i + j),
            address_id: null,
            screened_at: now,
          })),
        )
        .execute();
    }
    const seedSeconds = (performance.now() - t0) / 1000;
    console.log(
      `  ${database}: service up, lists and ${int(base.clients.length)} clients seeded in ${seedSeconds.toFixed(0)} s`,
    );

    // The LPB, delivered to the project: 2,000 entries, 100 of them the project's clients.
    const tImport = performance.now();
    await db.transaction().execute((trx) =>
      importPersonList(
        trx,
        { ...base.lpb.info, projectId: project.projectId },
        (async function* () {
          yield* base.lpb.entries;
        })(),
      ),
    );
    const imported = performance.now();
    const importSeconds = (imported - tImport) / 1000;
    const after = await new Screener(db).current();
    let allScreened = Number.NaN;
    let recorded = Number.NaN;
    let written = Number.NaN;
    let settled = 0;
    while ((performance.now() - imported) / 1000 < TIMEOUT_S) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      const elapsed = (performance.now() - imported) / 1000;
      if (Number.isNaN(allScreened)) {
        const due = await db
          .selectFrom("client_screenings")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .where("project_id", "=", project.projectId)
          .where("lists_key", "<>", after.key)
          .executeTakeFirstOrThrow();
        if (Number(due.n) === 0) allScreened = elapsed;
      }
      const avisos = await db
        .selectFrom("avisos")
        .select([
          (eb) => eb.fn.countAll<string>().as("n"),
          sql<string>`count(*) FILTER (WHERE settled_at IS NOT NULL)`.as("settled"),
        ])
        .where("project_id", "=", project.projectId)
        .executeTakeFirstOrThrow();
      if (Number.isNaN(recorded) && Number(avisos.n) >= LISTED) recorded = elapsed;
      settled = Number(avisos.settled);
      if (settled >= LISTED) {
        written = elapsed;
        break;
      }
    }
    const files = await db
      .selectFrom("reports")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("project_id", "=", project.projectId)
      .where("kind", "=", "urgent")
      .executeTakeFirstOrThrow();
    const alerts = await db
      .selectFrom("alerts")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("project_id", "=", project.projectId)
      .executeTakeFirstOrThrow();
    return {
      database,
      seedSeconds,
      importSeconds,
      allScreenedSeconds: allScreened,
      avisosRecordedSeconds: recorded,
      lastAvisoWrittenSeconds: written,
      avisosWritten: Number(files.n),
      alerts: Number(alerts.n),
      rssPeakMb: peakRss / 2 ** 20,
    };
  } finally {
    await service.close();
    integrator.closeAllConnections();
    await new Promise((resolve) => integrator.close(resolve));
    if (database === "postgres") {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.end());
    }
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** The section's markdown, and whether every database met the target. */
export async function lpbAvisosSection(): Promise<{ markdown: string; passed: boolean }> {
  const m = machine();
  const lists = populations();
  const base = clients(lists);
  const runs: LpbRun[] = [];
  for (const database of wantedDatabases()) {
    if (database === "postgres") {
      const down = await postgresAnswers(POSTGRES_URL);
      if (down) {
        runs.push({ database, skipped: down } as LpbRun);
        continue;
      }
    }
    const run = await runOn(database, lists, base);
    runs.push(run);
    console.log(`  ${database}: ${JSON.stringify(run)}`);
  }
  const done = runs.filter((r) => !r.skipped);
  const met = (r: LpbRun) => r.avisosWritten >= LISTED && r.lastAvisoWrittenSeconds <= TARGET_S;
  const s = (n: number) => (Number.isNaN(n) ? "not reached" : n.toFixed(1));
  const markdown = [
    "## screening-lpb: an LPB naming 100 of 100,000 monitored clients, until the last 24-hour aviso is written",
    "",
    `bench/lpb-avisos.ts (run by \`npm run bench -- screening\`). The service in the bench's process with its workers (the client re-screening loop, batches of 100, and the writer of urgent avisos), profiles from an integrator on 127.0.0.1. ${int(CLIENTS)} monitored clients of one Mexican project, screened before against the service-wide lists of the screening section (OFAC SDN, UN, SAT 69-B, PEPs: ${int(lists.filter((l) => l.info.kind !== "mx-lpb").reduce((n, l) => n + l.entries.length, 0))} entries); then the project's LPB (${int(base.lpb.entries.length)} entries) is imported, naming ${LISTED} of them (with their birthdates). Every client is due again and is screened from the persons kept against every list; each listed client gets its alert, its aviso and its AVI file. Seeded without their earlier candidates, the ordinary clients' namesakes on the old lists raise alerts too (more work than a real re-screening). Times from the import's commit. Target: the last aviso written within ${TARGET_S / 60} minutes.`,
    "",
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memory}, Node ${m.node}, ${m.date}, load average at the start ${m.load}.`,
    "",
    "| Database | Seed (s) | LPB import (s) | All clients re-screened (s) | 100 avisos recorded (s) | Last aviso written (s) | AVI files | Alerts raised | Peak RSS (MB) | Target |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...done.map(
      (r) =>
        `| ${r.database} | ${r.seedSeconds.toFixed(0)} | ${r.importSeconds.toFixed(1)} | ${s(r.allScreenedSeconds)} | ${s(r.avisosRecordedSeconds)} | **${s(r.lastAvisoWrittenSeconds)}** | ${r.avisosWritten} | ${int(r.alerts)} | ${r.rssPeakMb.toFixed(0)} | ${met(r) ? "met" : "**missed**"} |`,
    ),
    ...runs.filter((r) => r.skipped).map((r) => `\n${r.database}: not measured (${r.skipped}).`),
  ].join("\n");
  return { markdown, passed: done.every(met) };
}
