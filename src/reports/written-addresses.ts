// Report files name the client's address and the counterparty as the chain writes them (Tron: base58check), the
// way the client and the regulator read them; the store keeps the hex form (src/chains/address/tron.ts).
import type { ChainRegistry } from "../chains/index.ts";
import type { ClientOperation } from "../regulation/index.ts";

export function asChainWrites<T extends Pick<ClientOperation, "chainId" | "address" | "counterparty">>(
  registry: ChainRegistry,
  operations: T[],
): T[] {
  return operations.map((op) => {
    const codec = registry.codec(op.chainId);
    return codec.kind === "evm"
      ? op
      : { ...op, address: codec.present(op.address), counterparty: codec.present(op.counterparty) };
  });
}
