// Coalesced reads (src/platform/coalesce.ts, and its use by the expansion's reads in src/ledger/layer-read.ts):
// an idle caller is served at once and alone; callers arriving while the loads in flight run share the next load
// (with gatherTurn, as for the embedded database, the callers of one event-loop turn share a load);
// a failed load fails exactly its own callers; and layer reads of single addresses, coalesced on a real database,
// give each caller exactly the rows it gets when read alone.
import { type KyselyPlugin, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReadCoalescing, readAddressFacts, readLayer } from "../../src/ledger/layer-read.ts";
import { Coalescer } from "../../src/platform/coalesce.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import { type Database, openDatabase } from "../../src/platform/db/open.ts";
import type { DB } from "../../src/schema.ts";

/** A load that records its batches and resolves when told to. */
function controlledLoad() {
  const batches: string[][] = [];
  const pending: (() => void)[] = [];
  const load = (keys: string[]) => {
    batches.push(keys);
    return new Promise<Map<string, string>>((resolve, reject) => {
      pending.push(() =>
        keys.includes("bad")
          ? reject(new Error("load failed"))
          : resolve(new Map(keys.map((k) => [k, `v:${k}`]))),
      );
    });
  };
  const finishNext = async () => {
    pending.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { batches, load, finishNext };
}

describe("Coalescer", () => {
  it("serves an idle caller at once; batches who arrive while a load runs; one load per key", async () => {
    const { batches, load, finishNext } = controlledLoad();
    const coalescer = new Coalescer(load, (k: string) => `missing:${k}`, { inFlight: 1, maxBatch: 3 });
    const first = coalescer.get("a");
    expect(batches).toEqual([["a"]]);
    const waiting = ["b", "c", "b", "d", "e"].map((k) => coalescer.get(k));
    expect(batches).toHaveLength(1); // all wait for the load in flight
    await finishNext();
    expect(await first).toBe("v:a");
    expect(batches).toEqual([["a"], ["b", "c", "d"]]); // "b" once, at most 3 keys
    await finishNext();
    expect(batches).toEqual([["a"], ["b", "c", "d"], ["e"]]);
    await finishNext();
    expect(await Promise.all(waiting)).toEqual(["v:b", "v:c", "v:b", "v:d", "v:e"]);
  });

  it("runs up to inFlight loads at once before batching", async () => {
    const { batches, load, finishNext } = controlledLoad();
    const coalescer = new Coalescer(load, (k: string) => k, { inFlight: 2, maxBatch: 10 });
    const all = ["a", "b", "c", "d"].map((k) => coalescer.get(k));
    expect(batches).toEqual([["a"], ["b"]]);
    await finishNext();
    expect(batches).toEqual([["a"], ["b"], ["c", "d"]]);
    await finishNext();
    await finishNext();
    expect(await Promise.all(all)).toEqual(["v:a", "v:b", "v:c", "v:d"]);
  });

  it("says when it is idle: the last load ended and no key waits", async () => {
    const { load, finishNext } = controlledLoad();
    let idle = 0;
    const coalescer = new Coalescer(load, (k: string) => k, {
      inFlight: 1,
      maxBatch: 10,
      onIdle: () => idle++,
    });
    const all = ["a", "b", "c"].map((k) => coalescer.get(k));
    await finishNext(); // "a" done, "b" and "c" now loading together
    expect(idle).toBe(0);
    await finishNext();
    expect(idle).toBe(1);
    expect(await Promise.all(all)).toEqual(["v:a", "v:b", "v:c"]);
  });

  it("with gatherTurn, the callers of one event-loop turn share a load, even when each load ends before the next caller", async () => {
    // As on the embedded database: a load that has finished by the time anyone else can call.
    const batches: string[][] = [];
    let idle = 0;
    const coalescer = new Coalescer(
      async (keys: string[]) => {
        batches.push(keys);
        return new Map(keys.map((k) => [k, `v:${k}`]));
      },
      (k: string) => k,
      { inFlight: 1, maxBatch: 3, gatherTurn: true, onIdle: () => idle++ },
    );
    const first = ["a", "b", "c", "d"].map((k) => coalescer.get(k));
    expect(batches).toEqual([]); // nothing starts before the turn ends
    expect(await Promise.all(first)).toEqual(["v:a", "v:b", "v:c", "v:d"]);
    expect(batches).toEqual([["a", "b", "c"], ["d"]]);
    expect(idle).toBe(1); // once, when "d" was done: not after the first load, while "d" waited
    // An idle caller waits only for the end of its own turn, and is served alone.
    expect(await coalescer.get("e")).toBe("v:e");
    expect(batches.at(-1)).toEqual(["e"]);
  });

  it("a failed load fails its own callers only; a key the load did not return gets `missing`", async () => {
    const coalescer = new Coalescer(
      async (keys: string[]) => {
        if (keys.includes("bad")) throw new Error("load failed");
        return new Map(keys.filter((k) => k !== "absent").map((k) => [k, `v:${k}`]));
      },
      (k: string) => `missing:${k}`,
      { inFlight: 1, maxBatch: 1 },
    );
    const results = await Promise.allSettled(["ok", "bad", "absent"].map((k) => coalescer.get(k)));
    expect(results).toEqual([
      { status: "fulfilled", value: "v:ok" },
      { status: "rejected", reason: new Error("load failed") },
      { status: "fulfilled", value: "missing:absent" },
    ]);
  });
});

const databaseUrl = process.env.DATABASE_URL;
const SCHEMA = "coalesce_test";
let database: Database<DB>;
let plain: Database<DB>;

const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

beforeAll(async () => {
  const open = () =>
    openDatabase<DB>(
      databaseUrl
        ? { databaseUrl, dataDir: "memory://", schema: SCHEMA, poolSize: 2 }
        : { dataDir: "memory://" },
    );
  database = await open();
  await migrate(database);
  // A second handle on the same data without coalescing, to compare with (PGlite: the same instance's data is
  // not shared between two in-memory instances, so the comparison reads through `database` first, then registers).
  plain = databaseUrl ? await open() : database;
  // Transfers in a ring with chords: address k sends to k+1 and k+3; some counterparties labelled.
  const rows: string[] = [];
  for (let k = 1; k <= 30; k++) {
    for (const [step, log] of [
      [1, 0],
      [3, 1],
    ] as const) {
      const to = ((k - 1 + step) % 30) + 1;
      rows.push(
        `(1, '0x${(k * 10 + log).toString(16).padStart(64, "0")}', ${log}, ${100 + k}, to_timestamp(${1_700_000_000 + k * 60}), '${address(k)}', '${address(to)}', 'native', ${k}000000000000000)`,
      );
    }
  }
  await database.rawTransaction((raw) =>
    raw.exec(
      `INSERT INTO transfers (chain_id, tx_hash, log_index, block_number, block_time, from_address, to_address, token, value) VALUES ${rows.join(",")};
       INSERT INTO address_facts (chain_id, address, first_seen_block, first_seen_at)
         SELECT 1, a, 100, to_timestamp(1700000000) FROM (SELECT DISTINCT from_address a FROM transfers) x;
       INSERT INTO labels (address, chain_id, label, category, source, confidence) VALUES
         ('${address(4)}', 1, 'Mixer', 'mixer', 'test', 100), ('${address(7)}', 0, 'Exchange', 'exchange', 'test', 90);`,
    ),
  );
});
afterAll(async () => {
  if (databaseUrl) await sql.raw(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).execute(database.db);
  if (plain !== database) await plain?.close();
  await database?.close();
});

describe("coalesced expansion reads", () => {
  it("give each caller the rows and facts it gets when read alone", async () => {
    const addresses = Array.from({ length: 30 }, (_, k) => address(k + 1));
    const alone = await Promise.all(
      addresses.map((a) => readLayer(plain.db, { chainId: 1, frontier: [a], window: {}, cap: 500 })),
    );
    const factsAlone = await Promise.all(addresses.map((a) => readAddressFacts(plain.db, 1, [a])));
    // Counting the statements sent (a plugin sees each one), on a handle registered as serving one at a time.
    let statements = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        statements++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const counted = database.db.withPlugin(counter);
    const shared = new ReadCoalescing(1);
    const together = await Promise.all(
      addresses.map((a) =>
        readLayer(counted, { chainId: 1, frontier: [a], window: {}, cap: 500 }, { coalescing: shared }),
      ),
    );
    const layerStatements = statements;
    const factsTogether = await Promise.all(addresses.map((a) => readAddressFacts(counted, 1, [a], shared)));
    // The first caller alone, then the 29 who waited, 16 at most per statement.
    expect(layerStatements).toBe(3);
    expect(statements - layerStatements).toBe(3);
    const canonical = (rows: { tx_hash: string; out: boolean }[]) =>
      [...rows].sort((x, y) => x.tx_hash.localeCompare(y.tx_hash) || Number(x.out) - Number(y.out));
    for (let k = 0; k < addresses.length; k++) {
      expect(together[k]!.frontier).toEqual([addresses[k]]);
      expect(canonical(together[k]!.rows)).toEqual(canonical(alone[k]!.rows));
      expect(together[k]!.rows.length).toBe(4); // two out, two in
      expect(factsTogether[k]).toEqual(factsAlone[k]);
    }
    expect(factsTogether[3]!.get(address(4))?.category).toBe("mixer");

    // Gathered per event-loop turn (as the service does on PGlite): the 30 callers of one turn, 16 at most per
    // statement, with the same rows.
    statements = 0;
    const gathered = database.db.withPlugin(counter);
    const perTurn = new ReadCoalescing(1, true);
    const inTurn = await Promise.all(
      addresses.map((a) =>
        readLayer(gathered, { chainId: 1, frontier: [a], window: {}, cap: 500 }, { coalescing: perTurn }),
      ),
    );
    expect(statements).toBe(2);
    for (let k = 0; k < addresses.length; k++)
      expect(canonical(inTurn[k]!.rows)).toEqual(canonical(alone[k]!.rows));
  });
});
