// Bridge events read by the indexer: the legs of a crossing of value from one chain to another, as three bridge
// protocols write them. A leg is `out` where the bridge takes the value (a deposit, a burn, an OFT send) and `in`
// where it delivers it (a fill, a mint, an OFT receive); the two legs of one crossing share a key the protocol
// itself gives them, so that the ledger pairs them by equality whichever chain was indexed first:
//
// - Across (SpokePool): `FundsDeposited` on the origin chain and `FilledRelay` on the destination (addresses as
//   bytes32, since the SpokePool's 2025 upgrade for Solana), and before that `V3FundsDeposited` and
//   `FilledV3Relay` (across-protocol/contracts, contracts/interfaces/V3SpokePoolInterface.sol), keyed by the origin
//   chain id and the deposit id. The fill names the origin's depositor; what it delivers goes to the speed-up's
//   updated recipient and amount (`relayExecutionInfo`), which equal the deposit's when not sped up.
// - Circle CCTP V1 (circlefin/evm-cctp-contracts, src/TokenMessenger.sol, src/MessageTransmitter.sol, the message
//   layouts of src/messages/Message.sol and BurnMessage.sol): `DepositForBurn` (TokenMessenger) on the source and `MessageReceived` (MessageTransmitter) on
//   the destination, keyed by the source domain and the message nonce. The source domain of a burn is read from
//   the `MessageSent` of its transaction (the message header), else from the chain's known domain; the received
//   message's body is the burn message (burnt token, mint recipient, amount, sender), and the token minted here is
//   the `MintAndWithdraw` of the same transaction.
// - LayerZero V2 OFT (LayerZero-Labs/devtools, packages/oft-evm/contracts/interfaces/IOFT.sol): `OFTSent` and `OFTReceived`, keyed by the message guid. The sent event does not name the
//   recipient (it is in the message): an unpaired out leg has none. Its token is the one the transaction moved (an
//   OFT's own, or an adapter's underlying token).
// CCTP V2 (TokenMessengerV2, whose DepositForBurn has another signature) is not read yet.
//
// Who may emit them (docs/decisions/0050): on the public chains the service lists, Across's and CCTP's events count
// only from the protocols' own contracts (BRIDGE_CONTRACTS, from their deployment records): anybody can emit an
// event of the same signature, and a forged leg could otherwise pair with a forged leg on another chain at a real
// token's price, or make a real crossing ambiguous. Every OFT is a contract of its own, so an OFT's event counts
// only with the token movement it stands for in the same transaction (the OFT burning or minting its own token, or
// an adapter taking or paying the underlying one, which is then the leg's token). On other chains (a devnet, a
// test chain) any emitter counts. Pure: no I/O.
import { decodeEventLog, parseAbi } from "viem";
import { BRIDGE_TOPIC_LIST, BRIDGE_TOPICS } from "../bridges/topics.ts";
import { hexToBigInt, hexToNumber, type RpcLog } from "../rpc/evm.ts";
import { InconsistentRangeError } from "./fetch-range.ts";

export type BridgeProtocol = "across" | "cctp" | "oft";

/** The names the reports give each protocol. */
export const BRIDGE_PROTOCOL_NAMES: Readonly<Record<BridgeProtocol, string>> = {
  across: "Across",
  cctp: "Circle CCTP",
  oft: "LayerZero OFT",
};

export interface BridgeLeg {
  chainId: number;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockTime: Date;
  protocol: BridgeProtocol;
  direction: "out" | "in";
  pairKey: string;
  /** the emitting contract */
  contract: string;
  /** out: the depositor; in: the depositor the event names on the other chain ("" when it names none) */
  sender: string;
  /** in: who received; out: who is to receive on the other chain ("" when the event does not say) */
  recipient: string;
  /** the asset on this chain */
  token: string;
  amount: bigint;
  /** the other chain as the protocol names it: "chain:1", "cctp:3", "lz:30110" */
  otherRef: string;
  /** the chain id this service knows by `otherRef`, when it knows one */
  otherChainId: number | null;
}

