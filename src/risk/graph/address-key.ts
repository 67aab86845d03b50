// How the risk core compares addresses: hex addresses (EVM's, Tron's stored form, with or without an `@chainId`
// suffix) in lower case, whatever case a caller gave them; any other address as it is, since base58 (Bitcoin's
// P2PKH and P2SH) is case-sensitive and lowering it would name another address or none.
const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}(@\d+)?$/;

export const addressKey = (address: string): string =>
  HEX_ADDRESS.test(address) ? address.toLowerCase() : address;
