// A fake Blockscout instance for tests: a real node:http server on 127.0.0.1 (random port) that serves
// `GET /api/v2/stats` in the shape Blockscout's stats controller sends (numbers as strings where Blockscout sends
// strings, `tvl: null`, gas prices, ...). It counts the stats requests it receives and can be switched to answer
// slowly, answer 500, answer invalid JSON, or be down (port closed), so tests can drive the chain-stats cache.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The body of Blockscout's `GET /api/v2/stats` (blockscout/blockscout, api/v2 stats_controller.ex). */
export function blockscoutStats(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    average_block_time: 250.0,
    coin_image: "https://coin-images.coingecko.com/coins/images/279/small/ethereum.png?1696501628",
    coin_price: "2735.25",
    coin_price_change_percentage: -1.37,
    gas_price_updated_at: "2025-01-20T18:14:06.337090Z",
    gas_prices: { slow: 0.01, average: 0.01, fast: 0.01 },
    gas_prices_update_in: 23456,
    gas_used_today: "1948572837465",
    market_cap: "329663113187.488651200",
    network_utilization_percentage: 4.126347,
    static_gas_price: null,
    total_addresses: "67136720",
    total_blocks: "302652520",
    total_gas_used: "0",
    total_transactions: "1292967936",
    transactions_today: "2145398",
    tvl: null,
    ...overrides,
  };
}

export type FakeMode =
  | { kind: "ok" }
  | { kind: "slow"; delayMs: number }
  | { kind: "error" }
  | { kind: "invalid-json" };

export class FakeBlockscout {
  /** Stats requests received (`GET /api/v2/stats`), whatever the mode answered. */
  requests = 0;
  /** The body served in "ok" and "slow" modes; replace it to make the upstream's figures change. */
  stats: Record<string, unknown>;
  #mode: FakeMode = { kind: "ok" };
  #server: http.Server;
  #port = 0;
  #up = false;
  readonly #timers = new Set<NodeJS.Timeout>();

  private constructor(stats: Record<string, unknown>) {
    this.stats = stats;
    this.#server = http.createServer((req, res) => this.#handle(req, res));
  }

  static async start(stats: Record<string, unknown> = blockscoutStats()): Promise<FakeBlockscout> {
    const fake = new FakeBlockscout(stats);
    await fake.up();
    return fake;
  }

  /** Base URL of the instance, as a chain's `blockscout_url` (without /api/v2). */
  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  ok(): void {
    this.#mode = { kind: "ok" };
  }
  slow(delayMs: number): void {
    this.#mode = { kind: "slow", delayMs };
  }
  fail(): void {
    this.#mode = { kind: "error" };
  }
  invalidJson(): void {
    this.#mode = { kind: "invalid-json" };
  }

  /** Listens again (on the same port once it had one), answering in "ok" mode. */
  async up(): Promise<void> {
    if (this.#up) return;
    this.#mode = { kind: "ok" };
    await new Promise<void>((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(this.#port, "127.0.0.1", () => {
        this.#server.off("error", reject);
        resolve();
      });
    });
    this.#port = (this.#server.address() as AddressInfo).port;
    this.#up = true;
  }

  /** Closes the port and drops every open connection (kept-alive ones and requests still being delayed). */
  async down(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    if (!this.#up) return;
    this.#up = false;
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  close(): Promise<void> {
    return this.down();
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (req.method !== "GET" || path !== "/api/v2/stats") {
      res.writeHead(404, { "content-type": "application/json" }).end('{"message":"Not found"}');
      return;
    }
    this.requests += 1;
    const mode = this.#mode;
    const json = (status: number, body: string) =>
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(body);
    switch (mode.kind) {
      case "ok":
        json(200, JSON.stringify(this.stats));
        return;
      case "slow": {
        const body = JSON.stringify(this.stats);
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          json(200, body);
        }, mode.delayMs);
        this.#timers.add(timer);
        return;
      }
      case "error":
        json(500, '{"message":"Internal server error"}');
        return;
      case "invalid-json":
        json(200, '{"total_blocks": "302652520", "total_addresses": ');
        return;
    }
  }
}
