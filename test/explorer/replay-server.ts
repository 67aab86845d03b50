// The replay explorer's server (run in a worker thread by replay-explorer.ts, so that arrival times are not skewed by
// the test thread's database work): a node:http server on 127.0.0.1 that replays address histories in the JSON shapes of
// Blockscout API v2 (`/api/v2/addresses/{hash}/transactions`, `/token-transfers`: items + next_page_params, 50 a
// page, EIP-55 addresses, AddressParam objects) and of the Etherscan-compatible account API (`/api?module=account&
// action=txlist|tokentx`: status/message/result, page/offset/sort/startblock/endblock, the 10,000 result window).
// It logs every request with its arrival time, and faults can be injected: an HTTP status (500, 429 with
// Retry-After, ...), invalid JSON, a delay, a redirect, an oversized body, Etherscan's HTTP-200 rate limit.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { getAddress } from "viem";
import type { History, HistoryTokenTransfer, HistoryTx, Token } from "./history-data.ts";

export type Fault =
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: string }
  | { kind: "invalid-json" }
  | { kind: "delay"; ms: number }
  | { kind: "redirect"; location: string }
  | { kind: "huge"; bytes: number }
  | { kind: "etherscan-rate-limit"; result?: string };

export interface LoggedRequest {
  /** Arrival time in ms (epoch, sub-millisecond precision), on the server's thread. */
  at: number;
  path: string;
  /** The query string, without "?" */
  query: string;
  status: number;
}

/** Which requests a fault applies to: all of them, or those with this path ending / query parameter. */
export interface FaultMatch {
  pathEndsWith?: string;
  hasParam?: string;
}

const matches = (m: FaultMatch, path: string, query: URLSearchParams) =>
  (!m.pathEndsWith || path.endsWith(m.pathEndsWith)) && (!m.hasParam || query.has(m.hasParam));

const BLOCKSCOUT_PAGE = 50;

export class ReplayServer {
  readonly requests: LoggedRequest[] = [];
  readonly histories = new Map<string, History>();
  /** Etherscan's limit on page × offset (10,000 there). */
  resultWindow = 10_000;
  /** Render Blockscout's older field names (`block`, `tx_hash`, `token.address`). */
  legacyFields = false;
  #faults: { fault: Fault; times: number; match: FaultMatch }[] = [];
  #server: http.Server;
  #port = 0;
  readonly #timers = new Set<NodeJS.Timeout>();

  private constructor(histories: History[]) {
    for (const h of histories) this.histories.set(h.address, h);
    this.#server = http.createServer((req, res) => this.#handle(req, res));
  }

