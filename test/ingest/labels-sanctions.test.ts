// `vigia sanctions update FILE` on test files in the official SDN.XML format: addresses and labels, idempotency,
// atomic replacement of the ofac-sdn set (other sources untouched), and refusal of broken or non-SDN files.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRON_MAINNET_ID } from "../../src/chains/registry.ts";
import { SANCTIONS_SOURCE, updateSanctions } from "../../src/ingest/sanctions/update.ts";
import { openTestDatabase } from "../support/db-only.ts";

const FIXTURES = new URL("./labels-fixtures/", import.meta.url).pathname;
const V1 = `${FIXTURES}sdn_v1.xml`;
const V2 = `${FIXTURES}sdn_v2.xml`;

let database: Awaited<ReturnType<typeof openTestDatabase>>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-sdn-"));
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** Sorted here, by chain then address in code-point order, the same on every database collation. */
const sanctioned = async () =>
  (
    await database.db
      .selectFrom("labels")
      .select(["address", "chain_id", "label", "category", "original_category", "confidence"])
      .where("source", "=", SANCTIONS_SOURCE)
      .execute()
  ).sort((a, b) => a.chain_id - b.chain_id || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));

const GARANTEX = "OFAC SDN: GARANTEX EUROPE OU (CYBER4, RUSSIA-EO14024)";
const entry = (uid: number, ids: string) => `  <sdnEntry>
    <uid>${uid}</uid>
    <lastName>TEST ENTITY ${uid}</lastName>
    <sdnType>Entity</sdnType>
    <programList><program>CYBER2</program></programList>
    <idList>${ids}</idList>
  </sdnEntry>
`;
const list = (entries: string[], recordCount = entries.length) =>
  `<?xml version="1.0" standalone="yes"?>
<sdnList xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML">
  <publshInformation>
    <Publish_Date>01/02/2026</Publish_Date>
    <Record_Count>${recordCount}</Record_Count>
  </publshInformation>
${entries.join("")}</sdnList>
`;
const ethId = (address: string) =>
  `<id><uid>1</uid><idType>Digital Currency Address - ETH</idType><idNumber>${address}</idNumber></id>`;

