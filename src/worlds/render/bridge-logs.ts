// The events of a bridge crossing's two legs, encoded as the protocols' contracts emit them (the ABI the indexer
// decodes with, src/chains), for scenario worlds that write a chain's logs (the eval's ethereum-etl export):
// Across's FundsDeposited / FilledRelay (bytes32 addresses) and V3FundsDeposited / FilledV3Relay, Circle CCTP V1's
// MessageSent + DepositForBurn and MintAndWithdraw + MessageReceived (with the message and burn-message layouts of
// Message.sol and BurnMessage.sol), and LayerZero OFT's OFTSent / OFTReceived. Each function returns the logs one
// leg's transaction emits, in log order, after its token transfers.
import { encodeAbiParameters, encodeEventTopics } from "viem";
import { BRIDGE_ABI } from "../../chains/index.ts";
import type { WorldEvent } from "../world.ts";

type Hex = `0x${string}`;

/** An address as a bytes32 word (Across since 2025, CCTP's recipients and senders). */
export const addressWord = (address: string): Hex => `0x${address.slice(2).toLowerCase().padStart(64, "0")}`;

function event(emitter: string, name: string, args: Record<string, unknown>): WorldEvent {
  const abiEvent = BRIDGE_ABI.find((e) => e.type === "event" && e.name === name);
  if (abiEvent?.type !== "event") throw new Error(`no bridge event ${name}`);
  const topics = encodeEventTopics({ abi: [abiEvent], eventName: name, args } as never) as string[];
  const plain = abiEvent.inputs.filter((i) => !("indexed" in i && i.indexed));
  const data = encodeAbiParameters(plain as never, plain.map((i) => args[i.name as string]) as never);
  return { address: emitter.toLowerCase(), topics, data };
}

export interface AcrossLeg {
  spokePool: string;
  /** the other chain: the destination for a deposit, the origin for a fill */
  otherChainId: number;
  depositId: number;
  depositor: string;
  recipient: string;
  inputToken: string;
  outputToken: string;
  inputAmount: bigint;
  outputAmount: bigint;
  /** the 2024 events (V3FundsDeposited, FilledV3Relay, 20-byte addresses) instead of the 2025 ones */
  v3?: boolean;
}

/** An Across deposit's event on the origin chain. */
export function acrossDeposit(leg: AcrossLeg): WorldEvent[] {
  const address = leg.v3 ? (a: string) => a : addressWord;
  return [
    event(leg.spokePool, leg.v3 ? "V3FundsDeposited" : "FundsDeposited", {
      inputToken: address(leg.inputToken),
      outputToken: address(leg.outputToken),
      inputAmount: leg.inputAmount,
      outputAmount: leg.outputAmount,
      destinationChainId: BigInt(leg.otherChainId),
      depositId: leg.v3 ? leg.depositId : BigInt(leg.depositId),
      quoteTimestamp: 0,
      fillDeadline: 0,
      exclusivityDeadline: 0,
      depositor: address(leg.depositor),
      recipient: address(leg.recipient),
      exclusiveRelayer: address(`0x${"0".repeat(40)}`),
      message: "0x",
    }),
  ];
}

/** An Across fill's event on the destination chain, by `relayer`, not sped up. */
export function acrossFill(leg: AcrossLeg & { relayer: string }): WorldEvent[] {
  const address = leg.v3 ? (a: string) => a : addressWord;
  const common = {
    inputToken: address(leg.inputToken),
    outputToken: address(leg.outputToken),
    inputAmount: leg.inputAmount,
    outputAmount: leg.outputAmount,
    repaymentChainId: BigInt(leg.otherChainId),
    originChainId: BigInt(leg.otherChainId),
    depositId: leg.v3 ? leg.depositId : BigInt(leg.depositId),
    fillDeadline: 0,
    exclusivityDeadline: 0,
    exclusiveRelayer: address(`0x${"0".repeat(40)}`),
    relayer: address(leg.relayer),
    depositor: address(leg.depositor),
    recipient: address(leg.recipient),
  };
  return [
    leg.v3
      ? event(leg.spokePool, "FilledV3Relay", {
          ...common,
          message: "0x",
          relayExecutionInfo: {
            updatedRecipient: leg.recipient,
            updatedMessage: "0x",
            updatedOutputAmount: leg.outputAmount,
            fillType: 0,
          },
        })
      : event(leg.spokePool, "FilledRelay", {
          ...common,
          messageHash: `0x${"0".repeat(64)}`,
          relayExecutionInfo: {
            updatedRecipient: addressWord(leg.recipient),
            updatedMessageHash: `0x${"0".repeat(64)}`,
            updatedOutputAmount: leg.outputAmount,
            fillType: 0,
          },
        }),
  ];
}