  static async start(...histories: History[]): Promise<ReplayServer> {
    const explorer = new ReplayServer(histories);
    await new Promise<void>((resolve) => explorer.#server.listen(0, "127.0.0.1", resolve));
    explorer.#port = (explorer.#server.address() as AddressInfo).port;
    return explorer;
  }

  /** The instance root, as a chain's `blockscout_url` / Blockscout `explorer_api_url`. */
  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** The Etherscan-compatible endpoint, as an "etherscan" `explorer_api_url`. */
  get etherscanUrl(): string {
    return `${this.url}/api`;
  }

  /** The next `times` requests that `match` get `fault` instead of (or, for a delay, before) their answer. */
  inject(fault: Fault, times = 1, match: FaultMatch = {}): void {
    this.#faults.push({ fault, times, match });
  }

  clearLog(): void {
    this.requests.length = 0;
  }

  clearFaults(): void {
    this.#faults = [];
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const at = performance.timeOrigin + performance.now();
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const entry: LoggedRequest = { at, path: url.pathname, query: url.searchParams.toString(), status: 0 };
    this.requests.push(entry);
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      entry.status = status;
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers }).end(body);
    };
    const faultIndex = this.#faults.findIndex(
      (f) => f.times > 0 && matches(f.match, url.pathname, url.searchParams),
    );
    const fault = faultIndex >= 0 ? this.#faults[faultIndex]! : undefined;
    if (fault) fault.times -= 1;
    const answer = () => this.#answer(url, send);
    switch (fault?.fault.kind) {
      case undefined:
        return answer();
      case "status": {
        const f = fault.fault as Extract<Fault, { kind: "status" }>;
        return send(f.status, f.body ?? JSON.stringify({ message: http.STATUS_CODES[f.status] }), f.headers);
      }
      case "invalid-json":
        return send(200, '{"items": [{"hash": "0x12", "block_number": 21499990, "timestamp": "2025-01-');
      case "delay": {
        const timer = setTimeout(
          () => {
            this.#timers.delete(timer);
            answer();
          },
          (fault.fault as { ms: number }).ms,
        );
        this.#timers.add(timer);
        return;
      }
      case "redirect":
        entry.status = 301;
        res.writeHead(301, { location: (fault.fault as { location: string }).location }).end();
        return;
      case "huge": {
        const bytes = (fault.fault as { bytes: number }).bytes;
        entry.status = 200;
        // No content-length: the client must count while reading.
        res.writeHead(200, { "content-type": "application/json", "transfer-encoding": "chunked" });
        res.end(`{"items": [${'"x",'.repeat(Math.ceil(bytes / 4))}"x"], "next_page_params": null}`);
        return;
      }
      case "etherscan-rate-limit": {
        const result =
          (fault.fault as { result?: string }).result ?? "Max calls per sec rate limit reached (5/sec)";
        return send(200, JSON.stringify({ status: "0", message: "NOTOK", result }));
      }
    }
  }

  #answer(url: URL, send: (status: number, body: string) => void) {
    const v2 = /^\/api\/v2\/addresses\/(0x[0-9a-fA-F]{40})\/(transactions|token-transfers)$/.exec(
      url.pathname,
    );
    if (v2) {
      const history = this.histories.get(v2[1]!.toLowerCase());
      if (!history) return send(404, JSON.stringify({ message: "Not found" }));
      const body =
        v2[2] === "transactions"
          ? this.#blockscoutTransactions(history, url.searchParams)
          : this.#blockscoutTokenTransfers(history, url.searchParams);
      return send(200, JSON.stringify(body));
    }
    if (url.pathname === "/api" && url.searchParams.get("module") === "account") {
      return send(200, JSON.stringify(this.#etherscan(url.searchParams)));
    }
    send(404, "<html><body><h1>404</h1>Page not found</body></html>");
  }

  // --- Blockscout API v2 ---

  #blockscoutTransactions(history: History, q: URLSearchParams) {
    const cursor = q.has("block_number") ? [Number(q.get("block_number")), Number(q.get("index"))] : null;
    const pending = cursor ? [] : history.txs.filter((t) => t.block === null);
    const mined = history.txs.filter(
      (t) => t.block !== null && (!cursor || before([t.block, t.position], cursor)),
    );
    const page = [...pending, ...mined].slice(0, BLOCKSCOUT_PAGE);
    const last = page.at(-1);
    const more = mined.length + pending.length > page.length && last?.block != null;
    return {
      items: page.map((tx) => this.#blockscoutTx(tx)),
      next_page_params: more
        ? { block_number: last!.block, index: last!.position, items_count: BLOCKSCOUT_PAGE }
        : null,
    };
  }

  #blockscoutTokenTransfers(history: History, q: URLSearchParams) {
    const types = q.get("type")?.split(",");
    const cursor = q.has("block_number") ? [Number(q.get("block_number")), Number(q.get("index"))] : null;
    const all = history.transfers.filter(
      (t) => (!types || types.includes(t.token.type)) && (!cursor || before([t.block, t.logIndex], cursor)),
    );
    const page = all.slice(0, BLOCKSCOUT_PAGE);
    const last = page.at(-1);
    return {
      items: page.map((t) => this.#blockscoutTokenTransfer(t)),
      next_page_params:
        all.length > page.length && last
          ? { block_number: last.block, index: last.logIndex, items_count: BLOCKSCOUT_PAGE }
          : null,
    };
  }

  #blockscoutTx(tx: HistoryTx) {
    const pending = tx.block === null;
    const gasUsed = tx.input === "0x" ? 21_000 : 51_234;
    return {
      actions: [],
      base_fee_per_gas: pending ? null : "7235117424",
      [this.legacyFields ? "block" : "block_number"]: tx.block,
      confirmation_duration: pending ? [] : [0, 12000],
      confirmations: pending ? 0 : 21_500_100 - tx.block!,
      created_contract: tx.created ? addressParam(tx.created, true) : null,
      decoded_input: null,
      exchange_rate: "3301.47",
      fee: { type: pending ? "maximum" : "actual", value: String(gasUsed * 7_735_117_424) },
      from: addressParam(tx.from, false),
      gas_limit: String(gasUsed + 10_000),
      gas_price: "7735117424",
      gas_used: pending ? null : String(gasUsed),
      has_error_in_internal_transactions: false,
      hash: tx.hash,
      max_fee_per_gas: "9000000000",
      max_priority_fee_per_gas: "500000000",
      method: tx.input === "0x" ? null : "transfer",
      nonce: tx.nonce,
      position: pending ? null : tx.position,
      priority_fee: pending ? null : String(gasUsed * 500_000_000),
      raw_input: tx.input,
      result: tx.status === "ok" ? "success" : tx.status === "error" ? "Reverted" : "pending",
      revert_reason: tx.status === "error" ? { raw: "0x" } : null,
      status: tx.status === "pending" ? null : tx.status,
      timestamp: pending ? null : new Date(tx.time * 1000).toISOString().replace(".000Z", ".000000Z"),
      to: tx.to ? addressParam(tx.to, tx.toIsContract) : null,
      token_transfers: null,
      token_transfers_overflow: null,
      transaction_burnt_fee: pending ? null : String(gasUsed * 7_235_117_424),
      transaction_tag: null,
      transaction_types: tx.created
        ? ["contract_creation"]
        : tx.input === "0x"
          ? ["coin_transfer"]
          : ["contract_call"],
      type: 2,
      value: tx.value.toString(),
    };
  }

  #blockscoutTokenTransfer(t: HistoryTokenTransfer) {
    const token = blockscoutToken(t.token, this.legacyFields);
    return {
      block_hash: `0x${t.block.toString(16).padStart(64, "b")}`,
      [this.legacyFields ? "block" : "block_number"]: t.block,
      from: addressParam(t.from, false),
      log_index: t.logIndex,
      method: "transfer",
      timestamp: new Date(t.time * 1000).toISOString().replace(".000Z", ".000000Z"),
      to: addressParam(t.to, false),
      token,
      token_type: t.token.type,
      total:
        t.token.type === "ERC-20"
          ? {
              decimals: t.token.decimals === null ? null : String(t.token.decimals),
              value: t.value.toString(),
            }
          : { token_id: t.value.toString(), token_instance: null },
      [this.legacyFields ? "tx_hash" : "transaction_hash"]: t.txHash,
      type: "token_transfer",
    };
  }

  // --- Etherscan-compatible account API ---

  #etherscan(q: URLSearchParams) {
    const action = q.get("action");
    const address = (q.get("address") ?? "").toLowerCase();
    const page = Number(q.get("page") ?? "1");
    const offset = Number(q.get("offset") ?? "10000");
    if (page * offset > this.resultWindow) {
      return {
        status: "0",
        message: "NOTOK",
        result: `Result window is too large, PageNo x Offset size must be less than or equal to ${this.resultWindow}`,
      };
    }
    const start = Number(q.get("startblock") ?? "0");
    const end = Number(q.get("endblock") ?? "99999999");
    const asc = q.get("sort") === "asc";
    const history = this.histories.get(address);
    let rows: Record<string, string>[];
    if (action === "txlist") {
      const txs = (history?.txs ?? []).filter((t) => t.block !== null && t.block >= start && t.block <= end);
      if (asc) txs.reverse();
      rows = txs.slice((page - 1) * offset, page * offset).map(etherscanTx);
    } else if (action === "tokentx") {
      const transfers = (history?.transfers ?? []).filter(
        (t) => t.token.type === "ERC-20" && t.block >= start && t.block <= end,
      );
      if (asc) transfers.reverse();
      rows = transfers.slice((page - 1) * offset, page * offset).map(etherscanTokenTx);
    } else {
      return { status: "0", message: "NOTOK", result: "Error! Missing Or invalid Action name" };
    }
    if (rows.length === 0) {
      return {
        status: "0",
        message: action === "txlist" ? "No transactions found" : "No token transfers found",
        result: [],
      };
    }
    return { status: "1", message: "OK", result: rows };
  }
}

