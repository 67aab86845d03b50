// What an explorer adapter hands the history fetcher: lists (transactions, token transfers) read page by page,
// newest first, each item reduced to the store's transfer row (or to nothing but its time, when it moves no value).
import type { UtxoTx } from "../../risk/index.ts";
import type { TokenRow, TransferRow } from "../store/transfers.ts";
import type { GetJsonOptions, JsonResponse } from "./http.ts";

export type ExplorerTransfer = Omit<TransferRow, "chainId">;
export type ExplorerToken = Omit<TokenRow, "chainId">;

export interface ListedItem {
  /** Block time; null for a pending transaction (not yet in a block). */
  blockTime: Date | null;
  /** The value it moved, in the store's keys; null for a failed transaction, a zero value, an NFT, ... */
  transfer: ExplorerTransfer | null;
}

export interface HistoryPage {
  /** In the explorer's order: newest first. */
  items: ListedItem[];
  /** Token metadata seen on this page. */
  tokens: ExplorerToken[];
  /** Addresses the explorer says are contracts (token contracts, created contracts, ...). */
  contracts: string[];
  /** Another page follows. */
  more: boolean;
  /** A Bitcoin page's CoinJoin nodes, labelled mixers (src/chains/bitcoin) */
  mixers?: { address: string; label: string }[];
  /** A Bitcoin page's transactions with inputs, for the address clusters (src/clusters) */
  utxo?: UtxoTx[];
}

export interface HistoryList {
  /** "transactions" or "token transfers": names the list in errors. */
  name: string;
  pages(signal?: AbortSignal): AsyncGenerator<HistoryPage>;
}

/** GET through the host's rate limiter, with retries (http.ts). */
export type ExplorerGet = (url: URL, options?: GetJsonOptions) => Promise<JsonResponse>;
