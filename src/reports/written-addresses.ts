// Report files name the client's address and the counterparty as the chain writes them (Tron: base58check), the
// way the client and the regulator read them; the store keeps the hex form (src/chains/address/tron.ts). A file
// whose alphabet has no lower case (Mexico's AVI: `[A-Z0-9]`) cannot carry base58check, whose case is the address:
// there a Tron address is written in Tron's own hex form, `41` and the 20 bytes (upper-cased by the file, still
// the same address; docs/reports/mx.md).
import type { ChainRegistry } from "../chains/index.ts";
import type { Jurisdiction } from "../jurisdictions/index.ts";
import type { ClientOperation } from "../regulation/index.ts";

/** Tron's hex form of a stored address (0x + 40 hex): `41` + the 20 bytes. */
const tronHex = (stored: string) => (/^0x[0-9a-f]{40}$/i.test(stored) ? `41${stored.slice(2)}` : stored);

export function asChainWrites<T extends Pick<ClientOperation, "chainId" | "address" | "counterparty">>(
  registry: ChainRegistry,
  operations: T[],
  j?: Pick<Jurisdiction, "upperCaseFiles">,
): T[] {
  return operations.map((op) => {
    const codec = registry.codec(op.chainId);
    if (codec.kind === "evm") return op;
    if (j?.upperCaseFiles && codec.kind === "tron")
      return { ...op, address: tronHex(op.address), counterparty: tronHex(op.counterparty) };
    return { ...op, address: codec.present(op.address), counterparty: codec.present(op.counterparty) };
  });
}
