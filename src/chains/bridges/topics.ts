// The topic0 of each bridge event the service reads (Across, Circle CCTP V1, LayerZero OFT): the keccak-256 of the
// event's signature, written out so that a light reader (the ethereum-etl import's parsing worker) can pick the
// bridges' logs out of a file without loading the decoder. src/chains/indexer/bridge-events.ts decodes them; its
// test derives each of these from the signature and checks them against the protocols' own.
export const BRIDGE_TOPICS = {
  acrossDeposit: "0x32ed1a409ef04c7b0227189c3a103dc5ac10e775a15b785dcc510201f7c25ad3",
  acrossFill: "0x44b559f101f8fbcc8a0ea43fa91a05a729a5ea6e14a7c75aa750374690137208",
  acrossV3Deposit: "0xa123dc29aebf7d0c3322c8eeb5b999e859f39937950ed31056532713d0de396f",
  acrossV3Fill: "0x571749edf1d5c9599318cdbc4e28a6475d65e87fd3b2ddbe1e9a8d5e7a0f0ff7",
  cctpBurn: "0x2fa9ca894982930190727e75500a97d8dc500233a5065e0f3126c48fbe0343c0",
  cctpMessageSent: "0x8c5261668696ce22758910d05bab8f186d6eb247ceac2af2e82c7dc17669b036",
  cctpReceived: "0x58200b4c34ae05ee816d710053fff3fb75af4395915d3d2a771b24aa10e3cc5d",
  cctpMint: "0x1b2a7ff080b8cb6ff436ce0372e399692bbfb6d4ae5766fd8d58a7b8cc6142e6",
  oftSent: "0x85496b760a4b7f8d66384b9df21b381f5d1b1e79f229a47aaf4c232edc2fe59a",
  oftReceived: "0xefed6d3500546b29533b128a29e3a94d70788727f0507505ac12eaf2e578fd9c",
} as const;

/** Every topic0 kept for bridges (the logs the indexer fetches besides transfers; the import's logs it keeps). */
export const BRIDGE_TOPIC_LIST: readonly string[] = Object.values(BRIDGE_TOPICS);
