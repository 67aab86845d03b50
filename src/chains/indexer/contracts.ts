// Which transaction recipients are contracts: eth_getCode on the candidates the extractor names, remembered in a
// bounded in-memory cache so a busy contract is asked about once, not on every call to it.
//
// Code is read at "latest", which every node serves (a pruned node cannot answer for old blocks while the indexer
// catches up); a contract that has since self-destructed is then missed. An EIP-7702 delegation designator
// (0xef0100 ‖ address) is an externally owned account that delegates, not a contract.
import type { JsonRpcClient } from "../rpc/json-rpc.ts";

const DELEGATION = /^0xef0100[0-9a-f]{40}$/i;

export class AddressKindCache {
  readonly #kinds = new Map<string, boolean>();

  constructor(private readonly capacity = 100_000) {}

  /** true: contract, false: no code, undefined: not known here. */
  get(address: string): boolean | undefined {
    return this.#kinds.get(address);
  }

  clear(): void {
    this.#kinds.clear();
  }

  set(address: string, isContract: boolean): void {
    if (this.#kinds.has(address)) this.#kinds.delete(address);
    this.#kinds.set(address, isContract);
    if (this.#kinds.size > this.capacity) {
      const oldest = this.#kinds.keys().next().value;
      if (oldest !== undefined) this.#kinds.delete(oldest);
    }
  }
}

/** The addresses among `candidates` that hold code; those the node cannot answer for are left out. */
export async function withCode(
  rpc: JsonRpcClient,
  candidates: string[],
  signal?: AbortSignal,
): Promise<{ contracts: string[]; accounts: string[] }> {
  if (candidates.length === 0) return { contracts: [], accounts: [] };
  const outcomes = await rpc.batch(
    candidates.map((address) => ({ method: "eth_getCode", params: [address, "latest"] })),
    signal,
  );
  const contracts: string[] = [];
  const accounts: string[] = [];
  candidates.forEach((address, i) => {
    const outcome = outcomes[i];
    if (!outcome?.ok || typeof outcome.result !== "string") return;
    const code = outcome.result;
    if (code === "0x" || code === "" || DELEGATION.test(code)) accounts.push(address);
    else contracts.push(address);
  });
  return { contracts, accounts };
}