export interface CctpLeg {
  /** TokenMessenger and MessageTransmitter of this leg's chain */
  messenger: string;
  transmitter: string;
  /** the other chain's TokenMessenger: the message's recipient on the destination, its sender on the source */
  otherMessenger: string;
  sourceDomain: number;
  destinationDomain: number;
  nonce: bigint;
  /** the token burnt on the source chain */
  burnToken: string;
  depositor: string;
  mintRecipient: string;
  amount: bigint;
}

const hexWord = (n: number | bigint, bytes: number) => n.toString(16).padStart(bytes * 2, "0");

/** BurnMessage.sol: version 0, burnt token, mint recipient, amount, message sender. */
function burnMessage(leg: CctpLeg): Hex {
  return `0x${hexWord(0, 4)}${addressWord(leg.burnToken).slice(2)}${addressWord(leg.mintRecipient).slice(2)}${hexWord(leg.amount, 32)}${addressWord(leg.depositor).slice(2)}`;
}

/** A CCTP burn's events on the source chain: the transmitter's MessageSent, the messenger's DepositForBurn. */
export function cctpBurn(leg: CctpLeg): WorldEvent[] {
  // Message.sol: version 0, source and destination domains, nonce, sender, recipient, destination caller, body.
  const message = `0x${hexWord(0, 4)}${hexWord(leg.sourceDomain, 4)}${hexWord(leg.destinationDomain, 4)}${hexWord(leg.nonce, 8)}${addressWord(leg.messenger).slice(2)}${addressWord(leg.otherMessenger).slice(2)}${hexWord(0, 32)}${burnMessage(leg).slice(2)}`;
  return [
    event(leg.transmitter, "MessageSent", { message }),
    event(leg.messenger, "DepositForBurn", {
      nonce: leg.nonce,
      burnToken: leg.burnToken,
      amount: leg.amount,
      depositor: leg.depositor,
      mintRecipient: addressWord(leg.mintRecipient),
      destinationDomain: leg.destinationDomain,
      destinationTokenMessenger: addressWord(leg.otherMessenger),
      destinationCaller: `0x${"0".repeat(64)}`,
    }),
  ];
}

/**
 * A CCTP receipt's events on the destination chain: the TokenMessenger's MintAndWithdraw (it mints through the
 * TokenMinter and emits the event itself), then the transmitter's MessageReceived.
 */
export function cctpMint(leg: CctpLeg & { mintToken: string }): WorldEvent[] {
  return [
    event(leg.messenger, "MintAndWithdraw", {
      mintRecipient: leg.mintRecipient,
      amount: leg.amount,
      mintToken: leg.mintToken,
    }),
    event(leg.transmitter, "MessageReceived", {
      caller: leg.mintRecipient,
      sourceDomain: leg.sourceDomain,
      nonce: leg.nonce,
      sender: addressWord(leg.otherMessenger),
      messageBody: burnMessage(leg),
    }),
  ];
}

/** An OFT's send on the source chain (the adapter or OFT that took the tokens emits it). */
export function oftSent(
  oft: string,
  guid: string,
  dstEid: number,
  from: string,
  amount: bigint,
): WorldEvent[] {
  return [
    event(oft, "OFTSent", {
      guid,
      dstEid,
      fromAddress: from,
      amountSentLD: amount,
      amountReceivedLD: amount,
    }),
  ];
}

/** An OFT's receipt on the destination chain. */
export function oftReceived(
  oft: string,
  guid: string,
  srcEid: number,
  to: string,
  amount: bigint,
): WorldEvent[] {
  return [event(oft, "OFTReceived", { guid, srcEid, toAddress: to, amountReceivedLD: amount })];
}