/** (block, index) comes after `cursor` in newest-first order. */
function before(key: number[], cursor: number[]): boolean {
  return key[0]! < cursor[0]! || (key[0] === cursor[0] && key[1]! < cursor[1]!);
}

function addressParam(address: string, isContract: boolean) {
  return {
    ens_domain_name: null,
    hash: getAddress(address),
    implementations: [],
    is_contract: isContract,
    is_scam: false,
    is_verified: isContract,
    metadata: null,
    name: isContract ? "SomeContract" : null,
    private_tags: [],
    proxy_type: isContract ? "unknown" : null,
    public_tags: [],
    watchlist_names: [],
  };
}

function blockscoutToken(token: Token, legacy: boolean) {
  return {
    [legacy ? "address" : "address_hash"]: getAddress(token.address),
    circulating_market_cap: null,
    decimals: token.decimals === null ? null : String(token.decimals),
    exchange_rate: token.symbol === "USDC" ? "1.0001" : null,
    holders_count: "1532",
    icon_url: null,
    name: token.name,
    symbol: token.symbol,
    total_supply: "1000000000000000",
    type: token.type,
    volume_24h: null,
  };
}

function etherscanTx(tx: HistoryTx): Record<string, string> {
  const failed = tx.status === "error";
  return {
    blockNumber: String(tx.block),
    timeStamp: String(tx.time),
    hash: tx.hash,
    nonce: String(tx.nonce),
    blockHash: `0x${tx.block!.toString(16).padStart(64, "b")}`,
    transactionIndex: String(tx.position),
    from: tx.from,
    to: tx.to ?? "",
    value: tx.value.toString(),
    gas: "31000",
    gasPrice: "7735117424",
    isError: failed ? "1" : "0",
    txreceipt_status: failed ? "0" : "1",
    input: tx.input,
    contractAddress: tx.created ?? "",
    cumulativeGasUsed: "11803322",
    gasUsed: "21000",
    confirmations: String(21_500_100 - tx.block!),
    methodId: tx.input === "0x" ? "0x" : tx.input.slice(0, 10),
    functionName: tx.input === "0x" ? "" : "transfer(address _to, uint256 _value)",
  };
}

function etherscanTokenTx(t: HistoryTokenTransfer): Record<string, string> {
  return {
    blockNumber: String(t.block),
    timeStamp: String(t.time),
    hash: t.txHash,
    nonce: "12",
    blockHash: `0x${t.block.toString(16).padStart(64, "b")}`,
    from: t.from,
    contractAddress: t.token.address,
    to: t.to,
    value: t.value.toString(),
    tokenName: t.token.name ?? "",
    tokenSymbol: t.token.symbol ?? "",
    tokenDecimal: t.token.decimals === null ? "" : String(t.token.decimals),
    transactionIndex: "81",
    gas: "90000",
    gasPrice: "7735117424",
    gasUsed: "52211",
    cumulativeGasUsed: "15000000",
    input: "deprecated",
    methodId: "0xa9059cbb",
    functionName: "transfer(address _to, uint256 _value)",
    confirmations: String(21_500_100 - t.block),
    logIndex: String(t.logIndex),
  };
}
