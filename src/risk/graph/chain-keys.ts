// Addresses of other chains in one graph. A graph is built for one chain (TxGraph.chainId); a bridge crossing
// (types.ts BridgeVia) brings in addresses of another, and the same 0x address on two EVM chains need not be one
// owner (a contract deployed at the same address, a multisig whose keys differ per chain). So an address of another
// chain is keyed "address@chainId" wherever the graph names it: nodes, edges, findings and reasons. The graph's own
// chain keeps the plain address, so graphs without crossings are what they always were.

const SEPARATOR = "@";

/** The key of `address` on `chainId` in a graph of chain `home`. */
export function chainKey(address: string, chainId: number, home: number): string {
  return chainId === home ? address : `${address}${SEPARATOR}${chainId}`;
}

/** The address and chain a key names, in a graph of chain `home`. */
export function splitChainKey(key: string, home: number): { address: string; chainId: number } {
  const at = key.lastIndexOf(SEPARATOR);
  if (at < 0) return { address: key, chainId: home };
  const chainId = Number(key.slice(at + 1));
  return Number.isSafeInteger(chainId)
    ? { address: key.slice(0, at), chainId }
    : { address: key, chainId: home };
}

/** Whether a key names an address of another chain than the graph's. */
export const isForeignKey = (key: string) => key.includes(SEPARATOR);
