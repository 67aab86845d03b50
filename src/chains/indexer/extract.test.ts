// What counts as a transfer: native value of successful transactions, ERC-20 Transfer logs of the exact shape.
import { describe, expect, it } from "vitest";
import type { RpcLog, RpcTransaction } from "../rpc/evm.ts";
import { extractRange, NATIVE, TRANSFER_TOPIC } from "./extract.ts";
import type { FetchedRange, ReceiptFacts } from "./fetch-range.ts";
import { InconsistentRangeError } from "./fetch-range.ts";

const A = `0x${"a".repeat(40)}`;
const B = `0x${"b".repeat(40)}`;
const TOKEN = `0x${"c".repeat(40)}`;
const CREATED = `0x${"d".repeat(40)}`;
const topic = (address: string) => `0x${"0".repeat(24)}${address.slice(2)}`;
const word = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}`;
const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

function tx(n: number, over: Partial<RpcTransaction> = {}): RpcTransaction {
  return { hash: hash(n), from: A, to: B, value: "0x0", input: "0x", transactionIndex: "0x0", ...over };
}

function log(n: number, over: Partial<RpcLog> = {}): RpcLog {
  return {
    address: TOKEN,
    topics: [TRANSFER_TOPIC, topic(A), topic(B)],
    data: word(5n),
    blockNumber: "0x10",
    blockHash: hash(1000),
    transactionHash: hash(n),
    logIndex: `0x${n.toString(16)}`,
    ...over,
  };
}

function range(transactions: RpcTransaction[], receipts: [number, Partial<ReceiptFacts>][], logs: RpcLog[]) {
  const facts = new Map(
    receipts.map(([n, r]) => [hash(n), { status: true, contractAddress: null, gasUsed: 21_000n, ...r }]),
  );
  return {
    from: 16n,
    to: 16n,
    blocks: [
      {
        number: 16n,
        hash: hash(1000),
        parentHash: hash(999),
        timestamp: new Date(0),
        transactions,
        receipts: facts,
      },
    ],
    transferLogs: logs,
    logEmitters: new Set(logs.map((l) => l.address)),
    transactionCount: transactions.length,
  } satisfies FetchedRange;
}

describe("extractRange", () => {
  it("native value of successful transactions only, log index -1; a creation pays the created contract", () => {
    const out = extractRange(
      1,
      range(
        [
          tx(1, { value: "0x64" }),
          tx(2, { value: "0x65" }),
          tx(3),
          tx(4, { to: null, value: "0x7", input: "0x6080" }),
        ],
        [
          [1, {}],
          [2, { status: false }],
          [3, {}],
          [4, { contractAddress: CREATED, gasUsed: 90_000n }],
        ],
        [],
      ),
    );
    expect(out.transfers.map((t) => [t.txHash, t.logIndex, t.to, t.token, t.value])).toEqual([
      [hash(1), -1, B, NATIVE, 100n],
      [hash(4), -1, CREATED, NATIVE, 7n],
    ]);
    expect([...out.contracts]).toEqual([CREATED]);
  });

  it("ERC-20 Transfer logs of the exact shape; ERC-721 and malformed ones are left out", () => {
    const out = extractRange(
      1,
      range(
        [],
        [],
        [
          log(1),
          log(2, { data: word(0n) }), // zero-value: kept
          log(3, { topics: [TRANSFER_TOPIC, topic(A), topic(B), word(7n)], data: "0x" }), // ERC-721
          log(4, { topics: [TRANSFER_TOPIC, `0x${"f".repeat(64)}`, topic(B)] }), // not an address
          log(5, { data: `${word(1n)}00` }), // not 32 bytes
        ],
      ),
    );
    expect(out.transfers.map((t) => [t.logIndex, t.from, t.to, t.token, t.value])).toEqual([
      [1, A, B, TOKEN, 5n],
      [2, A, B, TOKEN, 0n],
    ]);
    expect([...out.tokens]).toEqual([TOKEN]);
  });

  it("names code candidates: calls with data or more than a plain transfer's gas, not known contracts", () => {
    const out = extractRange(
      1,
      range(
        [tx(1, { input: "0xa9059cbb" }), tx(2, { to: TOKEN, input: "0x" }), tx(3, { to: CREATED })],
        [
          [1, {}],
          [2, { gasUsed: 50_000n }],
          [3, {}],
        ],
        [log(9)],
      ),
    );
    expect([...out.codeCandidates]).toEqual([B]);
    expect(out.contracts.has(TOKEN)).toBe(true);
  });

  it("a value transfer without its receipt makes the range inconsistent (fetched again)", () => {
    expect(() => extractRange(1, range([tx(1, { value: "0x1" })], [], []))).toThrow(InconsistentRangeError);
  });
});