/** The events read here, as the protocols' sources declare them (also what scenario worlds encode their legs with). */
export const BRIDGE_ABI = parseAbi([
  "struct V3RelayExecutionEventInfo { address updatedRecipient; bytes updatedMessage; uint256 updatedOutputAmount; uint8 fillType; }",
  "event V3FundsDeposited(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint32 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, address indexed depositor, address recipient, address exclusiveRelayer, bytes message)",
  "event FilledV3Relay(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 repaymentChainId, uint256 indexed originChainId, uint32 indexed depositId, uint32 fillDeadline, uint32 exclusivityDeadline, address exclusiveRelayer, address indexed relayer, address depositor, address recipient, bytes message, V3RelayExecutionEventInfo relayExecutionInfo)",
  "struct RelayExecutionEventInfo { bytes32 updatedRecipient; bytes32 updatedMessageHash; uint256 updatedOutputAmount; uint8 fillType; }",
  "event FundsDeposited(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint256 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 indexed depositor, bytes32 recipient, bytes32 exclusiveRelayer, bytes message)",
  "event FilledRelay(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 repaymentChainId, uint256 indexed originChainId, uint256 indexed depositId, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 exclusiveRelayer, bytes32 indexed relayer, bytes32 depositor, bytes32 recipient, bytes32 messageHash, RelayExecutionEventInfo relayExecutionInfo)",
  "event DepositForBurn(uint64 indexed nonce, address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller)",
  "event MessageSent(bytes message)",
  "event MessageReceived(address indexed caller, uint32 sourceDomain, uint64 indexed nonce, bytes32 sender, bytes messageBody)",
  "event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken)",
  "event OFTSent(bytes32 indexed guid, uint32 dstEid, address indexed fromAddress, uint256 amountSentLD, uint256 amountReceivedLD)",
  "event OFTReceived(bytes32 indexed guid, uint32 srcEid, address indexed toAddress, uint256 amountReceivedLD)",
]);

export { BRIDGE_TOPIC_LIST, BRIDGE_TOPICS };

const BRIDGE_TOPIC_SET = new Set(BRIDGE_TOPIC_LIST);

export const isBridgeLog = (log: RpcLog) => BRIDGE_TOPIC_SET.has((log.topics[0] ?? "").toLowerCase());

/**
 * Circle's CCTP domains (developers.circle.com, "Supported chains and domains") and LayerZero V2's endpoint ids
 * (docs.layerzero.network, "Deployed endpoints") of the chains the service lists, by chain id.
 */
export const CCTP_DOMAINS: Readonly<Record<number, number>> = {
  1: 0, // Ethereum
  43114: 1, // Avalanche C-Chain
  10: 2, // OP Mainnet
  42161: 3, // Arbitrum One
  8453: 6, // Base
  137: 7, // Polygon PoS
};
export const LAYERZERO_EIDS: Readonly<Record<number, number>> = {
  1: 30101, // Ethereum
  56: 30102, // BNB Smart Chain
  43114: 30106, // Avalanche C-Chain
  137: 30109, // Polygon PoS
  42161: 30110, // Arbitrum One
  10: 30111, // OP Mainnet
  8453: 30184, // Base
  728126428: 30420, // Tron
};

/**
 * The protocols' contracts on the public chains, lowercase: Across's SpokePool proxies (across-protocol/contracts,
 * broadcast/deployed-addresses.json) and Circle CCTP V1's TokenMessenger and MessageTransmitter
 * (developers.circle.com/cctp/v1/evm-smart-contracts). A chain listed in PUBLIC_CHAINS accepts a protocol's events
 * only from these; a protocol absent for a chain (CCTP V1 on BNB Smart Chain) has no events counted there.
 */
export const BRIDGE_CONTRACTS: Readonly<
  Record<"across" | "cctp", Readonly<Record<number, readonly string[]>>>
