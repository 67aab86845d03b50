// The legal-case table's runner: a case is a client (the profile the integrator answers), the project's
// jurisdictions and settings, the transfers with their local wall times and amounts (MXN or USD), and what the law
// says of them: the rules each transfer infringes, the messages the integrator gets, and the files each
// jurisdiction writes for each month (Mexico's avisos with the transfers each reports, Colombia's records with their
// I/M mark, El Salvador's and Guatemala's rows). The runner plays a case on the real service: transfers written as
// the indexer writes them, the real checker, the real generation of each month; every MX file is validated against
// the official XSD and every CO file against its documented layout (co-layout.ts) before it is compared.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProfileReader } from "../../../src/integrator/index.ts";
import { importedUma, importUma, type UmaImport, useImportedUma } from "../../../src/jurisdictions/index.ts";
import { validateAvi } from "../../../src/jurisdictions/mx/validate.ts";
import { createProject } from "../../../src/keys/index.ts";
import { TransferChecker } from "../../../src/monitoring/index.ts";
import { OutboundClient } from "../../../src/platform/outbound/index.ts";
import { zonedDay, zonedMidnight } from "../../../src/platform/time-zone.ts";
import { generateReports, UrgentAvisoWriter } from "../../../src/reports/index.ts";
import {
  clientListings,
  importPersonList,
  type ListEntry,
  type ListKind,
  PROJECT_LIST_KINDS,
  Screener,
} from "../../../src/screening/index.ts";
import { MonitoredChain } from "../../support/monitored-chain.ts";
import { auth, startTestService, type TestService } from "../../support/service.ts";
import { checkCoLayout } from "./co-layout.ts";

export const CHAIN = 31337;
const ETH_USD = 1_000;
const ZONES = {
  MX: "America/Mexico_City",
  CO: "America/Bogota",
  SV: "America/El_Salvador",
  GT: "America/Guatemala",
  UTC: "UTC",
} as const;

export interface CaseTransfer {
  /** the wall time where it happens: "2026-05-04 10:00" */
  at: string;
  /** whose clock `at` is on (default: the case's first jurisdiction's) */
  zone?: keyof typeof ZONES;
  direction: "in" | "out";
  /** the amount in MXN at the day's rate, or in USD */
  mxn?: number;
  usd?: number;
  /**
   * the counterparty's label category, if it has one (sanctioned, exchange, mixer, ...); `deposit-address`: no label,
   * but inferred to be an exchange's deposit address (src/attribution)
   */
  counterparty?: string;
  /** the client's address it touches (default 0): a client may have several */
  address?: number;
  /** the counterparty is another of the client's own monitored addresses (its index), not someone else */
  own?: number;
}

/** What a month's files of one jurisdiction hold. */
export type FilesExpected =
  /** Mexico: one entry per aviso, the transfers (indexes) it reports, the anchor last */
  | { avisos: number[][] }
  /** Mexico's informe en ceros */
  | { zero: true }
  /** Colombia: the records, each a transfer and its mark */
  | { records: [number, "I" | "M"][] }
  /** El Salvador, Guatemala: the transfers listed */
  | { rows: number[] }
  /** no file for the client (reported nowhere, or elsewhere); `said`: what the generation's problems must say */
  | { none: true; said?: RegExp }
  /** no file at all this month (not even a nil report), and a problem that says why */
  | { refused: RegExp };

export interface LegalCase {
  name: string;
  /** the project's jurisdictions */
  jurisdictions: string[];
  /** jurisdiction_settings beyond the defaults (MX: the reporting entity; CO: the SIREL code) */
  settings?: Record<string, object>;
  clientJurisdiction?: object;
  /** the profile the integrator answers, or the HTTP status it fails with */
  profile: object | { status: number };
  /** the profile the integrator answers once the transfers were checked, before the files are built */
  profileLater?: object;
  /** `jurisdiction` given when the address is registered */
  addressJurisdiction?: string;
  /**
   * persons added to the lists of persons before the case runs (each list kind keeps every earlier case's too): the
   * client is screened against them at its first checked transfer
   */
  lists?: Partial<Record<ListKind, { name: string; birthdate?: string }[]>>;
  /**
   * years of Mexico's UMA imported (`vigia import uma`) before the case runs, and read as a running service reads
   * them; they stay for the later cases of the file
   */
  uma?: UmaImport[];
  /** the ETH price in USD by UTC day (default 1,000 every day; null: no price that day) */
  prices?: Record<string, number | null>;
  /** prices imported after the transfers were checked, before the files are built */
  pricesLater?: Record<string, number>;
  /** units per USD by day (default MXN 20, COP 4,000 on every day) */
  rates?: Record<string, { MXN?: number; COP?: number }>;
  transfers: CaseTransfer[];
  expect: {
    /** the rules each transfer infringes, in the order the rule books list them */
    laws: string[][];
    /** the files of each jurisdiction for each month */
    files?: Record<string, Record<string, FilesExpected>>;
    /** the 24-hour avisos written (Mexico): the transfers, by index */
    urgent?: number[];
    /** the law alerts raised, by rule id (sorted), with the project's default alert settings */
    alerts?: string[];
    /** the messages the integrator receives, in order: their type and a pattern of their text */
    messages?: { type: "notification" | "error"; matches?: RegExp }[];
    /** a pattern the month's file must contain (MX: beyond its avisos; CO: beyond its records) */
    xml?: Record<string, RegExp[]>;
  };
}

