// TronGrid's account API (Tron chains, explorer_api_kind "trongrid"): GET {base}/v1/accounts/{address}/transactions
// (TRX moved by TransferContract transactions) and …/transactions/trc20 (TRC-20 transfers), newest first, 200 items a
// page, the next page asked with the previous answer's `meta.fingerprint`. Addresses come as base58 (`T…`) or as
// hex with the 41 prefix and are stored in the JSON-RPC form (0x + 40 hex). The key, when set, travels in the
// TRON-PRO-API-KEY header; TronGrid throttles with 429, 403 and 503, all waited out like a 429.
//
// Only TransferContract values are TRX transfers: a TriggerSmartContract's call_value, a TRC-10 TransferAssetContract,
// freezes and votes are not recorded from this list (a TRC-10 amount is not TRX). A TRC-20 item names neither its
// block nor its log index, which the store keys transfers by (the indexer's key: the log's index in its block, as
// Tron's /jsonrpc counts it); both are read from the node API TronGrid also serves: /wallet/gettransactioninfobyid
// for the transaction's block, then /wallet/gettransactioninfobyblocknum for the logs of the block, counted the way
// java-tron's JSON-RPC counts them (the logs of the earlier transactions of the block, then the transaction's own).
import { NATIVE_TOKEN, parseTronAddress, tronBase58 } from "../address/index.ts";
import type { ExplorerSource } from "./config.ts";
import { ExplorerError, redactUrl } from "./errors.ts";
import type { GetJsonOptions } from "./http.ts";
import { decimals, ItemReader, text } from "./parse.ts";
import type { ExplorerGet, ExplorerToken, HistoryList, HistoryPage, ListedItem } from "./types.ts";

/** TronGrid's largest page. */
export const TRONGRID_PAGE_SIZE = 200;
const THROTTLE_STATUSES = [403, 503];
const TRANSFER_TOPIC = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

export function trongridLists(source: ExplorerSource, address: string, get: ExplorerGet): HistoryList[] {
  const root = source.baseUrl.href.replace(/\/+$/, "");
  const account = tronBase58(address);
  const headers: Record<string, string> = source.apiKey ? { "TRON-PRO-API-KEY": source.apiKey } : {};
  const ask = (url: URL, signal?: AbortSignal, extra: GetJsonOptions = {}) =>
    get(url, { ...extra, signal, headers, throttleStatuses: THROTTLE_STATUSES });
  const endpoint = (path: string, fixed: Record<string, string>) => {
    const url = new URL(`${root}/v1/accounts/${account}/${path}`);
    for (const [key, value] of Object.entries({
      only_confirmed: "true",
      limit: String(TRONGRID_PAGE_SIZE),
      ...fixed,
    }))
      url.searchParams.set(key, value);
    return url;
  };
  return [
    list("transactions", endpoint("transactions", { search_internal: "false" }), ask, async (rows, where) =>
      parseTransactions(rows, where),
    ),
    list("token transfers", endpoint("transactions/trc20", {}), ask, (rows, where, signal) =>
      parseTrc20(rows, where, new LogKeys(root, ask, signal)),
    ),
  ];
}

type Ask = (url: URL, signal?: AbortSignal, extra?: GetJsonOptions) => ReturnType<ExplorerGet>;
type PageParser = (
  rows: unknown[],
  where: string,
  signal?: AbortSignal,
) => Promise<Omit<HistoryPage, "more">>;

function list(name: string, first: URL, ask: Ask, parse: PageParser): HistoryList {
  return {
    name,
    async *pages(signal) {
      let url: URL | null = first;
      for (let page = 1; url; page += 1) {
        const where = `explorer ${redactUrl(url)}: ${name} page ${page}`;
        const response = await ask(url, signal);
        const body = ItemReader.object(response.body, where);
        if (body.success === false || !Array.isArray(body.data)) {
          const said = typeof body.error === "string" ? body.error : "no data";
          throw new ExplorerError("explorer_error", `${where}: explorer said ${said}`);
        }
        const parsed = await parse(body.data, where, signal);
        const meta = (body.meta ?? {}) as { fingerprint?: unknown };
        // The last page carries no fingerprint; an empty page ends the list whatever it carries.
        const fingerprint =
          typeof meta.fingerprint === "string" && meta.fingerprint && body.data.length > 0
            ? meta.fingerprint
            : null;
        let next: URL | null = null;
        if (fingerprint) {
          next = new URL(first);
          next.searchParams.set("fingerprint", fingerprint);
        }
        yield { ...parsed, more: next !== null };
        url = next;
      }
    },
  };
}

