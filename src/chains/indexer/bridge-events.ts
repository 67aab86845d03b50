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
//   recipient (it is in the message): an unpaired out leg has none. Its token is the emitting contract (an OFT is
//   its own token; an adapter's underlying token moves in the same transaction's transfers).
// CCTP V2 (TokenMessengerV2, whose DepositForBurn has another signature) is not read yet.
//
// Events are recognised by their signature from whatever contract emits them: a forged event pairs with nothing
// but another forged event, since a real crossing's key is the protocol's own (docs/risk-model.md, "Bridges").
// Pure: no I/O.
import { type AbiEvent, decodeEventLog, parseAbi, toEventSelector } from "viem";
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

const ABI = parseAbi([
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

const EVENTS: readonly AbiEvent[] = ABI.filter((item) => item.type === "event") as readonly AbiEvent[];
const topicOf = (name: string) => toEventSelector(EVENTS.find((e) => e.name === name) as AbiEvent);

export const BRIDGE_TOPICS = {
  acrossDeposit: topicOf("FundsDeposited"),
  acrossFill: topicOf("FilledRelay"),
  acrossV3Deposit: topicOf("V3FundsDeposited"),
  acrossV3Fill: topicOf("FilledV3Relay"),
  cctpBurn: topicOf("DepositForBurn"),
  cctpMessageSent: topicOf("MessageSent"),
  cctpReceived: topicOf("MessageReceived"),
  cctpMint: topicOf("MintAndWithdraw"),
  oftSent: topicOf("OFTSent"),
  oftReceived: topicOf("OFTReceived"),
} as const;

/** Every topic0 the indexer keeps for this module (the logs it fetches besides transfers). */
export const BRIDGE_TOPIC_LIST: readonly string[] = Object.values(BRIDGE_TOPICS);
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
  if (hex.length < 132 * 2) return undefined;
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
      abi: ABI,
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
): { legs: BridgeLeg[]; skipped: number } {
  const legs: BridgeLeg[] = [];
  let skipped = 0;
  const decoded = logs.map((log) => ({ log, event: decode(log) }));
  const inTx = (log: RpcLog) =>
    decoded.filter((d) => d.log.transactionHash.toLowerCase() === log.transactionHash.toLowerCase());
  for (const { log, event } of decoded) {
    if (!event) {
      if (isBridgeLog(log)) skipped++;
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
        const destination = Number(a.destinationChainId as bigint);
        legs.push({
          ...base,
          protocol: "across",
          direction: "out",
          pairKey: `${chainId}:${a.depositId}`,
          sender: account(a.depositor as string),
          recipient: account(a.recipient as string),
          token: account(a.inputToken as string),
          amount: a.inputAmount as bigint,
          otherRef: `chain:${destination}`,
          otherChainId: Number.isSafeInteger(destination) ? destination : null,
        });
        break;
      }
      case "FilledRelay":
      case "FilledV3Relay": {
        const origin = Number(a.originChainId as bigint);
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
          otherRef: `chain:${origin}`,
          otherChainId: Number.isSafeInteger(origin) ? origin : null,
        });
        break;
      }
      case "DepositForBurn": {
        const nonce = a.nonce as bigint;
        const sent = inTx(log)
          .filter((d) => d.event?.eventName === "MessageSent")
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
      case "OFTSent": {
        const eid = Number(a.dstEid);
        legs.push({
          ...base,
          protocol: "oft",
          direction: "out",
          pairKey: lower(a.guid as string),
          sender: lower(a.fromAddress as string),
          recipient: "",
          token: base.contract,
          amount: a.amountSentLD as bigint,
          otherRef: `lz:${eid}`,
          otherChainId: CHAIN_OF_EID.get(eid) ?? null,
        });
        break;
      }
      case "OFTReceived": {
        const eid = Number(a.srcEid);
        legs.push({
          ...base,
          protocol: "oft",
          direction: "in",
          pairKey: lower(a.guid as string),
          sender: "",
          recipient: lower(a.toAddress as string),
          token: base.contract,
          amount: a.amountReceivedLD as bigint,
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
