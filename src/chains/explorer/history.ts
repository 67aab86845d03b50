// ExplorerHistory.ensureCovered: the risk engine's entry point. Makes sure the store holds an address's transfers
// in a date window, fetching them from the chain's explorer only when the store's record of earlier fetches
// (explorer_fetches) does not already cover the window, and gives the record the store then holds (the verdict's
// coverage rests on it). Concurrent calls for one address in this process share one fetch. The fetch record is
// written only after every page is stored. ensureHistory does the same and also counts the transfers held.
import type { Kysely } from "kysely";
import { countTransfers, type FetchRecord, readFetch } from "../../ledger/index.ts";
import type { DB } from "../../schema.ts";
import { type BitcoinNetwork, codecOfKind, normalizeEvmAddress } from "../address/index.ts";
import type { ChainConfig, ChainRegistry } from "../registry.ts";
import { blockscoutLists } from "./blockscout.ts";
import { DEFAULT_OPTIONS, type ExplorerOptions, type ExplorerSource, explorerSource } from "./config.ts";
import { coverageAfter, type HistoryWindow, planFetch } from "./coverage.ts";
import { describeHistorySources } from "./describe.ts";
import { ExplorerError } from "./errors.ts";
import { esploraLists } from "./esplora.ts";
import { etherscanLists } from "./etherscan.ts";
import { fetchLists } from "./fetch-lists.ts";
import { getJson } from "./http.ts";
import { processRateLimiters } from "./rate-limiter.ts";
import { storePage, writeFetch } from "./store.ts";
import { trongridLists } from "./trongrid.ts";
import type { ExplorerGet, HistoryList, HistoryPage } from "./types.ts";

export interface EnsureHistoryResult {
  /** The explorer was called (false: the store already covered the window). */
  fetched: boolean;
  /** Transfers of the address in the store within the window, after the call. */
  transfers: number;
  /** The explorer had more than the caps allow: the window's oldest part may be missing. */
  truncated: boolean;
}

export interface EnsureCoveredResult {
  /** The explorer was called (false: the store already covered the window). */
  fetched: boolean;
  /** The explorer had more than the caps allow: the window's oldest part may be missing. */
  truncated: boolean;
  /** The record of the address's last finished fetch, as the store holds it after the call. */
  record: FetchRecord;
}

/**
 * A Bitcoin page's CoinJoin labels and cluster evidence, of the transactions whose transfers are stored (those in
 * the window): nothing is inferred from a transaction the store does not hold.
 */
function inWindow(page: HistoryPage, transfers: readonly { txHash: string }[]): HistoryPage {
  if (!page.utxo && !page.mixers) return page;
  const held = new Set(transfers.map((t) => t.txHash));
  return {
    ...page,
    utxo: (page.utxo ?? []).filter((tx) => held.has(tx.txid)),
    mixers: (page.mixers ?? []).filter((m) => held.has(m.address.slice("coinjoin:".length))),
  };
}

export type ChainLookup = Pick<ChainRegistry, "get"> | ((chainId: number) => ChainConfig | undefined);