> = {
  across: {
    1: ["0x5c7bcd6e7de5423a257d81b442095a1a6ced35c5"],
    10: ["0x6f26bf09b1c792e3228e5467807a900a503c0281"],
    56: ["0x4e8e101924ede233c13e2d8622dc8aed2872d505"],
    137: ["0x9295ee1d8c5b022be115a2ad3c30c72e34e7f096"],
    8453: ["0x09aea4b2242abc8bb4bb78d537a67a245a7bec64"],
    42161: ["0xe35e9842fceaca96570b734083f4a58e8f7c5f2a"],
  },
  cctp: {
    1: ["0xbd3fa81b58ba92a82136038b25adec7066af3155", "0x0a992d191deec32afe36203ad87d7d289a738f81"],
    137: ["0x9daf8c91aefae50b9c0e69629d3f6ca40ca3b3fe", "0xf3be9355363857f3e001be68856a2f96b4c39ba9"],
    8453: ["0x1682ae6375c4e4a97e4b583bc394c861a46d8962", "0xad09780d193884d503182ad4588450c416d6f9d4"],
    42161: ["0x19330d10d9cc8751218eaf51e8885d058642e08a", "0xc30362313fbba5cf9163f0bb16a0e01f01a896ca"],
  },
};

/** Public chains: the service's listed mainnets and testnets, where only the contracts above count. */
export const PUBLIC_CHAINS: ReadonlySet<number> = new Set([
  1, 10, 56, 137, 8453, 42161, 43113, 43114, 728126428,
]);

function trustedEmitter(protocol: "across" | "cctp", chainId: number, contract: string): boolean {
  if (!PUBLIC_CHAINS.has(chainId)) return true;
  return BRIDGE_CONTRACTS[protocol][chainId]?.includes(contract) ?? false;
}

/** A chain id the store's 32-bit column holds (Across names Solana 34268394551451: kept in `otherRef` only). */
const storedChainId = (id: bigint): number | null => (id >= 1n && id <= 2_147_483_647n ? Number(id) : null);

/** A token movement of the transaction, as the OFT evidence reads it. */
export interface TxTransfer {
  token: string;
  from: string;
  to: string;
  value: bigint;
}

const ZERO = `0x${"0".repeat(40)}`;

/**
 * The token an OFT leg moved, from its transaction's transfers: the OFT's own (a burn from the sender, a mint to
 * the recipient) or, for an adapter, the underlying token it took from the sender or paid the recipient. Undefined
 * when the transaction moved nothing that fits: no leg.
 */
function oftToken(
  transfers: readonly TxTransfer[],
  emitter: string,
  direction: "out" | "in",
  account: string,
  amount: bigint,
): string | undefined {
  for (const t of transfers) {
    if (t.value !== amount) continue;
    if (direction === "out" && t.from === account && (t.token === emitter || t.to === emitter))
      return t.token;
    if (
      direction === "in" &&
      t.to === account &&
      (t.token === emitter ? t.from === ZERO : t.from === emitter)
    )
      return t.token;
  }
  return undefined;
}

const invert = (table: Readonly<Record<number, number>>) =>
  new Map(Object.entries(table).map(([chain, id]) => [id, Number(chain)]));
const CHAIN_OF_DOMAIN = invert(CCTP_DOMAINS);
const CHAIN_OF_EID = invert(LAYERZERO_EIDS);

const lower = (address: string) => address.toLowerCase();
/** A bytes32 that holds an EVM address (CCTP's mint recipient and sender): its last 20 bytes. */
const wordAddress = (word: string) => `0x${word.slice(-40)}`.toLowerCase();

/** An address as an event writes it: 20 bytes, or a bytes32 word holding one (Across since 2025, CCTP). */
const account = (value: string) => (value.length === 66 ? wordAddress(value) : lower(value));

/** A CCTP V1 message header (Message.sol): version, source and destination domains, nonce, then the body. */
interface CctpMessage {
  sourceDomain: number;
  nonce: bigint;
}
function cctpHeader(message: string): CctpMessage | undefined {
  const hex = message.slice(2);
  if (hex.length < 116 * 2) return undefined;
  return {
    sourceDomain: Number.parseInt(hex.slice(8, 16), 16),
    nonce: BigInt(`0x${hex.slice(24, 40)}`),
  };
}

