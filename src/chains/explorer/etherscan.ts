// Etherscan-compatible account API (Etherscan, Blockscout's /api, and their clones):
// `?module=account&action=txlist|tokentx&address=…&page=N&offset=SIZE&sort=desc`, answered as
// {status: "1" | "0", message, result}. Status "0" with an empty result is an empty list ("No transactions
// found"); with "… rate limit reached" (HTTP 200) it is a rate limit and the request is retried after a wait.
// Etherscan refuses page × offset beyond 10,000 (`resultWindow`), so past that the list continues from the oldest block reached
// (`endblock`), page 1 again, dropping the items of that block it has already seen.
import { NATIVE_TOKEN } from "../address/index.ts";
import type { ExplorerSource } from "./config.ts";
import { ExplorerError, redactUrl } from "./errors.ts";
import { decimals, ItemReader, text } from "./parse.ts";
import type {
  ExplorerGet,
  ExplorerToken,
  ExplorerTransfer,
  HistoryList,
  HistoryPage,
  ListedItem,
} from "./types.ts";

export function etherscanLists(
  source: ExplorerSource,
  address: string,
  get: ExplorerGet,
  paging: { pageSize: number; resultWindow: number },
): HistoryList[] {
  return [
    list("transactions", "txlist", source, address, get, paging),
    list("token transfers", "tokentx", source, address, get, paging),
  ];
}

/** Etherscan answers errors and rate limits with HTTP 200; this sorts them out. */
export function checkEnvelope(body: unknown, where: string): unknown[] {
  const envelope = ItemReader.object(body, where);
  const { status, message, result } = envelope;
  if (status === "1" && Array.isArray(result)) return result;
  if (status === "0" && Array.isArray(result) && result.length === 0) return result;
  const detail = typeof result === "string" ? result : "";
  const said = [message, detail].filter((s) => typeof s === "string" && s).join(": ") || "no message";
  if (status === "0" && /rate limit/i.test(detail) && !/daily/i.test(detail)) {
    throw new ExplorerError("rate_limited", `${where}: ${said}`, true, 200);
  }
  throw new ExplorerError("explorer_error", `${where}: explorer said ${said}`);
}

function list(
  name: string,
  action: "txlist" | "tokentx",
  source: ExplorerSource,
  address: string,
  get: ExplorerGet,
  { pageSize, resultWindow }: { pageSize: number; resultWindow: number },
): HistoryList {
  const offset = Math.max(1, Math.min(pageSize, resultWindow));
  return {
    name,
    async *pages(signal) {
      let page = 1;
      let endBlock: bigint | null = null;
      // Keys of the oldest block reached: the next window restarts at that block and repeats them.
      let boundary = new Set<string>();
      for (let request = 1; ; request += 1) {
        const url = new URL(source.baseUrl);
        const params: Record<string, string> = { module: "account", action, address, page: String(page) };
        Object.assign(params, { offset: String(offset), sort: "desc" });
        if (endBlock !== null) params.endblock = endBlock.toString();
        if (source.apiKey) params.apikey = source.apiKey;
        for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
        const where = `explorer ${redactUrl(url)}: ${name} request ${request}`;
        const response = await get(url, { signal, check: (body) => checkEnvelope(body, where) });
        const rows = checkEnvelope(response.body, where);
        const parsed = action === "txlist" ? parseTxlist(rows, where) : parseTokentx(rows, where);
        const full = rows.length >= offset;
        const fresh = parsed.items.filter((item) => !item.key || !boundary.has(item.key));
        const oldest = parsed.oldestBlock;
        if (full && (page + 1) * offset > resultWindow) {
          if (oldest === null || (endBlock !== null && oldest >= endBlock && fresh.length === 0)) {
            throw new ExplorerError(
              "invalid_response",
              `${where}: more than ${resultWindow} items in one block`,
            );
          }
          boundary = new Set(parsed.items.filter((i) => i.block === oldest && i.key).map((i) => i.key!));
          endBlock = oldest;
          page = 1;
        } else {
          page += 1;
        }
        yield { items: fresh, tokens: parsed.tokens, contracts: parsed.contracts, more: full };
        if (!full) return;
      }
    },
  };
}

interface ParsedItem extends ListedItem {
  key: string | null;
  block: bigint;
}

type Parsed = Omit<HistoryPage, "more" | "items"> & { items: ParsedItem[]; oldestBlock: bigint | null };

function oldest(items: ParsedItem[]): bigint | null {
  return items.reduce<bigint | null>((min, i) => (min === null || i.block < min ? i.block : min), null);
}

function parseTxlist(rows: unknown[], where: string): Parsed {
  const contracts = new Set<string>();
  const items = rows.map((raw, index): ParsedItem => {
    const r = new ItemReader(`${where}: item ${index}`, ItemReader.object(raw, `${where}: item ${index}`));
    const txHash = r.hash("hash");
    const blockNumber = r.uint(r.item.blockNumber, "blockNumber");
    const blockTime = r.time(r.item.timeStamp, "timeStamp");
    const from = r.address(r.item.from, "from");
    const to = r.optionalAddress(r.item.to, "to");
    const created = r.optionalAddress(r.item.contractAddress, "contractAddress");
    if (created) contracts.add(created);
    const value = r.uint(r.item.value, "value");
    // isError "1": reverted; txreceipt_status "0": failed ("" before Byzantium, when only isError tells).
    const succeeded = r.item.isError !== "1" && r.item.txreceipt_status !== "0";
    const recipient = to ?? created;
    const transfer: ExplorerTransfer | null =
      succeeded && value > 0n && recipient
        ? { txHash, logIndex: -1, blockNumber, blockTime, from, to: recipient, token: NATIVE_TOKEN, value }
        : null;
    return { blockTime, transfer, key: `${txHash}:-1`, block: blockNumber };
  });
  return { items, tokens: [], contracts: [...contracts], oldestBlock: oldest(items) };
}

function parseTokentx(rows: unknown[], where: string): Parsed {
  const tokens = new Map<string, ExplorerToken>();
  const items = rows.map((raw, index): ParsedItem => {
    const r = new ItemReader(`${where}: item ${index}`, ItemReader.object(raw, `${where}: item ${index}`));
    const txHash = r.hash("hash");
    const blockNumber = r.uint(r.item.blockNumber, "blockNumber");
    const blockTime = r.time(r.item.timeStamp, "timeStamp");
    const token = r.address(r.item.contractAddress, "contractAddress");
    if (r.item.logIndex === undefined) {
      r.fail("logIndex", "is missing: this API cannot key token transfers by log index as the store does");
    }
    const logIndex = r.smallInt(r.item.logIndex, "logIndex");
    tokens.set(token, {
      address: token,
      symbol: text(r.item.tokenSymbol),
      name: text(r.item.tokenName),
      decimals: decimals(r.item.tokenDecimal),
    });
    const transfer: ExplorerTransfer = {
      txHash,
      logIndex,
      blockNumber,
      blockTime,
      from: r.address(r.item.from, "from"),
      to: r.address(r.item.to, "to"),
      token,
      value: r.uint(r.item.value, "value"),
    };
    return { blockTime, transfer, key: `${txHash}:${logIndex}`, block: blockNumber };
  });
  return { items, tokens: [...tokens.values()], contracts: [...tokens.keys()], oldestBlock: oldest(items) };
}
