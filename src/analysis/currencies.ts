// The native currencies an expansion values transfers in: the analysed chain's, and those of the other chains a
// bridge crossing may reach (src/analysis/graph/bridge-reads.ts), from the chain registry.
import type { ChainRegistry } from "../chains/index.ts";
import type { ExpansionOverrides } from "./graph/index.ts";

export function currenciesOf(
  registry: ChainRegistry,
  chainId: number,
): Pick<ExpansionOverrides, "native" | "natives"> {
  const chain = registry.get(chainId);
  const natives = Object.fromEntries(
    registry.enabled().map((c) => [c.id, { symbol: c.currency_symbol, decimals: c.currency_decimals }]),
  );
  return {
    ...(chain ? { native: { symbol: chain.currency_symbol, decimals: chain.currency_decimals } } : {}),
    natives,
  };
}
