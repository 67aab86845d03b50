// `vigia import operations FILE`'s work (importOperations) on a real database: the committed example file (JSON
// lines), a CSV with dotted columns, a second import that changes nothing, and a wrong line refused with its line
// number and field while the batches before it stay written. PGlite, or PostgreSQL with DATABASE_URL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVM_CODEC } from "../../src/chains/address/index.ts";
import { clientOperations, ImportRefused, importOperations } from "../../src/exchange-operations/index.ts";
import { createProject } from "../../src/keys/index.ts";
import { deriveKeys } from "../../src/platform/crypto/secrets.ts";
import type { Database } from "../../src/platform/db/open.ts";
import { NO_PROGRESS } from "../../src/platform/progress.ts";
import type { DB } from "../../src/schema.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { TEST_SECRET } from "../support/service.ts";

const EXAMPLE = path.resolve(import.meta.dirname, "../../examples/operations.jsonl");
const parse = (_chainId: number, raw: string) => EVM_CODEC.parse(raw);

let database: Database<DB> & { drop(): Promise<void> };
let projectId: number;
let dir: string;
beforeAll(async () => {
  database = await openTestDatabase();
  const keys = { db: database.db, serverKeys: deriveKeys(TEST_SECRET) };
  projectId = (await createProject(keys, { name: "P" }, { kind: "cli" })).projectId;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-ops-"));
});
afterAll(async () => {
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("vigia import operations", () => {
  it("imports the example file, and a second time changes nothing", async () => {
    const ticks: number[] = [];
    const progress = { tick: (n: number) => ticks.push(n), done() {} };
    expect(await importOperations(database.db, projectId, EXAMPLE, parse, progress)).toEqual({
      lines: 7,
      created: 7,
      unchanged: 0,
    });
    expect(ticks).toEqual([7]);
    expect(await importOperations(database.db, projectId, EXAMPLE, parse, NO_PROGRESS)).toEqual({
      lines: 7,
      created: 0,
      unchanged: 7,
    });
    const ana = await clientOperations(database.db, { projectId, userId: "cliente-ana", limit: 100 });
    expect(ana.map((o) => o.operation.kind)).toEqual([
      "fiat_deposit",
      "buy",
      "fee",
      "crypto_withdrawal",
      "custody_snapshot",
    ]);
    // The withdrawal's destination kept as the chain stores it.
    expect(ana[3]?.operation).toMatchObject({ address: "0x3f5ce5fbfe3e9af3971dd833d26ba9b5c936f0be" });
  });

  it("reads CSV with dotted columns, in batches of 1,000, reporting progress", async () => {
    const file = path.join(dir, "ops.csv");
    const rows = Array.from(
      { length: 2_500 },
      (_, i) =>
        `csv-${i},u-${i % 40},fiat_deposit,2026-11-03T09:00:00-06:00,MXN,${100 + i},spei,Payer ${i},012180001183597198,R${i}`,
    );
    fs.writeFileSync(
      file,
      `operationId,userId,kind,at,currency,amount,rail,counterparty.name,counterparty.account,reference\n${rows.join("\n")}\n`,
    );
    const ticks: number[] = [];
    const s = await importOperations(database.db, projectId, file, parse, {
      tick: (n) => ticks.push(n),
      done() {},
    });
    expect(s).toEqual({ lines: 2_500, created: 2_500, unchanged: 0 });
    expect(ticks).toEqual([1_000, 2_000, 2_500]);
    const [first] = await clientOperations(database.db, { projectId, userId: "u-0", limit: 1 });
    expect(first?.operation).toMatchObject({
      counterparty: { name: "Payer 0", account: "012180001183597198" },
      reference: "R0",
    });
  });

  it("refuses a line of an unknown kind naming it, rather than failing", async () => {
    const file = path.join(dir, "kind.jsonl");
    fs.writeFileSync(
      file,
      `${JSON.stringify({ operationId: "k-1", userId: "u", kind: "loan", at: "2026-11-04T10:00:00Z" })}\n`,
    );
    const error = (await importOperations(database.db, projectId, file, parse, NO_PROGRESS).catch(
      (e: unknown) => e,
    )) as ImportRefused;
    expect(error).toBeInstanceOf(ImportRefused);
    expect(error.problems).toEqual([
      { line: 1, field: "kind", message: expect.stringMatching(/^must be one of buy, sell/) },
    ]);
  });

  it("refuses a batch with a wrong line, naming its line and field; the batches before it stay", async () => {
    const file = path.join(dir, "bad.jsonl");
    const good = Array.from({ length: 1_000 }, (_, i) =>
      JSON.stringify({
        operationId: `good-${i}`,
        userId: "u-bad",
        kind: "sell",
        at: "2026-11-04T10:00:00Z",
        asset: "BTC",
        amount: "0.01",
        currency: "MXN",
        fiatAmount: "18000",
        price: "1800000",
      }),
    );
    const bad = JSON.stringify({
      operationId: "bad-1",
      userId: "u-bad",
      kind: "fiat_withdrawal",
      at: "2026-11-04T10:00:00Z",
      currency: "MXN",
      amount: "100",
      rail: "spei",
      counterparty: { name: "X", account: "012180001183597199" },
      reference: "R1",
    });
    fs.writeFileSync(file, `${[...good, "", bad].join("\n")}\n`);
    const error = await importOperations(database.db, projectId, file, parse, NO_PROGRESS).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportRefused);
    const refused = error as ImportRefused;
    expect(refused.problems).toEqual([
      {
        line: 1_002,
        field: "counterparty/account",
        message: "is not a valid CLABE: its check digit should be 8",
      },
    ]);
    expect(refused.written).toEqual({ lines: 1_000, created: 1_000, unchanged: 0 });
    const held = await clientOperations(database.db, { projectId, userId: "u-bad", limit: 2_000 });
    expect(held).toHaveLength(1_000);
  });
});
