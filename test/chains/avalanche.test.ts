// Avalanche C-Chain (43114) and Fuji (43113) in the built-in chain list (docs/api.md, "Chains (viewer)";
// docs/operations.md): described as the other built-in chains are (name, AVAX, 18 decimals, Snowtrace as the
// explorer for links), with no public Blockscout instance, so nothing asks an explorer for them, even with public
// explorers on. The service runs on the built-in list itself, and every request leaving it is recorded: listing
// them, their detail (figures from the service's own data) and a quick check on each answer without a name
// resolved or a statistic fetched. PGlite in memory, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { explorerSource } from "../../src/chains/explorer/config.ts";
import { BUILT_IN_CHAINS } from "../../src/chains/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const AVALANCHE = [
  { id: 43114, name: "Avalanche C-Chain", explorer_url: "https://snowtrace.io" },
  { id: 43113, name: "Avalanche Fuji", explorer_url: "https://testnet.snowtrace.io" },
];

let svc: TestService;
/** Every host name the service tried to resolve, and every Blockscout it asked for statistics. */
const resolved: string[] = [];
const statsAsked: string[] = [];

beforeAll(async () => {
  svc = await startTestService({
    // The built-in list itself, the devnet's node unused (no workers), public explorers on as out of the box.
    chains: BUILT_IN_CHAINS,
    env: { VIGIA_PUBLIC_EXPLORERS: "true" },
    service: {
      outbound: {
        resolve: async (hostname) => {
          resolved.push(hostname);
          throw new Error(`test: no name resolves (${hostname})`);
        },
      },
      fetchStats: async (url) => {
        statsAsked.push(url);
        throw new Error("test: no statistics");
      },
    },
  });
});
afterAll(async () => {
  await svc?.stop();
});

describe("Avalanche in the built-in chain list", () => {
  it("describes C-Chain and Fuji as the other built-in chains are, without an explorer to ask", () => {
    for (const expected of AVALANCHE) {
      const chain = BUILT_IN_CHAINS.find((c) => c.id === expected.id);
      expect(chain).toEqual({
        ...expected,
        currency_symbol: "AVAX",
        currency_decimals: 18,
        blockscout_url: null,
        rpc_url: null,
        coin_image: null,
        enabled: true,
      });
      expect(explorerSource(chain!, true)).toBeUndefined();
      expect(explorerSource(chain!, false)).toBeUndefined();
    }
    expect(svc.history.hasExplorer(43114)).toBe(false);
    expect(svc.history.hasExplorer(43113)).toBe(false);
  });

  it("lists both chains and answers their detail from the service's own data", async () => {
    const list = await svc.app!.inject({ url: "/v1/chains", headers: auth(svc.project.keys.viewer) });
    expect(list.statusCode).toBe(200);
    const chains = list.json().data as { id: number }[];
    for (const expected of AVALANCHE)
      expect(chains).toContainEqual({ ...expected, currency_symbol: "AVAX", currency_decimals: 18 });
    for (const { id, name } of AVALANCHE) {
      const detail = await svc.app!.inject({
        url: `/v1/chains/${id}`,
        headers: auth(svc.project.keys.viewer),
      });
      expect(detail.statusCode).toBe(200);
      expect(detail.json().data).toMatchObject({
        name,
        chain_id: id,
        currency_symbol: "AVAX",
        market_cap: null,
        coin_price: null,
        tvl: null,
        stats_source: "index",
      });
    }
  });

  it("answers a quick check on each chain without data as no_data, asking no one", async () => {
    for (const { id } of AVALANCHE) {
      const res = await svc.app!.inject({
        url: `/v1/risk/quick?address=0x00000000000000000000000000000000000a11ce&chainId=${id}`,
        headers: auth(svc.project.keys.viewer),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        errorCode: "no_data",
        coverage: { chainId: String(id), source: "none" },
      });
    }
    expect(resolved).toEqual([]);
    expect(statsAsked).toEqual([]);
  });
});
