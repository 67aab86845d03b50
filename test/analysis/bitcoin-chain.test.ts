// A Bitcoin chain of the chain list, fed by a bitcoin-etl import, through the API: its addresses are checked with
// their network's rules (a testnet or malformed address is a 400 that says why), a quick check and a scan of an
// address paid through a transaction a sanctioned address funded trace the exposure by value, the addresses are
// answered as Bitcoin writes them (base58's case kept), a CoinJoin's outputs are paid by a mixer node, the wallet
// report reads the chain's transfers, monitoring is refused (no node follows this chain), and the chain list refuses
// what a Bitcoin chain cannot use (a Blockscout, an explorer other than Esplora). PGlite, or PostgreSQL with DATABASE_URL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sha256 } from "@noble/hashes/sha256";
import { bech32, createBase58check } from "@scure/base";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadChainsFile } from "../../src/chains/registry.ts";
import { importEtl } from "../../src/ingest/etl/import.ts";
import { resolveCurrency } from "../../src/ingest/labels/chains.ts";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";

const CHAIN = 177_005_167;
const p2wpkh = (n: number) => bech32.encode("bc", [0, ...bech32.toWords(new Uint8Array(20).fill(n))]);
const p2wpkhTestnet = (n: number) => bech32.encode("tb", [0, ...bech32.toWords(new Uint8Array(20).fill(n))]);
const base58check = createBase58check(sha256);
/** A P2PKH address (base58check, case-sensitive) whose hash is `n` repeated. */
const p2pkh = (n: number) => base58check.encode(Uint8Array.from([0, ...new Uint8Array(20).fill(n)]));
const [sanctioned, other, mule, bystander] = [1, 2, 3, 5].map(p2wpkh) as [string, string, string, string];
// The client writes base58, whose case matters: it must come back exactly as written.
const client = p2pkh(4);
const POOL = 1_000_000;
const [entrant, ...remixers] = [10, 11, 12, 13, 14].map(p2wpkh) as string[];
const mixOutputs = [20, 21, 22, 23, 24].map(p2wpkh) as string[];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-btc-chain-"));

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    env: { VIGIA_LOG_LEVEL: process.env.DEBUG_LOG ? "error" : "silent" },
    chains: [
      ...LOCAL_CHAINS,
      {
        id: CHAIN,
        name: "Bitcoin",
        kind: "bitcoin",
        currency_symbol: "BTC",
        explorer_url: "https://mempool.space",
      },
    ],
  });
  // The sanctioned address and another pay a mule in one transaction (3 BTC of 4 are the sanctioned address's);
  // the mule pays the client; the bystander is paid by `other` alone.
  const tx = (n: number, t: number, inputs: [string, number][], outputs: [string, number][]) => ({
    hash: n.toString(16).padStart(64, "0"),
    block_number: n,
    block_timestamp: t,
    is_coinbase: false,
    inputs: inputs.map(([a, v]) => ({ addresses: [a], value: v })),
    outputs: outputs.map(([a, v]) => ({ addresses: [a], value: v })),
  });
  const lines = [
    tx(
      1,
      1_704_067_200,
      [
        [sanctioned, 300_000_000],
        [other, 100_000_000],
      ],
      [[mule, 399_990_000]],
    ),
    tx(2, 1_704_070_800, [[mule, 399_990_000]], [[client, 399_980_000]]),
    tx(3, 1_704_074_400, [[other, 50_000_000]], [[bystander, 49_990_000]]),
    // A Whirlpool mix: one coin entering with the fee allowance, four remixing, five outputs of the pool.
    tx(
      4,
      1_704_078_000,
      [[entrant as string, POOL + 5_000], ...remixers.map((r) => [r, POOL] as [string, number])],
      mixOutputs.map((o) => [o, POOL] as [string, number]),
    ),
  ];
  fs.writeFileSync(
    path.join(tmp, "transactions.json"),
    `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
  );
  await importEtl(svc.database, { chainId: CHAIN, chainKind: "bitcoin", format: "bitcoin-etl", dir: tmp });
  // As the sanctions update labels a Bitcoin address: on Bitcoin mainnet's ledger id (docs/labels.md, "Bitcoin").
  await resolveAndLabel(sanctioned);
  // BTC at USD 42,000 that day, as `vigia import prices` would store it (8 decimals: satoshis).
  await svc.database.db
    .insertInto("prices")
    .values({ chain_id: CHAIN, token: "native", day: "2024-01-01", price_usd: "42000" })
    .execute();
});
/** Labels `address` sanctioned where the sanctions update would put an OFAC "XBT" address. */
async function resolveAndLabel(address: string): Promise<void> {
  const placed = resolveCurrency("XBT", address);
  if (!("chainId" in placed)) throw new Error(`not placed: ${JSON.stringify(placed)}`);
  expect(placed.chainId).toBe(CHAIN);
  await svc.database.db
    .insertInto("labels")
    .values({
      address: placed.address,
      chain_id: placed.chainId,
      label: "OFAC SDN test",
      category: "sanctioned",
      source: "test",
    })
    .execute();
}

afterAll(async () => {
  await svc?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const get = (url: string) => svc.app!.inject({ method: "GET", url, headers: auth(svc.project.keys.viewer) });

describe("a Bitcoin chain", () => {
  it("refuses an address its network does not write, saying why", async () => {
    const testnet = await get(`/v1/risk/quick?address=${p2wpkhTestnet(4)}&chainId=${CHAIN}`);
    expect(testnet.statusCode).toBe(400);
    expect(testnet.body).toContain("is a Bitcoin testnet address (tb1...), not a mainnet one");
    const broken = await get(`/v1/risk/quick?address=1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb&chainId=${CHAIN}`);
    expect(broken.statusCode).toBe(400);
    expect(broken.body).toContain("fails its base58check checksum");
  });

  it("traces a sanctioned address's value to the client through the transactions, by value", async () => {
    // The mule took 3 BTC of the sanctioned address's in one transaction: the quick check (1 hop) sees it.
    const res = await get(`/v1/risk/quick?address=${mule.toUpperCase()}&chainId=${CHAIN}`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.level).toBe("critical");
    expect(data.reason).toContain("sanctioned");
    expect(data.coverage).toMatchObject({ chainId: String(CHAIN), source: "import" });
    // The client, two hops away: a scan follows the value.
    const scan = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
      headers: auth(svc.project.keys.developer),
      payload: { addresses: [{ address: client, chainId: String(CHAIN) }], maxDepth: 3, skipExisting: false },
    });
    const result = scan.json().data.results[0];
    expect(["high", "critical"]).toContain(result.riskLevel);
    expect(result.riskReason).toMatch(/sanctioned/i);
    // The bystander's payer never received from the sanctioned address.
    expect(result.address).toBe(client);
    // The stored result answers an address written in the other case of bech32, without its chain too.
    const mixedCase = (sanctioned as string).toUpperCase();
    await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
      headers: auth(svc.project.keys.developer),
      payload: {
        addresses: [{ address: sanctioned, chainId: String(CHAIN) }],
        maxDepth: 1,
        skipExisting: false,
      },
    });
    const stored = (
      await get(`/v1/projects/${svc.project.id}/addresses/scan-risk?addresses=${mixedCase}`)
    ).json().data;
    expect(stored.results.map((r: { address: string }) => r.address)).toEqual([sanctioned]);
    const bystanderCheck = (await get(`/v1/risk/quick?address=${bystander}&chainId=${CHAIN}`)).json().data;
    expect(["minimal", "low"]).toContain(bystanderCheck.level);
  });

  it("reads a CoinJoin as a mix: its outputs are paid by a mixer node, not by each participant", async () => {
    const { rows } = await sql<{ from_address: string; to_address: string }>`
      SELECT from_address, to_address FROM transfers WHERE chain_id = ${CHAIN} AND tx_hash = ${"4".padStart(64, "0")}
      ORDER BY log_index`.execute(svc.database.db);
    const hub = `coinjoin:${"4".padStart(64, "0")}`;
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.from_address === hub || r.to_address === hub)).toBe(true);
    const label = await svc.database.db
      .selectFrom("labels")
      .select(["category", "label"])
      .where("address", "=", hub)
      .executeTakeFirstOrThrow();
    expect(label.category).toBe("mixer");
    expect(label.label).toMatch(/^CoinJoin \(whirlpool, high confidence\)/);
    // An output's quick check sees the mixer it was paid by.
    const data = (await get(`/v1/risk/quick?address=${mixOutputs[0]}&chainId=${CHAIN}`)).json().data;
    expect(data.reason).toContain("CoinJoin (whirlpool");
    expect(data.level).not.toBe("minimal");
  });

  it("writes the wallet report from the chain's transfers: activity, counterparties, the sanctioned one named", async () => {
    for (const query of ["", `?chainId=${CHAIN}`]) {
      const res = await get(`/v1/wallets/${mule}/report${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const markdown: string = res.json().data;
      expect(markdown).not.toContain("no transaction data for bitcoin");
      expect(markdown).toContain("## Activity");
      expect(markdown).toContain("## Counterparties");
      // Paid 3 BTC of its 4 by the sanctioned address, which it paid on to the client.
      expect(markdown).toContain(sanctioned);
      expect(markdown).toContain("(sanctioned)");
      expect(markdown).toContain(client);
      expect(markdown).toMatch(/\*\*\d+\/100 \(critical\)\*\*/);
    }
    // The client's base58 address, as it writes it, is found and named so.
    const client_ = (await get(`/v1/wallets/${client}/report`)).json().data as string;
    expect(client_).toContain(`\`${client}\``);
    expect(client_).toContain(mule);
  });

  it("refuses to monitor an address nothing would watch, saying why", async () => {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses`,
      headers: auth(svc.project.keys.developer),
      payload: { address: client, chainId: String(CHAIN), foreign_user_id: "u-1" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("is a Bitcoin chain that no node follows");
  });

  it("is refused a Blockscout or an explorer other than Esplora, and given satoshis' 8 decimals", () => {
    const file = path.join(tmp, "chains.json");
    const write = (extra: object) =>
      fs.writeFileSync(
        file,
        JSON.stringify([{ id: CHAIN, name: "Bitcoin", kind: "bitcoin", currency_symbol: "BTC", ...extra }]),
      );
    write({ blockscout_url: "https://blockscout.example" });
    expect(() => loadChainsFile(file)).toThrow(
      /blockscout_url is set, but a Bitcoin chain has no Blockscout/,
    );
    write({ rpc_url: "http://user:pass@127.0.0.1:8332" });
    expect(loadChainsFile(file)[0]).toMatchObject({ rpc_url: "http://user:pass@127.0.0.1:8332" });
    write({ explorer_api_url: "https://mempool.space/api", explorer_api_kind: "etherscan" });
    expect(() => loadChainsFile(file)).toThrow(/histories come from an Esplora API: set "esplora"/);
    write({ explorer_api_url: "https://mempool.space/api" });
    expect(loadChainsFile(file)[0]).toMatchObject({ explorer_api_url: "https://mempool.space/api" });
    fs.writeFileSync(
      file,
      JSON.stringify([{ id: 7, name: "EVM", currency_symbol: "ETH", explorer_api_kind: "esplora" }]),
    );
    expect(() => loadChainsFile(file)).toThrow(/Esplora serves Bitcoin chains/);
    write({ currency_decimals: 18 });
    expect(() => loadChainsFile(file)).toThrow(/currency_decimals is 18; bitcoin has 8/);
    write({});
    expect(loadChainsFile(file)[0]).toMatchObject({ currency_decimals: 8, explorer_api_url: null });
  });
});