export const DEFAULT_SETTINGS = {
  MX: { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" },
  CO: { codigo_sirel: "PSAV-0042" },
};

/** The instant of a wall time in a zone (none of these zones has kept daylight saving time since 2022). */
export function instant(at: string, zone: keyof typeof ZONES): Date {
  const [day, time = "00:00"] = at.split(" ") as [string, string?];
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const [h, min] = time.split(":").map(Number) as [number, number];
  return new Date(zonedMidnight(y, m, d, ZONES[zone]).getTime() + (h * 60 + min) * 60_000);
}

const DAY_MS = 86_400_000;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The profiles the integrator answers, by user id; shared by every case of a file. */
export class CaseIntegrator {
  readonly profiles = new Map<string, object | { status: number }>();
  #server: http.Server | undefined;
  url = "";

  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      const user = /\/users\/([^/?]+)/.exec(req.url ?? "")?.[1];
      const profile = user ? this.profiles.get(decodeURIComponent(user)) : undefined;
      if (req.method === "POST") return res.writeHead(200).end();
      if (!profile) return res.writeHead(404).end();
      if ("status" in profile && typeof profile.status === "number")
        return res.writeHead(profile.status).end();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(profile));
    });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}

/** Plays the cases of a file in order on one service, one project per case. */
export class CaseRunner {
  #chain: MonitoredChain;
  #n = 0;
  /** the lists of persons as the cases so far made them */
  readonly #lists = new Map<ListKind, ListEntry[]>();
  #screener: Screener | undefined;

  constructor(
    private readonly svc: TestService,
    private readonly integrator: CaseIntegrator,
    /** a number of the file's own, so that two files' cases never share an address */
    private readonly file: number,
  ) {
    this.#chain = new MonitoredChain(svc.database.db, CHAIN);
  }

