// The store the risk-endpoint benchmarks (bench/risk-endpoints.ts) run on: BENCH_RISK_TRANSFERS transfers (default
// 5,000,000) on chain 1 between BENCH_RISK_USERS ordinary users (default 1,000,000) and 67 services, generated
// inside the database itself with SQL (setseed + generate_series, so every run and both databases get the very
// same rows), in the schema the migrations create, with what a store in use holds beside the transfers: address
// facts, labels, tokens and daily prices.
//
// Shape (shares of the transfers), so that checks and scans do the work they do on real data:
// - 41% user to user, senders skewed (user rank r drawn with probability ~ 1/sqrt(r)), receivers less so; the
//   busiest users have a few thousand transfers, a typical one about ten;
// - 10% between users (uniformly: any user may be one's counterparty) and TRANSFERS / 1,000 merchants: unlabelled
//   EOAs such as payment processors, OTC desks and an exchange's unlabelled wallets, whose degree is heavy-tailed
//   (merchant rank r drawn with probability ~ r^(-2/3), so P(transfers > x) ~ x^(-1.5)). On 211,000 transfers
//   the busiest has a few thousand transfers and about 40 have hundreds; on 5,000,000, about 30 have thousands
//   and about 1,000 hundreds. These are the busy neighbourhoods of real chains: about one ordinary user in three
//   has a merchant among its counterparties (docs/decisions/0031);
// - 24% deposits to and withdrawals from 40 exchanges (labelled `exchange`, on every chain), themselves skewed:
//   the biggest has ~400,000 transfers;
// - 16% swaps through 10 unlabelled hubs (contracts no label source names, like pools and routers: the expansion
//   does not stop at them);
// - 5% with 2 bridges and 3 DeFi protocols (labelled), 2% with 2 gambling sites (labelled `gambling`, no type);
// - 1.5% through 5 mixers (labelled `mixer`): deposits from 20,000 users, withdrawals to 20,000 others;
// - 0.5% with 5 sanctioned addresses (labelled `sanctioned`), to and from 5,000 users;
// - 300 users labelled `illicit`, 100 `blocklisted`, and 20,000 labels (`other`) of addresses outside the data, as
//   an imported tag pack would leave;
// - 60% native (ETH, 18 decimals), 30% the stablecoin USDV (6 decimals, priced), 10% TKN (18 decimals, no price);
//   amounts log-uniform over five orders of magnitude; times uniform over 2024; daily prices for ETH and USDV, and
//   the working days' exchange rates of the peso, the Colombian peso and the quetzal (the jurisdictions' thresholds
//   are converted with them).
//
// Addresses look like real ones (md5-based, so that busy and related addresses are not neighbours in the indexes);
// `benchAddress(k)` gives the same address in TypeScript. The transfers are loaded with the table's indexes
// dropped and then rebuilt from their own definitions (what a bulk load does; the store ends up exactly as the
// migrations define it), then VACUUM ANALYZE, as autovacuum leaves a PostgreSQL store in use. PGlite runs no
// autovacuum: its statistics and visibility map come from that one VACUUM ANALYZE.
import crypto from "node:crypto";
import type { Database } from "../src/platform/db/open.ts";

/**
 * BENCH_RISK_CHAIN=tron writes the store under Tron mainnet's id (728126428) and the benchmark sends and reads its
 * addresses in base58check, as Tron's clients do: the same data, the codec at the API's edges measured with it.
 */
export const TRON = process.env.BENCH_RISK_CHAIN === "tron";
export const CHAIN_ID = TRON ? 728126428 : 1;
export const TRANSFERS = Number(process.env.BENCH_RISK_TRANSFERS || 5_000_000);
/** Users: BENCH_RISK_USERS, by default one per 5 transfers (1,000,000 for 5M), so a typical user has ~10. */
export const USERS = Number(process.env.BENCH_RISK_USERS || Math.round(TRANSFERS / 5));
const YEAR_START = Date.UTC(2024, 0, 1) / 1000;
const YEAR_SECONDS = 366 * 86_400;
/** work_mem and maintenance_work_mem while generating (PGlite's WebAssembly heap must hold it). */
const WORK_MEM = "256MB";