/** An address as TronGrid writes it (base58, or hex with 41), in the stored form. */
function tronAddress(r: ItemReader, value: unknown, field: string): string {
  if (typeof value !== "string") return r.fail(field, "is not a Tron address");
  const parsed = parseTronAddress(value);
  if ("error" in parsed) return r.fail(field, parsed.error);
  return parsed.address;
}

/** TronGrid's times are milliseconds. */
function millis(r: ItemReader, value: unknown, field: string): Date {
  const ms = r.uint(value, field);
  return new Date(Number(ms));
}

function txHash(r: ItemReader, value: unknown, field: string): string {
  if (typeof value !== "string" || !/^(0x)?[0-9a-fA-F]{64}$/.test(value))
    r.fail(field, "is not a transaction id");
  return `0x${(value as string).replace(/^0x/, "").toLowerCase()}`;
}

async function parseTransactions(rows: unknown[], where: string): Promise<Omit<HistoryPage, "more">> {
  const listed: ListedItem[] = [];
  const contracts = new Set<string>();
  rows.forEach((raw, index) => {
    const at = `${where}: item ${index}`;
    const r = new ItemReader(at, ItemReader.object(raw, at));
    const blockTime = millis(r, r.item.block_timestamp, "block_timestamp");
    const contract = (r.item.raw_data as { contract?: unknown[] } | undefined)?.contract?.[0] as
      | { type?: unknown; parameter?: { value?: Record<string, unknown> } }
      | undefined;
    const value = contract?.parameter?.value ?? {};
    if (contract?.type === "TriggerSmartContract" && typeof value.contract_address === "string") {
      contracts.add(
        tronAddress(r, value.contract_address, "raw_data.contract[0].parameter.value.contract_address"),
      );
    }
    const result = (r.item.ret as { contractRet?: unknown }[] | undefined)?.[0]?.contractRet;
    if (contract?.type !== "TransferContract" || (result !== undefined && result !== "SUCCESS")) {
      listed.push({ blockTime, transfer: null });
      return;
    }
    const amount = r.uint(value.amount, "raw_data.contract[0].parameter.value.amount");
    listed.push({
      blockTime,
      transfer:
        amount > 0n
          ? {
              txHash: txHash(r, r.item.txID, "txID"),
              logIndex: -1,
              blockNumber: r.uint(r.item.blockNumber, "blockNumber"),
              blockTime,
              from: tronAddress(r, value.owner_address, "owner_address"),
              to: tronAddress(r, value.to_address, "to_address"),
              token: NATIVE_TOKEN,
              value: amount,
            }
          : null,
    });
  });
  return { items: listed, tokens: [], contracts: [...contracts] };
}

async function parseTrc20(rows: unknown[], where: string, keys: LogKeys): Promise<Omit<HistoryPage, "more">> {
  const listed: ListedItem[] = [];
  const tokens = new Map<string, ExplorerToken>();
  for (const [index, raw] of rows.entries()) {
    const at = `${where}: item ${index}`;
    const r = new ItemReader(at, ItemReader.object(raw, at));
    const blockTime = millis(r, r.item.block_timestamp, "block_timestamp");
    const info = ItemReader.object(r.item.token_info, `${at}: token_info`);
    if (r.item.type !== undefined && r.item.type !== "Transfer") {
      listed.push({ blockTime, transfer: null }); // approvals and the like
      continue;
    }
    const token = tronAddress(r, info.address, "token_info.address");
    tokens.set(token, {
      address: token,
      symbol: text(info.symbol),
      name: text(info.name),
      decimals: decimals(info.decimals),
    });
    const hash = txHash(r, r.item.transaction_id, "transaction_id");
    const from = tronAddress(r, r.item.from, "from");
    const to = tronAddress(r, r.item.to, "to");
    const value = r.uint(r.item.value, "value");
    const key = await keys.keyOf(hash, token, from, to, value, at);
    listed.push({
      blockTime,
      transfer: {
        txHash: hash,
        logIndex: key.logIndex,
        blockNumber: key.blockNumber,
        blockTime,
        from,
        to,
        token,
        value,
      },
    });
  }
  return { items: listed, tokens: [...tokens.values()], contracts: [...tokens.keys()] };
}

