// The stored clusters, kept batch by batch as an import writes them (each batch seeding the clusters it touches and
// writing back what changed), are exactly the clusters one pass of the risk core's Clusterer makes over the same
// transactions: the same partition of the addresses, each stored size the number of its members, no member of a
// deleted cluster. On a generated export that looks like a busy chain (test/ingest/btc-etl-export-generator.ts:
// wallets with change, exchanges' deposit sweeps and withdrawal batches, WabiSabi rounds), in batches of 1,000
// transactions. PGlite, or PostgreSQL with DATABASE_URL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { importEtl } from "../../src/ingest/etl/import.ts";
import { Clusterer } from "../../src/risk/index.ts";
import { generateBtcExport, utxoTransactionsOf } from "../ingest/btc-etl-export-generator.ts";
import { openTestDatabase } from "../support/db-only.ts";

const CHAIN = 177_005_167;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-clusters-pass-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("stored clusters", () => {
  it("are the clusters of one pass over the same transactions, batch after batch", async () => {
    const exported = generateBtcExport({ dir: path.join(tmp, "export"), transactions: 12_000, seed: 5 });
    const database = await openTestDatabase();
    try {
      await importEtl(database, {
        chainId: CHAIN,
        chainKind: "bitcoin",
        format: "bitcoin-etl",
        dir: exported.dir,
        batchRows: 1_000,
      });
      const onePass = new Clusterer();
      for await (const tx of utxoTransactionsOf(exported.dir)) onePass.add(tx);
      const { rows: members } = await sql<{ address: string; key: string }>`
        SELECT address, key::text AS key FROM utxo_cluster_members WHERE chain_id = ${CHAIN}`.execute(
        database.db,
      );
      const { rows: clusters } = await sql<{ key: string; size: number }>`
        SELECT key::text AS key, size FROM utxo_clusters WHERE chain_id = ${CHAIN}`.execute(database.db);
      const byKey = new Map<string, string[]>();
      for (const m of members) byKey.set(m.key, [...(byKey.get(m.key) ?? []), m.address]);
      const partition = (groups: Iterable<string[]>) =>
        new Set([...groups].filter((g) => g.length > 1).map((g) => [...g].sort().join(",")));
      const expected = partition(onePass.clusters().values());
      expect(expected.size).toBeGreaterThan(800);
      expect(partition(byKey.values())).toEqual(expected);
      for (const c of clusters) expect(byKey.get(c.key)?.length ?? 0, `cluster ${c.key}`).toBe(c.size);
      expect([...byKey.keys()].filter((k) => !clusters.some((c) => c.key === k))).toEqual([]);
    } finally {
      await database.drop();
    }
  }, 300_000);
});