/** Service address numbers (k) and user numbers (FIRST_USER + rank). */
export const SERVICES = {
  exchanges: { first: 0, count: 40 },
  hubs: { first: 40, count: 10 },
  mixers: { first: 50, count: 5 },
  sanctioned: { first: 55, count: 5 },
  bridges: { first: 60, count: 2 },
  defi: { first: 62, count: 3 },
  gambling: { first: 65, count: 2 },
} as const;
export const FIRST_USER = 1000;
/** Merchant numbers: after the users and the tag pack's addresses (FIRST_USER + USERS + 1,000 to + 20,999). */
export const MERCHANTS = {
  first: FIRST_USER + USERS + 30_000,
  count: Math.max(10, Math.round(TRANSFERS / 1000)),
};
/** User ranks of the mixer depositors and receivers, sanctioned counterparties and illicit-labelled users. */
const MIXER_IN = { first: Math.floor(USERS / 2), count: 20_000 };
const MIXER_OUT = { first: Math.floor(USERS / 2) + 20_000, count: 20_000 };
const SANCTIONED_PEERS = { first: Math.floor(USERS / 3), count: 5_000 };
const ILLICIT = { first: Math.floor(USERS / 4), count: 300 };
const BLOCKLISTED = { first: Math.floor(USERS / 4) + 300, count: 100 };

export const TOKENS = {
  usdv: "0x5f5e2a0f4b2b6a5e0b8b2b4f0c1d2e3f4a5b6c7d",
  tkn: "0x7a6e1b3c5d7f9e2a4c6b8d0f1e3a5c7b9d2f4e6a",
} as const;

/** The address of number k, as the SQL below writes it. */
export function benchAddress(k: number): string {
  return `0x${crypto.createHash("md5").update(`vigia${k}`).digest("hex")}${k.toString(16).padStart(8, "0")}`;
}
/** The address of number k in SQL (k a column or a constant: it is used twice, so never an expression with random()). */
const sqlAddress = (k: string) => `'0x' || md5('vigia' || ${k}) || lpad(to_hex(${k}), 8, '0')`;
/** A user's number, its rank drawn with probability ~ rank^(1/p - 1): p = 2 gives ~ 1/sqrt(rank); p = 1 is uniform. */
const user = (p: number) => `${FIRST_USER} + floor(${USERS} * power(random(), ${p}))::int`;
const userIn = (r: { first: number; count: number }) =>
  `${FIRST_USER + r.first} + floor(random() * ${r.count})::int`;
const service = (s: { first: number; count: number }, p = 1) =>
  `${s.first} + floor(${s.count} * power(random(), ${p}))::int`;

interface Segment {
  /** share of TRANSFERS */
  share: number;
  from: string;
  to: string;
  /** `from` and `to` swapped on every other row (deposits and withdrawals) */
  twoWay?: boolean;
}

const SEGMENTS: Segment[] = [
  { share: 0.41, from: user(2), to: user(1.5) },
  { share: 0.1, from: user(1), to: service(MERCHANTS, 3), twoWay: true },
  { share: 0.12, from: user(1), to: service(SERVICES.exchanges, 2) },
  { share: 0.12, from: service(SERVICES.exchanges, 2), to: user(1) },
  { share: 0.16, from: user(1), to: service(SERVICES.hubs, 1.5), twoWay: true },
  { share: 0.03, from: user(1), to: service(SERVICES.defi), twoWay: true },
  { share: 0.02, from: user(1), to: service(SERVICES.bridges), twoWay: true },
  { share: 0.02, from: user(1), to: service(SERVICES.gambling), twoWay: true },
  { share: 0.0075, from: userIn(MIXER_IN), to: service(SERVICES.mixers) },
  { share: 0.0075, from: service(SERVICES.mixers), to: userIn(MIXER_OUT) },
  { share: 0.005, from: service(SERVICES.sanctioned), to: userIn(SANCTIONED_PEERS), twoWay: true },
];

/** The INSERT of one segment: rows g in [offset + 1, offset + count]. */
function segmentSql(segment: Segment, offset: number, count: number): string {
  // Numbers and the token drawn once per row in a subquery: the token decides the amount's scale too, and an
  // address number appears twice in its address.
  const from = segment.twoWay
    ? `CASE WHEN g % 2 = 0 THEN ${segment.from} ELSE ${segment.to} END`
    : segment.from;
  const to = segment.twoWay ? `CASE WHEN g % 2 = 0 THEN ${segment.to} ELSE ${segment.from} END` : segment.to;
  return `
    INSERT INTO transfers (chain_id, tx_hash, log_index, block_number, block_time, from_address, to_address, token, value)
    SELECT ${CHAIN_ID}, '0x' || md5('t' || g) || md5('u' || g),
      CASE WHEN tk = 0 THEN -1 ELSE (g % 200)::int END,
      19000000 + floor(s / 12)::bigint,
      to_timestamp(${YEAR_START} + s),
      ${sqlAddress("f")}, ${sqlAddress("t")},
      CASE tk WHEN 0 THEN 'native' WHEN 1 THEN '${TOKENS.usdv}' ELSE '${TOKENS.tkn}' END,
      floor(power(10, random() * 5 + CASE tk WHEN 1 THEN 0 ELSE 14 END))::numeric * CASE tk WHEN 1 THEN 1000000 ELSE 100 END
    FROM (
      SELECT g, floor(random() * ${YEAR_SECONDS - 1})::bigint AS s,
        CASE WHEN r < 0.6 THEN 0 WHEN r < 0.9 THEN 1 ELSE 2 END AS tk,
        ${from} AS f, ${to} AS t
      FROM (SELECT g, random() AS r FROM generate_series(${offset + 1}, ${offset + count}) g) x
    ) y;`;
}