describe("sanctions update", () => {
  it("labels the digital currency addresses of an SDN list, and a second run changes nothing", async () => {
    // A label of another source stays whatever the SDN list says.
    await database.db
      .insertInto("labels")
      .values({
        address: "0x7ced75026204ac29c34bea98905d4c949f27361e",
        chain_id: 1,
        label: "OFAC SDN: GARANTEX",
        category: "sanctioned",
        source: "ofac_sdn_2026-08-20",
      })
      .execute();
    const summary = await updateSanctions(database.db, V1);
    expect(summary).toMatchObject({
      update: "sanctions",
      list_date: "08/20/2026",
      entries: 4,
      addresses: 8,
      labels: 6,
      inserted: 6,
      updated: 0,
      deleted: 0,
      rejected: 0,
      skipped: 0,
    });
    expect(await sanctioned()).toEqual([
      {
        address: "lbpaqhvemzbv3pvaqiatdnz3u1t6ezial1",
        chain_id: -1_000_002,
        label: "OFAC SDN: Dmytro RASHEVSKYI (CYBER4)",
        category: "sanctioned",
        original_category: "Digital Currency Address - LTC",
        confidence: 100,
      },
      {
        address: "0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c",
        chain_id: 0,
        label: "OFAC SDN: Hyon Sop SIM (NPWMD)",
        category: "sanctioned",
        original_category:
          "Digital Currency Address - ARB;Digital Currency Address - BSC;Digital Currency Address - ETH",
        confidence: 100,
      },
      {
        address: "0x57ec89a0c056163a0314e413320f9b3abe761259",
        chain_id: 0,
        label: GARANTEX,
        category: "sanctioned",
        original_category: "Digital Currency Address - ETH",
        confidence: 100,
      },
      {
        address: "0x7ced75026204ac29c34bea98905d4c949f27361e",
        chain_id: 0,
        label: GARANTEX,
        category: "sanctioned",
        original_category: "Digital Currency Address - ETH",
        confidence: 100,
      },
      {
        // A Bitcoin address, on Bitcoin mainnet's ledger id (docs/decisions/0052-bitcoin-chains.md).
        address: "123WBUDmSJv4GctdVEz6Qq6z8nXSKrJ4KX",
        chain_id: 177_005_167,
        label: "OFAC SDN: Dmytro RASHEVSKYI (CYBER4)",
        category: "sanctioned",
        original_category: "Digital Currency Address - XBT",
        confidence: 100,
      },
      {
        // TMStbg5fgb4uTV7fK1gEYF9hKAzP3siPsG (USDT on Tron), decoded into the stored form on Tron mainnet.
        address: "0x7de5ab1914e241177344936dc33b4a8157c98248",
        chain_id: TRON_MAINNET_ID,
        label: GARANTEX,
        category: "sanctioned",
        original_category: "Digital Currency Address - USDT",
        confidence: 100,
      },
    ]);
    expect(await updateSanctions(database.db, V1)).toMatchObject({
      inserted: 0,
      updated: 0,
      unchanged: 6,
      deleted: 0,
    });
  });

  it("replaces the set: delisted addresses lose the label, other sources are untouched", async () => {
    const summary = await updateSanctions(database.db, V2);
    expect(summary).toMatchObject({
      list_date: "09/03/2026",
      entries: 4,
      labels: 4,
      inserted: 1, // LAZARUS GROUP
      updated: 1, // SIM's programs
      unchanged: 2,
      deleted: 3, // one Garantex address, both RASHEVSKYI addresses
    });
    const rows = await sanctioned();
    expect(rows.map((row) => [row.address, row.chain_id, row.label])).toEqual([
      ["0x098b716b8aaf21512996dc57eb0615e2383e2f96", 0, "OFAC SDN: LAZARUS GROUP (DPRK3)"],
      ["0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c", 0, "OFAC SDN: Hyon Sop SIM (NPWMD, DPRK3)"],
      ["0x57ec89a0c056163a0314e413320f9b3abe761259", 0, GARANTEX],
      ["0x7de5ab1914e241177344936dc33b4a8157c98248", TRON_MAINNET_ID, GARANTEX],
    ]);
    const other = await database.db
      .selectFrom("labels")
      .select("label")
      .where("source", "=", "ofac_sdn_2026-08-20")
      .execute();
    expect(other).toEqual([{ label: "OFAC SDN: GARANTEX" }]);
    const runs = await database.db
      .selectFrom("import_runs")
      .select(["kind", "status", "rows_read", "rows_written"])
      .where("id", "=", String(summary.run_id))
      .execute();
    expect(
      runs.map((run) => [run.kind, run.status, Number(run.rows_read), Number(run.rows_written)]),
    ).toEqual([["sanctions", "completed", 6, 5]]);
  });

  it("refuses broken and non-SDN files and leaves the set as it was", async () => {
    const before = await sanctioned();
    const v1 = fs.readFileSync(V1, "utf8");
    const cut = write("cut.xml", v1.slice(0, v1.indexOf("<uid>42498</uid>")));
    await expect(updateSanctions(database.db, cut)).rejects.toThrow(
      `${cut}: truncated: an <sdnEntry> is not closed`,
    );
    const tail = write("tail.xml", v1.slice(0, v1.lastIndexOf("</sdnList>")));
    await expect(updateSanctions(database.db, tail)).rejects.toThrow(
      `${tail}: truncated: no closing </sdnList>`,
    );
    const count = write("count.xml", v1.replace("<Record_Count>4<", "<Record_Count>5<"));
    await expect(updateSanctions(database.db, count)).rejects.toThrow(
      `${count}: 4 entries but Record_Count says 5 (truncated or altered file?)`,
    );
    const other = write("other.xml", `<?xml version="1.0"?>\n<rss><channel/></rss>\n`);
    await expect(updateSanctions(database.db, other)).rejects.toThrow(`${other}: not an OFAC SDN list`);
    const empty = write("empty.xml", list([entry(1, "")]));
    await expect(updateSanctions(database.db, empty)).rejects.toThrow(
      `${empty}: no digital currency addresses in 1 entries; refusing to remove every sanctioned address`,
    );
    const badText = list([entry(7, ethId(`0x${"a".repeat(40)}`)), entry(8, ethId("0x1234"))]);
    const bad = write("bad.xml", badText);
    const line = badText.slice(0, badText.indexOf("<uid>8</uid>")).split("\n").length - 1;
    await expect(updateSanctions(database.db, bad)).rejects.toThrow(
      `${bad}:${line}: entry 8: "0x1234" is not an EVM address`,
    );
    // An entry that never closes is refused once it passes the bound, not read to the end of memory.
    const runaway = write(
      "runaway.xml",
      `${v1.slice(0, v1.indexOf("</sdnEntry>"))}${"<x>y</x>".repeat(600_000)}`,
    );
    await expect(updateSanctions(database.db, runaway)).rejects.toThrow(
      "runs past 4 MiB (4194304 bytes) without closing",
    );
    expect(await sanctioned()).toEqual(before);
    await expect(updateSanctions(database.db, path.join(dir, "missing.xml"))).rejects.toThrow("no such file");
  });

  it("streams a list larger than its read chunks, keeping line numbers", async () => {
    const padding = `<remarks>${"x".repeat(900)}</remarks>`;
    const entries = Array.from({ length: 3000 }, (_, i) =>
      entry(i + 1, `${ethId(`0x${(i + 1).toString(16).padStart(40, "0")}`)}\n    ${padding}`),
    );
    entries.push(entry(9999, ethId("0xnot-an-address")));
    const text = list(entries);
    expect(text.length).toBeGreaterThan(3 << 20);
    const big = write("big.xml", text);
    const line = text.slice(0, text.indexOf("<uid>9999</uid>")).split("\n").length - 1;
    await expect(updateSanctions(database.db, big)).rejects.toThrow(`${big}:${line}: entry 9999:`);
    const summary = await updateSanctions(database.db, big, { skipInvalid: true });
    expect(summary).toMatchObject({
      entries: 3001,
      addresses: 3001,
      labels: 3000,
      inserted: 3000,
      rejected: 1,
    });
    expect(summary.rejected_rows).toEqual([
      `${big}:${line}: entry 9999: "0xnot-an-address" is not an EVM address`,
    ]);
    expect(await sanctioned()).toHaveLength(3000);
  });

  it("refuses to remove more than the allowed share of the sanctioned addresses unless allowed, and says the counts", async () => {
    // 3000 addresses held (the test above). A list that keeps 2,710 removes 290 (9.7 %): within 10 %, accepted.
    const address = (i: number) => ethId(`0x${(i + 1).toString(16).padStart(40, "0")}`);
    const keep = (n: number) => list(Array.from({ length: n }, (_, i) => entry(i + 1, address(i))));
    const within = await updateSanctions(database.db, write("within.xml", keep(2710)), { maxShrink: 0.1 });
    expect(within).toMatchObject({ deleted: 290, unchanged: 2710 });
    // Then one of 2,438 removes 272 of the 2,710 (10.04 %): refused, and nothing changes.
    const shrunk = write("shrunk.xml", keep(2438));
    await expect(updateSanctions(database.db, shrunk, { maxShrink: 0.1 })).rejects.toThrow(
      `${shrunk}: this SDN list would remove 272 of the 2710 sanctioned addresses held (10.04 %), more than the 10 % allowed (VIGIA_LIST_MAX_SHRINK_PERCENT), so nothing was changed. A truncated download looks so; if OFAC did delist them, run the command again with --allow-shrink`,
    );
    expect(await sanctioned()).toHaveLength(2710);
    const runs = await database.db
      .selectFrom("import_runs")
      .select(["status", "error"])
      .where("kind", "=", "sanctions")
      .orderBy("id", "desc")
      .limit(1)
      .execute();
    expect(runs[0]?.status).toBe("failed");
    expect(runs[0]?.error).toContain("would remove 272 of the 2710");
    // Allowed, it is what OFAC published.
    const allowed = await updateSanctions(database.db, shrunk, { maxShrink: 0.1, allowShrink: true });
    expect(allowed).toMatchObject({ deleted: 272 });
    expect(await sanctioned()).toHaveLength(2438);
  });
});
