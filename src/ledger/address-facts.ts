// What the ledger knows of one address on one chain, as the graph expansion reads it (src/ledger/layer-read.ts).

export interface AddressFacts {
  /** an address_facts row exists for the address on this chain */
  known: boolean;
  isContract: boolean;
  /** unix seconds */
  firstSeenAt: number | undefined;
  label: string | undefined;
  category: string | undefined;
  /** the label is inferred (an exchange deposit address, src/attribution), not stored */
  inferred: boolean;
  /** transfers the store holds of the address, sent and received (address_facts; 0 when unknown) */
  transfers: number;
  /** the address has bridge legs on this chain (bridge_legs): its crossings are worth reading */
  bridged: boolean;
}
