// Plays transactions on anvil and remembers the transfers they should produce, so a test can compare the store
// with what it sent. Mining is manual: transactions queue up and `mine()` puts them in one block, then their
// receipts are checked against what the test meant (a failure it expected, a success otherwise).
import type { Kysely } from "kysely";
import { type Abi, encodeDeployData, encodeFunctionData } from "viem";
import type { DB } from "../../../src/schema.ts";
import type { Anvil } from "./anvil.ts";
import { type ContractName, contracts } from "./contracts.ts";

export interface ExpectedTransfer {
  txHash: string;
  token: string;
  from: string;
  to: string;
  value: string;
}

interface Pending {
  hash: string;
  fail: boolean;
  transfers: Omit<ExpectedTransfer, "txHash">[];
}

const GAS = "0x7a120"; // 500,000: given explicitly, so nothing is estimated against a state missing the queue

export class Scenario {
  readonly expected: ExpectedTransfer[] = [];
  #pending: Pending[] = [];
  #salt = 0;

  private constructor(
    readonly anvil: Anvil,
    readonly accounts: string[],
  ) {}

  static async start(anvil: Anvil): Promise<Scenario> {
    const accounts = (await anvil.rpc<string[]>("eth_accounts")).map((a) => a.toLowerCase());
    await anvil.rpc("evm_setAutomine", [false]);
    return new Scenario(anvil, accounts);
  }

  account(i: number): string {
    return this.accounts[i] as string;
  }

  /** Deploys a contract in a block of its own; returns its address. */
  async deploy(name: ContractName, args: unknown[] = [], opts: { value?: bigint } = {}): Promise<string> {
    const { abi, bytecode } = contracts()[name];
    const data = encodeDeployData({ abi, bytecode, args });
    const from = this.account(0);
    const hash = await this.anvil.rpc<string>("eth_sendTransaction", [
      { from, data, gas: "0x4c4b40", ...(opts.value ? { value: hex(opts.value) } : {}) },
    ]);
    await this.anvil.rpc("evm_mine");
    const receipt = await this.anvil.rpc<{ status: string; contractAddress: string }>(
      "eth_getTransactionReceipt",
      [hash],
    );
    if (receipt.status !== "0x1") throw new Error(`deploying ${name} failed`);
    const address = receipt.contractAddress.toLowerCase();
    if (opts.value)
      this.expected.push({ txHash: hash, token: "native", from, to: address, value: String(opts.value) });
    return address;
  }

  /** Queues a value transfer; `fail` says the test expects it to fail (then it moves nothing). */
  async sendNative(from: string, to: string, value: bigint, opts: { fail?: boolean; gas?: string } = {}) {
    const hash = await this.anvil.rpc<string>("eth_sendTransaction", [
      { from, to, value: hex(value), gas: opts.gas ?? GAS },
    ]);
    const transfers = value > 0n ? [{ token: "native", from, to, value: String(value) }] : [];
    this.#pending.push({ hash, fail: opts.fail ?? false, transfers });
    return hash;
  }

  /** Queues a contract call and the transfers it should produce when it succeeds. */
  async call(
    from: string,
    to: string,
    abi: Abi,
    functionName: string,
    args: unknown[],
    opts: { value?: bigint; fail?: boolean; transfers?: Omit<ExpectedTransfer, "txHash">[] } = {},
  ) {
    const data = encodeFunctionData({ abi, functionName, args });
    const value = opts.value ?? 0n;
    const hash = await this.anvil.rpc<string>("eth_sendTransaction", [
      { from, to, data, gas: GAS, ...(value > 0n ? { value: hex(value) } : {}) },
    ]);
    const transfers = [
      ...(value > 0n ? [{ token: "native", from, to, value: String(value) }] : []),
      ...(opts.transfers ?? []),
    ];
    this.#pending.push({ hash, fail: opts.fail ?? false, transfers });
    return hash;
  }

  /** Token helpers on a TestToken-like contract. */
  async mint(token: string, to: string, value: bigint, name: ContractName = "TestToken") {
    return this.call(this.account(0), token, contracts()[name].abi, "mint", [to, value], {
      transfers: [{ token, from: ZERO, to, value: String(value) }],
    });
  }

  async transferToken(token: string, from: string, to: string, value: bigint, opts: { fail?: boolean } = {}) {
    return this.call(from, token, contracts().TestToken.abi, "transfer", [to, value], {
      fail: opts.fail ?? false,
      transfers: [{ token, from, to, value: String(value) }],
    });
  }

  /** A few value transfers between the first accounts, with values unique to this scenario run. */
  async someNativeTransfers(count: number, base = 1_000_000n) {
    for (let i = 0; i < count; i++) {
      const salt = BigInt(++this.#salt);
      await this.sendNative(this.account(1 + (i % 4)), this.account(5 + (i % 4)), base + salt);
    }
  }

  /** Mines the queued transactions into one block and checks each one's status. */
  async mine(): Promise<bigint> {
    await this.anvil.rpc("evm_mine");
    const pending = this.#pending;
    this.#pending = [];
    const receipts = (await this.anvil.batch(
      pending.map((p) => ({ method: "eth_getTransactionReceipt", params: [p.hash] })),
    )) as ({ status: string } | null)[];
    pending.forEach((p, i) => {
      const receipt = receipts[i];
      if (!receipt) throw new Error(`${p.hash} was not mined`);
      const failed = receipt.status !== "0x1";
      if (failed !== p.fail) throw new Error(`${p.hash}: expected ${p.fail ? "failure" : "success"}`);
      if (!failed) for (const t of p.transfers) this.expected.push({ txHash: p.hash, ...t });
    });
    return this.anvil.blockNumber();
  }

  /** Forgets the expectations of blocks a revert removed (the test keeps the ones it still expects). */
  replaceExpected(rows: ExpectedTransfer[]) {
    this.expected.splice(0, this.expected.length, ...rows);
  }
}

export const ZERO = `0x${"0".repeat(40)}`;
const hex = (n: bigint) => `0x${n.toString(16)}`;

/** The store's transfers of a chain, in the shape of the expectations, sorted alike. */
export async function storedTransfers(db: Kysely<DB>, chainId: number): Promise<ExpectedTransfer[]> {
  const rows = await db
    .selectFrom("transfers")
    .select(["tx_hash", "token", "from_address", "to_address", "value"])
    .where("chain_id", "=", chainId)
    .execute();
  return sortTransfers(
    rows.map((r) => ({
      txHash: r.tx_hash,
      token: r.token,
      from: r.from_address,
      to: r.to_address,
      value: r.value,
    })),
  );
}

export function sortTransfers(rows: ExpectedTransfer[]): ExpectedTransfer[] {
  const key = (t: ExpectedTransfer) =>
    `${t.txHash}|${t.token}|${t.from}|${t.to}|${t.value.padStart(80, "0")}`;
  return [...rows]
    .map((t) => ({ ...t, txHash: t.txHash.toLowerCase() }))
    .sort((a, b) => (key(a) < key(b) ? -1 : 1));
}