export class ExplorerHistory {
  readonly #options: ExplorerOptions;
  readonly #inFlight = new Map<string, Promise<unknown>>();
  readonly #lookup: (chainId: number) => ChainConfig | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    chains: ChainLookup,
    options: Partial<ExplorerOptions> = {},
  ) {
    this.#options = { ...DEFAULT_OPTIONS, ...options };
    this.#lookup = typeof chains === "function" ? chains : (id) => chains.get(id);
  }

  /** Whether the chain is enabled and has an explorer to fetch histories from: exactly when ensureHistory asks one. */
  hasExplorer(chainId: number): boolean {
    return this.source(chainId) !== undefined;
  }

  /** The start's line about histories: which of these chains ask which explorer host (describe.ts). */
  describeSources(chains: readonly ChainConfig[]): string {
    const publicExplorers = this.#options.publicExplorers;
    return describeHistorySources(chains, (chain) => explorerSource(chain, publicExplorers), publicExplorers);
  }

  /** The explorer the chain's histories come from (config.ts explorerSource), or undefined. */
  source(chainId: number): ExplorerSource | undefined {
    const chain = this.#lookup(chainId);
    return chain && explorerSource(chain, this.#options.publicExplorers);
  }

  /** ensureCovered, and the transfers of the address the store then holds within the window. */
  async ensureHistory(
    chainId: number,
    address: string,
    window: HistoryWindow = {},
    signal?: AbortSignal,
  ): Promise<EnsureHistoryResult> {
    const { fetched, truncated, record } = await this.ensureCovered(chainId, address, window, signal);
    return {
      fetched,
      transfers: await countTransfers(this.db, chainId, record.address, window),
      truncated,
    };
  }

  async ensureCovered(
    chainId: number,
    address: string,
    window: HistoryWindow = {},
    signal?: AbortSignal,
  ): Promise<EnsureCoveredResult> {
    const chain = this.#lookup(chainId);
    if (!chain) throw new ExplorerError("not_configured", `chain ${chainId} is unknown or disabled`);
    const source = explorerSource(chain, this.#options.publicExplorers);
    if (!source) {
      const off =
        !this.#options.publicExplorers && chain.explorer_api_url === undefined && chain.blockscout_url;
      const why = off ? " (its blockscout_url is not asked: public explorers are off)" : "";
      throw new ExplorerError("not_configured", `chain ${chainId} has no explorer API configured${why}`);
    }
    // The stored form of the chain's addresses (a Tron chain's are stored in the 0x form).
    const parsed =
      chain.kind === "bitcoin"
        ? codecOfKind(chain.kind, chain.bitcoin_network).parse(address)
        : { address: normalizeEvmAddress(address) };
    const normalized = "address" in parsed ? parsed.address : undefined;
    if (!normalized) {
      const why = "error" in parsed ? parsed.error : "is not an EVM address";
      throw new ExplorerError("invalid_request", `${JSON.stringify(address)} ${why}`);
    }
    for (const bound of [window.from, window.to]) {
      if (bound !== undefined && !(bound instanceof Date && Number.isFinite(bound.getTime()))) {
        throw new ExplorerError("invalid_request", "the window's bounds must be valid dates");
      }
    }
    if (window.from && window.to && window.from.getTime() > window.to.getTime()) {
      throw new ExplorerError("invalid_request", "the window's start is after its end");
    }
    const key = `${chainId}:${normalized}`;
    for (let running = this.#inFlight.get(key); running; running = this.#inFlight.get(key)) {
      await running.catch(() => undefined);
    }
    const work = this.#ensure(chainId, normalized, source, window, signal);
    this.#inFlight.set(key, work);
    try {
      return await work;
    } finally {
      if (this.#inFlight.get(key) === work) this.#inFlight.delete(key);
    }
  }

  async #ensure(
    chainId: number,
    address: string,
    source: ExplorerSource,
    window: HistoryWindow,
    signal: AbortSignal | undefined,
  ): Promise<EnsureCoveredResult> {
    const o = this.#options;
    const stored = await readFetch(this.db, chainId, address, o.coalescing);
    const plan = planFetch(stored, window, {
      now: o.now(),
      freshnessMs: o.freshnessMs,
      refreshOverlapMs: o.refreshOverlapMs,
    });
    // A hit is always of a stored record (planFetch).
    if (plan.hit) return { fetched: false, truncated: plan.truncated, record: stored as FetchRecord };
    const startedAt = new Date(o.now());
    const result = await fetchLists(
      this.#lists(source, address, signal, this.#lookup(chainId)?.bitcoin_network),
      plan.window,
      o,
      (page, transfers) => storePage(this.db, chainId, inWindow(page, transfers), transfers),
      startedAt,
      signal,
    );
    const coverage = coverageAfter(plan, result);
    const record: FetchRecord = {
      chainId,
      address,
      fetchedAt: startedAt,
      transferCount: result.delivered,
      ...coverage,
      source: `${source.kind} ${source.baseUrl.host}`,
    };
    await writeFetch(this.db, record);
    const complete =
      coverage.coveredFrom === null || (window.from !== undefined && window.from >= coverage.coveredFrom);
    return { fetched: true, truncated: coverage.truncated && !complete, record };
  }

  #lists(
    source: ExplorerSource,
    address: string,
    signal: AbortSignal | undefined,
    network: BitcoinNetwork | undefined,
  ): HistoryList[] {
    const o = this.#options;
    const bucket = (o.rateLimiters ?? processRateLimiters).for(
      source.baseUrl.host,
      source.ratePerSecond,
      o.burst,
    );
    const get: ExplorerGet = (url, options = {}) =>
      getJson(url, bucket, o, { ...options, signal: options.signal ?? signal });
    if (source.kind === "trongrid") return trongridLists(source, address, get);
    if (source.kind === "esplora") return esploraLists(source, address, get, network ?? "mainnet");
    return source.kind === "blockscout"
      ? blockscoutLists(source, address, get)
      : etherscanLists(source, address, get, o);
  }
}