/** A CCTP V1 burn message (BurnMessage.sol): version, burnt token, mint recipient, amount, message sender. */
interface BurnMessage {
  burnToken: string;
  mintRecipient: string;
  amount: bigint;
  sender: string;
}
function burnMessage(body: string): BurnMessage | undefined {
  const hex = body.slice(2);
  // Exactly a V1 burn message: other applications' messages pass through the same MessageTransmitter.
  if (hex.length !== 132 * 2 || hex.slice(0, 8) !== "00000000") return undefined;
  const word = (from: number) => `0x${hex.slice(from * 2, (from + 32) * 2)}`;
  return {
    burnToken: wordAddress(word(4)),
    mintRecipient: wordAddress(word(36)),
    amount: BigInt(word(68)),
    sender: wordAddress(word(100)),
  };
}

type Decoded = { eventName: string; args: Record<string, unknown> };

function decode(log: RpcLog): Decoded | undefined {
  try {
    return decodeEventLog({
      abi: BRIDGE_ABI,
      topics: log.topics as [`0x${string}`, ...`0x${string}`[]],
      data: log.data as `0x${string}`,
      strict: true,
    }) as unknown as Decoded;
  } catch {
    // Same topic, another layout (an event of the same name and types but other indexing): not this protocol's.
    return undefined;
  }
}

/**
 * The legs of a range's bridge logs, in block and log order. Logs that do not decode as their protocol writes them
 * are skipped; `skipped` counts them, for the indexer's log.
 */