  async run(c: LegalCase): Promise<void> {
    const db = this.svc.database.db;
    this.#n += 1;
    const user = `case-${this.file}-${this.#n}`;
    const address = (i: number) =>
      `0x${(this.file * 0x100000 + this.#n * 0x100 + i).toString(16).padStart(40, "0")}`;
    const other = (i: number) =>
      `0x${(0xc0000000 + this.file * 0x100000 + this.#n * 0x100 + i).toString(16).padStart(40, "0")}`;
    this.integrator.profiles.set(user, c.profile);
    // The case's project: its own LPB is imported for it (the UIF delivers the list to each provider).
    const project = await createProject(this.svc.keys, { name: c.name }, { kind: "cli" });
    for (const [kind, persons] of Object.entries(c.lists ?? {}) as [
      ListKind,
      { name: string; birthdate?: string }[],
    ][]) {
      const entries = this.#lists.get(kind) ?? [];
      for (const p of persons)
        entries.push({
          entryId: `case-${this.file}-${this.#n}-${entries.length}`,
          type: "person",
          names: [p.name],
          dates: p.birthdate ? [p.birthdate] : [],
          countries: [],
          identifiers: [],
          programs: ["case"],
        });
      this.#lists.set(kind, entries);
      await db.transaction().execute((trx) =>
        importPersonList(
          trx,
          {
            kind,
            version: undefined,
            listDate: undefined,
            source: "case",
            ...(PROJECT_LIST_KINDS.includes(kind) ? { projectId: project.projectId } : {}),
          },
          (async function* () {
            yield* entries;
          })(),
        ),
      );
    }

    // The market of the case: the price of each day around its transfers, and the rates.
    const zone = (t: CaseTransfer) => t.zone ?? (c.jurisdictions[0] as keyof typeof ZONES);
    const times = c.transfers.map((t) => instant(t.at, zone(t)));
    await db.deleteFrom("prices").where("chain_id", "=", CHAIN).execute();
    await db.deleteFrom("fx_rates").execute();
    const days = new Set(
      times.flatMap((at) => [-1, 0, 1].map((d) => dayOf(new Date(at.getTime() + d * DAY_MS)))),
    );
    await db
      .insertInto("prices")
      .values(
        [...days]
          .filter((day) => c.prices?.[day] !== null)
          .map((day) => ({
            chain_id: CHAIN,
            token: "native",
            day,
            price_usd: String(c.prices?.[day] ?? ETH_USD),
          })),
      )
      .execute();
    const rateDays = new Set([...days, ...Object.keys(c.rates ?? {})]);
    await db
      .insertInto("fx_rates")
      .values(
        [...rateDays].flatMap((day) => [
          { day, currency: "MXN", per_usd: String(c.rates?.[day]?.MXN ?? 20) },
          { day, currency: "COP", per_usd: String(c.rates?.[day]?.COP ?? 4000) },
        ]),
      )
      .execute();

    // The client's addresses.
    const key = project.key;
    const patch = await this.svc.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${project.projectId}`,
      headers: auth(key),
      payload: {
        integration_url: this.integrator.url,
        jurisdictions: c.jurisdictions,
        jurisdiction_settings: Object.fromEntries(
          c.jurisdictions
            .filter((j) => j in DEFAULT_SETTINGS || c.settings?.[j])
            .map((j) => [j, { ...DEFAULT_SETTINGS[j as keyof typeof DEFAULT_SETTINGS], ...c.settings?.[j] }]),
        ),
        ...(c.clientJurisdiction ? { client_jurisdiction: c.clientJurisdiction } : {}),
      },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    await this.#chain.block(new Date(Math.min(...times.map((t) => t.getTime())) - 60_000), []);
    const addresses = [
      ...new Set(c.transfers.flatMap((t) => [t.address ?? 0, ...(t.own !== undefined ? [t.own] : [])])),
    ];
    for (const a of addresses) {
      const res = await this.svc.app!.inject({
        method: "POST",
        url: `/v1/projects/${project.projectId}/addresses`,
        headers: auth(key),
        payload: {
          address: address(a),
          chainId: CHAIN,
          foreign_user_id: user,
          ...(c.addressJurisdiction ? { jurisdiction: c.addressJurisdiction } : {}),
        },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const labelled = c.transfers
      .map((t, i) => [t, i] as const)
      .filter(([t]) => t.counterparty && t.counterparty !== "deposit-address")
      .map(([t, i]) => ({
        address: other(i),
        chain_id: 0,
        label: `${t.counterparty} ${i}`,
        category: t.counterparty as string,
        source: "case",
      }));
    if (labelled.length > 0) await db.insertInto("labels").values(labelled).execute();

    // The transfers, each in its own block in time order, checked by the real checker.
    const order = times.map((at, i) => [at, i] as const).sort((a, b) => a[0].getTime() - b[0].getTime());
    const hashes = new Map<number, string>();
    for (const [at, i] of order) {
      const t = c.transfers[i] as CaseTransfer;
      const cents = t.usd !== undefined ? BigInt(Math.round(t.usd * 100)) : undefined;
      const mxnCents = t.mxn !== undefined ? BigInt(Math.round(t.mxn * 100)) : undefined;
      // Amounts are of the transfer's own day where it happens, as the jurisdictions value it.
      const day = zonedDay(at, ZONES[zone(t)]);
      const rate = c.rates?.[day]?.MXN ?? 20;
      const price = c.prices?.[day] ?? c.pricesLater?.[day] ?? ETH_USD;
      // MXN at the day's rate and price: wei = mxn / rate / price ETH.
      const value =
        cents !== undefined
          ? (cents * 10n ** 18n) / (BigInt(price) * 100n)
          : ((mxnCents as bigint) * 10n ** 18n * 10_000n) /
            (BigInt(Math.round(rate * 10_000)) * BigInt(price) * 100n);
      const mine = address(t.address ?? 0);
      const them = t.own !== undefined ? address(t.own) : other(i);
      await this.#chain.block(at, [
        t.direction === "in" ? { from: them, to: mine, value } : { from: mine, to: them, value },
      ]);
      hashes.set(i, `0x${(this.#chain.head * 100).toString(16).padStart(64, "d")}`);
    }
    // Written after the blocks: the indexer's attribution judges the addresses it writes (this one has no sweeps of
    // its own here), and the case stands for an address the heuristic attributed.
    const deposits = c.transfers.flatMap((t, i) => (t.counterparty === "deposit-address" ? [other(i)] : []));
    if (deposits.length > 0)
      await db
        .insertInto("deposit_addresses")
        .values(
          deposits.map((address) => ({ chain_id: CHAIN, address, attributed: true, exchange: "Binance" })),
        )
        .execute();
    if (c.uma) {
      for (const u of c.uma) await importUma(db, u, new Date());
      useImportedUma(await importedUma(db));
    }
    this.#screener ??= new Screener(db);
    const screener = this.#screener;
    const checker = new TransferChecker({
      db,
      registry: this.svc.registry,
      profiles: this.#profiles(),
      clientListings: (client, read) => clientListings(db, screener, client, read, new Date()),
    });
    while ((await checker.runOnce()) > 0) {}

    // The laws of each transfer, as the address it was written for recorded them.
    const verdicts = await db
      .selectFrom("monitored_transfers")
      .innerJoin("monitored_addresses", "monitored_addresses.id", "monitored_transfers.address_id")
      .select(["monitored_transfers.tx_hash", "monitored_transfers.laws", "monitored_addresses.address"])
      .where("monitored_transfers.project_id", "=", project.projectId)
      .execute();
    const lawsOf = new Map(verdicts.map((v) => [`${v.tx_hash}:${v.address}`, v.laws ?? []]));
    expect(
      c.transfers.map((t, i) => lawsOf.get(`${hashes.get(i)}:${address(t.address ?? 0)}`)),
      `${c.name}: laws`,
    ).toEqual(c.expect.laws);
    if (c.expect.alerts) {
      const alerts = await db
        .selectFrom("alerts")
        .select("cause_key")
        .where("project_id", "=", project.projectId)
        .where("cause", "=", "law")
        .execute();
      expect(alerts.map((a) => a.cause_key).sort(), `${c.name}: alerts`).toEqual(c.expect.alerts);
    }
    if (c.profileLater) this.integrator.profiles.set(user, c.profileLater);
    if (c.pricesLater)
      await db
        .insertInto("prices")
        .values(
          Object.entries(c.pricesLater).map(([day, price]) => ({
            chain_id: CHAIN,
            token: "native",
            day,
            price_usd: String(price),
          })),
        )
        .execute();

    // The urgent avisos, then each month's files.
    const reports = {
      ...this.svc.reports,
      profiles: this.#profiles(),
    };
    if (c.expect.urgent) {
      while ((await new UrgentAvisoWriter(reports).runOnce()) > 0) {}
      const urgent = await db
        .selectFrom("reports")
        .select(["tx_hash", "storage_key"])
        .where("project_id", "=", project.projectId)
        .where("kind", "=", "urgent")
        .execute();
      for (const r of urgent) await expectValidAvi(await this.#content(r.storage_key), c.name);
      expect(urgent.map((r) => r.tx_hash).sort(), `${c.name}: urgent avisos`).toEqual(
        c.expect.urgent.map((i) => hashes.get(i)).sort(),
      );
    }
    for (const [country, months] of Object.entries(c.expect.files ?? {}))
      for (const [period, expected] of Object.entries(months)) {
        const summary = await generateReports(reports, {
          projectId: project.projectId,
          countryCode: country,
          period,
          trigger: "api",
          actor: "test",
        });
        const files = await db
          .selectFrom("reports")
          .select(["kind", "storage_key", "user_id"])
          .where("project_id", "=", project.projectId)
          .where("country_code", "=", country)
          .where("period", "=", period)
          .where("kind", "in", ["monthly", "zero"])
          .execute();
        const label = `${c.name}: ${country} ${period} (problems: ${JSON.stringify(summary.problems)})`;
        if ("none" in expected && expected.said) {
          // What the generation says of the client, as an officer reads it (GET /reports/generations).
          const listed = await this.svc.app!.inject({
            url: `/v1/reports/generations?projectId=${project.projectId}&countryCode=${country}&period=${period}`,
            headers: auth(key),
          });
          expect(summary.elsewhere, label).toEqual([{ userId: user, governedBy: null }]);
          expect(JSON.stringify(listed.json().data[0]?.problems), label).toMatch(expected.said);
        }
        if ("refused" in expected) {
          expect(files, label).toEqual([]);
          expect(summary.problems.map((p) => p.reason).join("\n"), label).toMatch(expected.refused);
          continue;
        }
        await expectFiles(expected, files, (k) => this.#content(k), hashes, label, c.expect.xml?.[period]);
      }

    if (c.expect.messages) {
      const sent = await db
        .selectFrom("notifications")
        .select(["type", "body"])
        .where("project_id", "=", project.projectId)
        .orderBy("id")
        .execute();
      expect(
        sent.map((m) => m.type),
        `${c.name}: messages`,
      ).toEqual(c.expect.messages.map((m) => m.type));
      c.expect.messages.forEach((m, i) => {
        if (m.matches) expect(sent[i]?.body, `${c.name}: message ${i}`).toMatch(m.matches);
      });
    }
  }

  /** A profile reader that keeps no answer: each case's integrator answers as the case says. */
  #profiles(): ProfileReader {
    return new ProfileReader(
      { ...this.svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) },
      { ttlMs: 0, failureBackoffMs: 0 },
    );
  }

  async #content(storageKey: string): Promise<Buffer> {
    const content = await this.svc.reports.store.get(storageKey);
    if (!content) throw new Error(`no stored bytes at ${storageKey}`);
    return content;
  }
}