interface NodeLog {
  address?: string;
  topics?: string[];
  data?: string;
}
interface NodeTxInfo {
  id?: string;
  blockNumber?: number;
  log?: NodeLog[];
}

const hex20 = (value: string | undefined) =>
  (value ?? "").toLowerCase().replace(/^(0x)?(41)?(?=[0-9a-f]{40}$)/, "");

/**
 * The block and block-wide log index of TRC-20 transfers, read from the node API (one request per transaction, one
 * per block, each remembered for the list's run). A transfer the transaction's logs do not show is an error.
 */
class LogKeys {
  readonly #blocks = new Map<string, Promise<NodeTxInfo[]>>();
  readonly #blockOf = new Map<string, Promise<bigint>>();
  /** Log indexes already given, so that two equal transfers of one transaction get one log each. */
  readonly #given = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly ask: Ask,
    private readonly signal: AbortSignal | undefined,
  ) {}

  async keyOf(
    hash: string,
    token: string,
    from: string,
    to: string,
    value: bigint,
    where: string,
  ): Promise<{ blockNumber: bigint; logIndex: number }> {
    const blockNumber = await this.#block(hash, where);
    const infos = await this.#infos(blockNumber, where);
    const id = hash.slice(2);
    let offset = 0;
    for (const info of infos) {
      const logs = info.log ?? [];
      if ((info.id ?? "").toLowerCase() !== id) {
        offset += logs.length;
        continue;
      }
      for (const [i, log] of logs.entries()) {
        const topics = (log.topics ?? []).map((t) => t.toLowerCase().replace(/^0x/, ""));
        const logIndex = offset + i;
        if (
          topics.length === 3 &&
          topics[0] === TRANSFER_TOPIC &&
          `0x${hex20(log.address)}` === token &&
          `0x${(topics[1] as string).slice(24)}` === from &&
          `0x${(topics[2] as string).slice(24)}` === to &&
          BigInt(`0x${(log.data ?? "").replace(/^0x/, "") || "0"}`) === value &&
          !this.#given.has(`${hash}:${logIndex}`)
        ) {
          this.#given.add(`${hash}:${logIndex}`);
          return { blockNumber, logIndex };
        }
      }
      break;
    }
    throw new ExplorerError(
      "invalid_response",
      `${where}: block ${blockNumber} shows no Transfer log of transaction ${hash} that matches the item`,
    );
  }

  #block(hash: string, where: string): Promise<bigint> {
    let found = this.#blockOf.get(hash);
    if (!found) {
      const url = new URL(`${this.root}/wallet/gettransactioninfobyid`);
      url.searchParams.set("value", hash.slice(2));
      found = this.ask(url, this.signal).then((response) => {
        const info = response.body as NodeTxInfo | null;
        if (!info || typeof info.blockNumber !== "number") {
          throw new ExplorerError("invalid_response", `${where}: the node does not know transaction ${hash}`);
        }
        return BigInt(info.blockNumber);
      });
      found.catch(() => {});
      this.#blockOf.set(hash, found);
    }
    return found;
  }

  #infos(block: bigint, where: string): Promise<NodeTxInfo[]> {
    const key = block.toString();
    let found = this.#blocks.get(key);
    if (!found) {
      const url = new URL(`${this.root}/wallet/gettransactioninfobyblocknum`);
      url.searchParams.set("num", key);
      found = this.ask(url, this.signal).then((response) => {
        if (!Array.isArray(response.body)) {
          throw new ExplorerError("invalid_response", `${where}: no transaction infos for block ${block}`);
        }
        return response.body as NodeTxInfo[];
      });
      found.catch(() => {});
      this.#blocks.set(key, found);
    }
    return found;
  }
}