export function decodeBridgeLegs(
  chainId: number,
  logs: readonly RpcLog[],
  timeOf: ReadonlyMap<bigint, Date>,
  transfersOf: (txHash: string) => readonly TxTransfer[] = () => [],
): { legs: BridgeLeg[]; skipped: number } {
  const legs: BridgeLeg[] = [];
  let skipped = 0;
  const decoded = logs.map((log) => ({ log, event: decode(log) }));
  const byTx = new Map<string, typeof decoded>();
  for (const d of decoded) {
    const tx = d.log.transactionHash.toLowerCase();
    const list = byTx.get(tx);
    if (list) list.push(d);
    else byTx.set(tx, [d]);
  }
  const inTx = (log: RpcLog) => byTx.get(log.transactionHash.toLowerCase()) ?? [];
  for (const { log, event } of decoded) {
    if (!event) {
      if (isBridgeLog(log)) skipped++;
      continue;
    }
    const emitter = lower(log.address);
    const protocol = event.eventName.startsWith("OFT")
      ? "oft"
      : /Deposited|Filled/.test(event.eventName)
        ? "across"
        : "cctp";
    if (protocol !== "oft" && !trustedEmitter(protocol, chainId, emitter)) {
      if (event.eventName !== "MessageSent" && event.eventName !== "MintAndWithdraw") skipped++;
      continue;
    }
    const blockNumber = hexToBigInt(log.blockNumber);
    const blockTime = timeOf.get(blockNumber);
    if (!blockTime)
      throw new InconsistentRangeError(`a bridge log of block ${blockNumber} is outside the range`);
    const base = {
      chainId,
      txHash: log.transactionHash.toLowerCase(),
      logIndex: hexToNumber(log.logIndex),
      blockNumber,
      blockTime,
      contract: lower(log.address),
    };
    const a = event.args;
    switch (event.eventName) {
      case "FundsDeposited":
      case "V3FundsDeposited": {
        legs.push({
          ...base,
          protocol: "across",
          direction: "out",
          pairKey: `${chainId}:${a.depositId}`,
          sender: account(a.depositor as string),
          recipient: account(a.recipient as string),
          token: account(a.inputToken as string),
          amount: a.inputAmount as bigint,
          otherRef: `chain:${a.destinationChainId}`,
          otherChainId: storedChainId(a.destinationChainId as bigint),
        });
        break;
      }
      case "FilledRelay":
      case "FilledV3Relay": {
        const info = a.relayExecutionInfo as { updatedRecipient: string; updatedOutputAmount: bigint };
        legs.push({
          ...base,
          protocol: "across",
          direction: "in",
          pairKey: `${a.originChainId}:${a.depositId}`,
          sender: account(a.depositor as string),
          recipient: account(info.updatedRecipient),
          token: account(a.outputToken as string),
          amount: info.updatedOutputAmount,
          otherRef: `chain:${a.originChainId}`,
          otherChainId: storedChainId(a.originChainId as bigint),
        });
        break;
      }
      case "DepositForBurn": {
        const nonce = a.nonce as bigint;
        const sent = inTx(log)
          .filter(
            (d) =>
              d.event?.eventName === "MessageSent" && trustedEmitter("cctp", chainId, lower(d.log.address)),
          )
          .map((d) => cctpHeader(d.event?.args.message as string))
          .find((h) => h?.nonce === nonce);
        const sourceDomain = sent?.sourceDomain ?? CCTP_DOMAINS[chainId];
        if (sourceDomain === undefined) {
          skipped++; // a burn whose source domain neither its message nor the chain tells
          break;
        }
        const destination = Number(a.destinationDomain);
        legs.push({
          ...base,
          protocol: "cctp",
          direction: "out",
          pairKey: `${sourceDomain}:${nonce}`,
          sender: lower(a.depositor as string),
          recipient: wordAddress(a.mintRecipient as string),
          token: lower(a.burnToken as string),
          amount: a.amount as bigint,
          otherRef: `cctp:${destination}`,
          otherChainId: CHAIN_OF_DOMAIN.get(destination) ?? null,
        });
        break;
      }
      case "MessageReceived": {
        const burn = burnMessage(a.messageBody as string);
        if (!burn) break; // a message of another application than the TokenMessenger's burns
        const sourceDomain = Number(a.sourceDomain);
        const mint = inTx(log).find(
          (d) =>
            d.event?.eventName === "MintAndWithdraw" &&
            trustedEmitter("cctp", chainId, lower(d.log.address)) &&
            lower(d.event.args.mintRecipient as string) === burn.mintRecipient &&
            d.event.args.amount === burn.amount,
        );
        legs.push({
          ...base,
          protocol: "cctp",
          direction: "in",
          pairKey: `${sourceDomain}:${a.nonce}`,
          sender: burn.sender,
          recipient: burn.mintRecipient,
          token: mint ? lower(mint.event?.args.mintToken as string) : burn.burnToken,
          amount: burn.amount,
          otherRef: `cctp:${sourceDomain}`,
          otherChainId: CHAIN_OF_DOMAIN.get(sourceDomain) ?? null,
        });
        break;
      }
      case "OFTSent":
      case "OFTReceived": {
        const out = event.eventName === "OFTSent";
        const eid = Number(out ? a.dstEid : a.srcEid);
        const account = lower((out ? a.fromAddress : a.toAddress) as string);
        const amount = (out ? a.amountSentLD : a.amountReceivedLD) as bigint;
        const direction = out ? "out" : "in";
        const token = oftToken(transfersOf(base.txHash), emitter, direction, account, amount);
        if (!token) {
          skipped++; // no burn, lock, mint or release of that amount by the account: not an OFT's leg
          break;
        }
        legs.push({
          ...base,
          protocol: "oft",
          direction,
          pairKey: lower(a.guid as string),
          sender: out ? account : "",
          recipient: out ? "" : account,
          token,
          amount,
          otherRef: `lz:${eid}`,
          otherChainId: CHAIN_OF_EID.get(eid) ?? null,
        });
        break;
      }
      // MessageSent and MintAndWithdraw only complete the legs above.
    }
  }
  return {
    legs: legs.sort((x, y) =>
      x.blockNumber === y.blockNumber ? x.logIndex - y.logIndex : x.blockNumber < y.blockNumber ? -1 : 1,
    ),
    skipped,
  };
}
