// Running the indexer in a test: a devnet chain config pointing at the test's anvil, quick polling and backoff,
// a log sink the test can read, and waits on the store.
import type { Kysely } from "kysely";
import type {
  FollowerEvent,
  FollowerHooks,
  IndexerLog,
  Indexers,
} from "../../../src/chains/indexer/index.ts";
import { startIndexers } from "../../../src/chains/indexer/index.ts";
import type { ChainConfig } from "../../../src/chains/registry.ts";
import type { Database } from "../../../src/platform/db/open.ts";
import type { DB } from "../../../src/schema.ts";
import { CHAIN_ID } from "./anvil.ts";

export function devnetChain(rpcUrl: string, extra: Partial<ChainConfig> = {}): ChainConfig {
  return {
    id: CHAIN_ID,
    name: "Test devnet",
    currency_symbol: "ETH",
    currency_decimals: 18,
    explorer_url: null,
    blockscout_url: null,
    rpc_url: rpcUrl,
    coin_image: null,
    enabled: true,
    start_block: 0,
    confirmations: 0,
    ...extra,
  };
}

export interface LogEntry {
  level: "debug" | "info" | "warn" | "error";
  msg: string;
  obj: object;
}

export class LogSink implements IndexerLog {
  readonly entries: LogEntry[] = [];
  debug(obj: object, msg: string) {
    this.entries.push({ level: "debug", msg, obj });
  }
  info(obj: object, msg: string) {
    this.entries.push({ level: "info", msg, obj });
  }
  warn(obj: object, msg: string) {
    this.entries.push({ level: "warn", msg, obj });
  }
  error(obj: object, msg: string) {
    this.entries.push({ level: "error", msg, obj });
  }
  count(level: LogEntry["level"], pattern: RegExp): number {
    return this.entries.filter((e) => e.level === level && pattern.test(e.msg)).length;
  }
}

export interface TestIndexer extends Indexers {
  log: LogSink;
  events: FollowerEvent[];
}

export function startTestIndexer(
  database: Database<DB>,
  rpcUrl: string,
  opts: { hooks?: FollowerHooks; chain?: Partial<ChainConfig>; maxBatchBlocks?: number } = {},
): TestIndexer {
  const log = new LogSink();
  const events: FollowerEvent[] = [];
  const indexers = startIndexers({
    database,
    chains: [devnetChain(rpcUrl, opts.chain)],
    log,
    tuning: { pollIntervalMs: 20, lockRetryMs: 100, maxBatchBlocks: opts.maxBatchBlocks ?? 100 },
    backoff: { initialMs: 20, maxMs: 250 },
    hooks: {
      ...opts.hooks,
      onEvent(event) {
        events.push(event);
        opts.hooks?.onEvent?.(event);
      },
    },
  });
  return Object.assign(indexers, { log, events });
}

export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function checkpointOf(db: Kysely<DB>, chainId = CHAIN_ID) {
  const row = await db
    .selectFrom("indexer_checkpoints")
    .select(["block_number", "block_hash"])
    .where("chain_id", "=", chainId)
    .executeTakeFirst();
  return row ? { number: BigInt(row.block_number), hash: row.block_hash } : undefined;
}

/** Waits until the checkpoint is the node's block `number` (same hash). */
export async function waitIndexed(
  db: Kysely<DB>,
  node: { rpc<T>(method: string, params?: unknown[]): Promise<T> },
  number: bigint,
  timeoutMs = 30_000,
) {
  const block = await node.rpc<{ hash: string }>("eth_getBlockByNumber", [`0x${number.toString(16)}`, false]);
  await until(
    `block ${number} to be indexed`,
    async () => (await checkpointOf(db))?.hash === block.hash.toLowerCase(),
    timeoutMs,
  );
}

/**
 * A fetch for JsonRpcClient that passes calls on to the node, except that it answers eth_chainId with `chainId`
 * (so a second index of the same anvil lands under another chain id) and "method not found" to the methods in
 * `refuse`. `asked` counts the calls by method.
 */
export function nodeProxy(chainId: number, opts: { refuse?: string[] } = {}) {
  const asked = new Map<string, number>();
  const refuse = new Set(opts.refuse ?? []);
  type Call = { id: number; method: string };
  const proxy: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body)) as Call[] | Call;
    const calls = Array.isArray(body) ? body : [body];
    for (const c of calls) asked.set(c.method, (asked.get(c.method) ?? 0) + 1);
    const forwarded = calls.filter((c) => !refuse.has(c.method) && c.method !== "eth_chainId");
    const answers = forwarded.length
      ? ((await (await fetch(input, { ...init, body: JSON.stringify(forwarded) })).json()) as Call[])
      : [];
    const byId = new Map(answers.map((a) => [a.id, a]));
    const merged = calls.map((c) =>
      c.method === "eth_chainId"
        ? { jsonrpc: "2.0", id: c.id, result: `0x${chainId.toString(16)}` }
        : refuse.has(c.method)
          ? { jsonrpc: "2.0", id: c.id, error: { code: -32601, message: "Method not found" } }
          : byId.get(c.id),
    );
    return new Response(JSON.stringify(Array.isArray(body) ? merged : merged[0]));
  };
  return { fetch: proxy, asked };
}