export interface GenerateReport {
  transfers: number;
  addresses: number;
  labels: number;
  seconds: { transfers: number; indexes: number; facts: number; vacuum: number };
}

/** Writes the store into an empty, migrated database. Deterministic: setseed, and one statement per segment. */
export async function generateRiskStore(
  database: Database<unknown>,
  log: (line: string) => void = () => {},
): Promise<GenerateReport> {
  const seconds = { transfers: 0, indexes: 0, facts: 0, vacuum: 0 };
  let t = performance.now();
  const lap = () => {
    const s = (performance.now() - t) / 1000;
    t = performance.now();
    return s;
  };
  // The indexes of transfers (primary key included), as the migrations made them, to rebuild after the load.
  const indexes = await database.rawTransaction((raw) =>
    raw.query<{ name: string; def: string; constraint: string | null }>(
      `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def,
         (SELECT pg_get_constraintdef(c.oid) FROM pg_constraint c WHERE c.conindid = i.oid) AS constraint
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
       WHERE x.indrelid = 'transfers'::regclass ORDER BY i.relname`,
    ),
  );
  await database.rawTransaction(async (raw) => {
    for (const index of indexes) {
      await raw.exec(
        index.constraint ? `ALTER TABLE transfers DROP CONSTRAINT ${index.name}` : `DROP INDEX ${index.name}`,
      );
    }
  });
  let offset = 0;
  let written = 0;
  for (const [i, segment] of SEGMENTS.entries()) {
    const count = i === SEGMENTS.length - 1 ? TRANSFERS - written : Math.round(TRANSFERS * segment.share);
    await database.rawTransaction(async (raw) => {
      // One seed per segment, so that a segment's rows do not depend on how the others were drawn.
      await raw.query(`SELECT setseed(${(0.1 + i / 100).toFixed(2)})`);
      await raw.exec(segmentSql(segment, offset, count));
    });
    offset += count;
    written += count;
    log(`  transfers: ${written.toLocaleString("en-US")}`);
  }
  seconds.transfers = lap();
  for (const index of indexes) {
    await database.rawTransaction(async (raw) => {
      // Sorting 5M keys: with the default 64 MB the build spills to many small runs on disk.
      await raw.exec(`SET LOCAL maintenance_work_mem = '${WORK_MEM}'`);
      await raw.exec(
        index.constraint
          ? `ALTER TABLE transfers ADD CONSTRAINT ${index.name} ${index.constraint}`
          : index.def,
      );
    });
    log(`  index ${index.name} rebuilt`);
  }
  seconds.indexes = lap();

  const svc = (s: { first: number; count: number }) =>
    `generate_series(${s.first}, ${s.first + s.count - 1})`;
  const users = (r: { first: number; count: number }) =>
    `generate_series(${FIRST_USER + r.first}, ${FIRST_USER + r.first + r.count - 1})`;
  await database.rawTransaction(async (raw) => {
    await raw.exec(`SET LOCAL work_mem = '${WORK_MEM}'`);
    await raw.exec(`
      INSERT INTO address_facts (chain_id, address, first_seen_block, first_seen_at, transfers_out, transfers_in)
      SELECT ${CHAIN_ID}, a, min(b), min(t), sum(o), sum(i) FROM (
        SELECT from_address a, block_number b, block_time t, 1 o, 0 i FROM transfers
        UNION ALL SELECT to_address, block_number, block_time, 0, 1 FROM transfers
      ) x GROUP BY a;
      UPDATE address_facts SET is_contract = true WHERE address IN (
        SELECT ${sqlAddress("k")} FROM generate_series(${SERVICES.hubs.first}, ${SERVICES.gambling.first + SERVICES.gambling.count - 1}) k);
      INSERT INTO tokens (chain_id, address, symbol, name, decimals) VALUES
        (${CHAIN_ID}, '${TOKENS.usdv}', 'USDV', 'Vigia Dollar', 6),
        (${CHAIN_ID}, '${TOKENS.tkn}', 'TKN', 'Token', 18);
      INSERT INTO prices (chain_id, token, day, price_usd)
      SELECT ${CHAIN_ID}, tk, d::date, CASE WHEN tk = 'native' THEN round((3000 + 800 * sin(extract(doy FROM d) / 20))::numeric, 2) ELSE 1 END
      FROM generate_series(to_timestamp(${YEAR_START}) AT TIME ZONE 'UTC', to_timestamp(${YEAR_START + YEAR_SECONDS}) AT TIME ZONE 'UTC', interval '1 day') d,
        unnest(ARRAY['native', '${TOKENS.usdv}']) tk;
      INSERT INTO fx_rates (day, currency, per_usd)
      SELECT d::date, c, round((CASE c WHEN 'MXN' THEN 17.2 WHEN 'COP' THEN 3950 ELSE 7.8 END
          * (1 + 0.04 * sin(extract(doy FROM d) / 30)))::numeric, 4)
      FROM generate_series(to_timestamp(${YEAR_START}) AT TIME ZONE 'UTC', to_timestamp(${YEAR_START + YEAR_SECONDS}) AT TIME ZONE 'UTC', interval '1 day') d,
        unnest(ARRAY['MXN', 'COP', 'GTQ']) c
      WHERE extract(isodow FROM d) < 6;
      INSERT INTO labels (address, chain_id, label, category, source, confidence)
      SELECT ${sqlAddress("k")}, 0, 'Exchange ' || k, 'exchange', 'bench', 90 FROM ${svc(SERVICES.exchanges)} k
      UNION ALL SELECT ${sqlAddress("k")}, ${CHAIN_ID}, 'Mixer pool ' || k, 'mixer', 'bench', 100 FROM ${svc(SERVICES.mixers)} k
      UNION ALL SELECT ${sqlAddress("k")}, 0, 'SDN entry ' || k, 'sanctioned', 'ofac', 100 FROM ${svc(SERVICES.sanctioned)} k
      UNION ALL SELECT ${sqlAddress("k")}, ${CHAIN_ID}, 'Bridge ' || k, 'bridge', 'bench', 80 FROM ${svc(SERVICES.bridges)} k
      UNION ALL SELECT ${sqlAddress("k")}, ${CHAIN_ID}, 'DeFi protocol ' || k, 'defi', 'bench', 80 FROM ${svc(SERVICES.defi)} k
      UNION ALL SELECT ${sqlAddress("k")}, ${CHAIN_ID}, 'Casino ' || k, 'gambling', 'bench', 70 FROM ${svc(SERVICES.gambling)} k
      UNION ALL SELECT ${sqlAddress("k")}, ${CHAIN_ID}, 'Scam report ' || k, 'illicit', 'reports', 60 FROM ${users(ILLICIT)} k
      UNION ALL SELECT ${sqlAddress("k")}, ${CHAIN_ID}, 'Frozen by USDV ' || k, 'blocklisted', 'usdv', 100 FROM ${users(BLOCKLISTED)} k
      UNION ALL SELECT ${sqlAddress("k")}, 0, 'Tag ' || k, 'other', 'tagpack', 50 FROM generate_series(${FIRST_USER + USERS + 1000}, ${FIRST_USER + USERS + 20_999}) k;
    `);
  });
  seconds.facts = lap();
  for (const table of ["transfers", "address_facts", "labels", "prices", "tokens"]) {
    await vacuumAnalyze(database, table);
  }
  seconds.vacuum = lap();
  const [counts] = await database.rawTransaction((raw) =>
    raw.query<{ addresses: string; labels: string }>(
      "SELECT (SELECT count(*) FROM address_facts)::text AS addresses, (SELECT count(*) FROM labels)::text AS labels",
    ),
  );
  return {
    transfers: TRANSFERS,
    addresses: Number(counts?.addresses),
    labels: Number(counts?.labels),
    seconds,
  };
}

async function vacuumAnalyze(database: Database<unknown>, table: string): Promise<void> {
  if (database.pglite) await database.pglite.exec(`VACUUM ANALYZE ${table}`);
  else if (database.pool) await database.pool.query(`VACUUM ANALYZE ${table}`);
}

/** Address numbers of the three kinds of addresses the benchmarks check. */
export const ADDRESS_CLASSES = {
  /** any user, uniformly: a few to a few dozen transfers */
  tail: (random: () => number) => FIRST_USER + Math.floor(random() * USERS),
  /** the 1,000 busiest users (ranks 0-999): about 40 to 3,000 transfers */
  busy: (random: () => number) => FIRST_USER + Math.floor(random() * 1000),
  /** exchanges, hubs, mixers, sanctioned, bridges, DeFi, gambling: 10,000s to 100,000s of transfers */
  service: (random: () => number) => Math.floor(random() * 67),
} as const;
