// Blockscout API v2: GET /api/v2/addresses/{hash}/transactions and /token-transfers?type=ERC-20, newest first,
// 50 items a page, the next page asked with the previous answer's `next_page_params` (null on the last page).
// Field names changed over Blockscout versions (`block` → `block_number`, `tx_hash` → `transaction_hash`,
// `token.address` → `token.address_hash`); both are read. A 404 {"message": "Not found"} (an address the
// instance never saw, on older versions) is an empty history.
import { NATIVE_TOKEN } from "../address/index.ts";
import type { ExplorerSource } from "./config.ts";
import { ExplorerError, redactUrl } from "./errors.ts";
import { decimals, ItemReader, text } from "./parse.ts";
import type { ExplorerGet, ExplorerToken, HistoryList, HistoryPage, ListedItem } from "./types.ts";

export function blockscoutLists(source: ExplorerSource, address: string, get: ExplorerGet): HistoryList[] {
  const root = source.baseUrl.href.replace(/\/+$/, "").replace(/\/api\/v2$/, "");
  const endpoint = (path: string, fixed: Record<string, string>) => {
    const url = new URL(`${root}/api/v2/addresses/${address}/${path}`);
    for (const [key, value] of Object.entries(fixed)) url.searchParams.set(key, value);
    if (source.apiKey) url.searchParams.set("apikey", source.apiKey);
    return url;
  };
  return [
    list("transactions", endpoint("transactions", {}), get, parseTransactionsPage),
    list("token transfers", endpoint("token-transfers", { type: "ERC-20" }), get, parseTokenTransfersPage),
  ];
}

type PageParser = (body: Record<string, unknown>, where: string) => Omit<HistoryPage, "more">;

function list(name: string, first: URL, get: ExplorerGet, parse: PageParser): HistoryList {
  return {
    name,
    async *pages(signal) {
      let url: URL | null = first;
      for (let page = 1; url; page += 1) {
        const where = `explorer ${redactUrl(url)}: ${name} page ${page}`;
        const response = await get(url, { signal, acceptStatuses: [404] });
        if (response.status === 404) {
          const message = (response.body as { message?: unknown } | null)?.message;
          if (page === 1 && typeof message === "string" && /not found/i.test(message)) {
            yield { items: [], tokens: [], contracts: [], more: false };
            return;
          }
          throw new ExplorerError("http_status", `${where}: HTTP 404`, false, 404);
        }
        const body = ItemReader.object(response.body, where);
        const parsed = parse(body, where);
        const next = nextPage(first, body.next_page_params, where);
        if (next && parsed.items.length === 0) {
          throw new ExplorerError("invalid_response", `${where}: an empty page that names a next page`);
        }
        yield { ...parsed, more: next !== null };
        url = next;
      }
    },
  };
}

/** The next page: the first request's parameters (filters, key) plus `next_page_params` verbatim. */
function nextPage(first: URL, params: unknown, where: string): URL | null {
  if (params === null || params === undefined) return null;
  const object = ItemReader.object(params, `${where}: next_page_params`);
  const url = new URL(first);
  for (const [key, value] of Object.entries(object)) {
    if (value === null || value === undefined) continue;
    if (typeof value === "object") {
      throw new ExplorerError("invalid_response", `${where}: next_page_params.${key} is not a scalar`);
    }
    url.searchParams.set(key, String(value));
  }
  return url;
}

function items(body: Record<string, unknown>, where: string): unknown[] {
  if (!Array.isArray(body.items)) throw new ExplorerError("invalid_response", `${where}: no items array`);
  return body.items;
}

function parseTransactionsPage(body: Record<string, unknown>, where: string): Omit<HistoryPage, "more"> {
  const listed: ListedItem[] = [];
  const contracts = new Set<string>();
  items(body, where).forEach((raw, index) => {
    const r = new ItemReader(`${where}: item ${index}`, ItemReader.object(raw, `${where}: item ${index}`));
    const hash = r.hash("hash");
    const block = r.pick("block_number", "block");
    if (block === null || block === undefined) {
      listed.push({ blockTime: null, transfer: null }); // pending
      return;
    }
    const blockNumber = r.uint(block, "block_number");
    const blockTime = r.time(r.item.timestamp, "timestamp");
    const from = r.address(party(r.item.from), "from.hash");
    const to = r.optionalAddress(party(r.item.to), "to.hash");
    const created = r.optionalAddress(party(r.item.created_contract), "created_contract.hash");
    for (const p of [r.item.from, r.item.to]) {
      if ((p as { is_contract?: unknown } | null)?.is_contract === true)
        contracts.add(String(party(p)).toLowerCase());
    }
    if (created) contracts.add(created);
    const value = r.uint(r.item.value, "value");
    const succeeded = r.item.status === "ok";
    const recipient = to ?? created;
    listed.push({
      blockTime,
      transfer:
        succeeded && value > 0n && recipient
          ? {
              txHash: hash,
              logIndex: -1,
              blockNumber,
              blockTime,
              from,
              to: recipient,
              token: NATIVE_TOKEN,
              value,
            }
          : null,
    });
  });
  return { items: listed, tokens: [], contracts: [...contracts] };
}

function parseTokenTransfersPage(body: Record<string, unknown>, where: string): Omit<HistoryPage, "more"> {
  const listed: ListedItem[] = [];
  const tokens = new Map<string, ExplorerToken>();
  items(body, where).forEach((raw, index) => {
    const r = new ItemReader(`${where}: item ${index}`, ItemReader.object(raw, `${where}: item ${index}`));
    const txHash = r.hash("transaction_hash", "tx_hash");
    const blockTime = r.time(r.item.timestamp, "timestamp");
    const token = ItemReader.object(r.item.token, `${where}: item ${index}: token`);
    const tokenAddress = r.address(token.address_hash ?? token.address, "token.address_hash");
    const total = r.item.total as { value?: unknown } | null | undefined;
    if (token.type !== "ERC-20" || !total || total.value === undefined) {
      listed.push({ blockTime, transfer: null }); // NFTs and the like: not value transfers in this store
      return;
    }
    tokens.set(tokenAddress, {
      address: tokenAddress,
      symbol: text(token.symbol),
      name: text(token.name),
      decimals: decimals(token.decimals),
    });
    listed.push({
      blockTime,
      transfer: {
        txHash,
        logIndex: r.smallInt(r.item.log_index, "log_index"),
        blockNumber: r.uint(r.pick("block_number", "block"), "block_number"),
        blockTime,
        from: r.address(party(r.item.from), "from.hash"),
        to: r.address(party(r.item.to), "to.hash"),
        token: tokenAddress,
        value: r.uint(total.value, "total.value"),
      },
    });
  });
  return { items: listed, tokens: [...tokens.values()], contracts: [...tokens.keys()] };
}

/** An AddressParam's hash ({hash, is_contract, name, ...}), or the value itself. */
function party(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return typeof value === "object" ? (value as { hash?: unknown }).hash : value;
}