async function expectValidAvi(content: Buffer, name: string): Promise<void> {
  expect(await validateAvi(content.toString("utf8")), `${name}: the AVI against its XSD`).toEqual({
    valid: true,
  });
}

const parser = new XMLParser({ isArray: (name) => ["aviso", "envio", "recepcion"].includes(name) });

async function expectFiles(
  expected: FilesExpected,
  files: { kind: string; storage_key: string; user_id: string | null }[],
  content: (key: string) => Promise<Buffer>,
  hashes: Map<number, string>,
  label: string,
  xml: RegExp[] | undefined,
): Promise<void> {
  const hashIndex = new Map([...hashes].map(([i, h]) => [h.toUpperCase(), i]));
  if ("refused" in expected) return;
  if ("none" in expected) {
    expect(
      files.filter((f) => f.kind === "monthly"),
      label,
    ).toEqual([]);
    return;
  }
  if ("zero" in expected) {
    expect(
      files.map((f) => f.kind),
      label,
    ).toEqual(["zero"]);
    await expectValidAvi(await content((files[0] as { storage_key: string }).storage_key), label);
    return;
  }
  expect(
    files.map((f) => f.kind),
    label,
  ).toEqual(["monthly"]);
  const bytes = await content((files[0] as { storage_key: string }).storage_key);
  if ("avisos" in expected) {
    await expectValidAvi(bytes, label);
    const text = bytes.toString("utf8");
    for (const pattern of xml ?? []) expect(text, label).toMatch(pattern);
    const avisos = parser.parse(text).archivo.informe.aviso as {
      operaciones_persona: {
        detalle_operaciones: {
          operaciones_transferencia: Record<string, Record<string, { hash_operacion: string }[]>>;
        };
      };
    }[];
    const reported = avisos.map((a) => {
      const t = a.operaciones_persona.detalle_operaciones.operaciones_transferencia;
      const ops = [
        ...(t.transferencias_enviadas?.envio ?? []),
        ...(t.transferencias_recibidas?.recepcion ?? []),
      ];
      return ops.map((o) => hashIndex.get(String(o.hash_operacion))).sort((a, b) => (a ?? 0) - (b ?? 0));
    });
    expect(reported, label).toEqual(expected.avisos.map((a) => [...a].sort((x, y) => x - y)));
    return;
  }
  const text = bytes.toString("latin1");
  const body = text.split("\r\n").filter((l) => l.startsWith("1|"));
  if ("records" in expected) {
    expect(checkCoLayout(text), label).toEqual([]);
    for (const pattern of xml ?? []) expect(text, label).toMatch(pattern);
    expect(
      body.map((l) => {
        const f = l.split("|");
        return [hashIndex.get((f[19] as string).toUpperCase()), f[20]];
      }),
      label,
    ).toEqual(expected.records);
    return;
  }
  expect(
    body.map((l) => hashIndex.get((l.split("|")[14] as string).toUpperCase())),
    label,
  ).toEqual(expected.rows);
}

/**
 * A test file of legal cases: one service and one integrator for the file, each case a test. `file` is a number of
 * the file's own, so that two files' cases never share an address.
 */
export function playCases(title: string, cases: readonly LegalCase[], file: number): void {
  let svc: TestService;
  const integrator = new CaseIntegrator();
  let runner: CaseRunner;
  beforeAll(async () => {
    await integrator.start();
    svc = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" } });
    runner = new CaseRunner(svc, integrator, file);
  });
  afterAll(async () => {
    await svc?.stop();
    await integrator.close();
  });
  describe(title, () => {
    for (const c of cases) it(c.name, () => runner.run(c));
  });
}
