// Decoding the bridges' events: the topic0 of each signature as the protocols' sources give it, the legs of each
// protocol (both Across generations), CCTP's source domain from the message or the chain, an OFT's leg only with
// the token movement it stands for, events from other contracts than the protocols' on a public chain skipped, and
// logs that share a topic but not the layout skipped and counted.
import {
  type AbiEvent,
  encodeAbiParameters,
  encodeEventTopics,
  parseAbi,
  parseAbiParameters,
  toEventSelector,
} from "viem";
import { describe, expect, it } from "vitest";
import type { RpcLog } from "../rpc/evm.ts";
import { BRIDGE_ABI, BRIDGE_CONTRACTS, BRIDGE_TOPICS, decodeBridgeLegs } from "./bridge-events.ts";

const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";
const TOKEN = "0x00000000000000000000000000000000000000cc";
const CONTRACT = "0x00000000000000000000000000000000000000dd";
const SPOKE_POOL = (chain: number) => BRIDGE_CONTRACTS.across[chain]?.[0] as string;
const TOKEN_MESSENGER = (BRIDGE_CONTRACTS.cctp[1] as string[])[0] as string;
const [, ARBITRUM_TRANSMITTER] = BRIDGE_CONTRACTS.cctp[42161] as string[];
const ARBITRUM_MESSENGER = (BRIDGE_CONTRACTS.cctp[42161] as string[])[0] as string;
const ZERO = `0x${"0".repeat(40)}`;
const word = (a: string) => `0x${a.slice(2).padStart(64, "0")}` as `0x${string}`;
const time = new Date("2026-11-30T12:00:00Z");
const timeOf = new Map([[100n, time]]);

const abi = parseAbi([
  "struct Info { address updatedRecipient; bytes updatedMessage; uint256 updatedOutputAmount; uint8 fillType; }",
  "event V3FundsDeposited(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint32 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, address indexed depositor, address recipient, address exclusiveRelayer, bytes message)",
  "event FilledV3Relay(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 repaymentChainId, uint256 indexed originChainId, uint32 indexed depositId, uint32 fillDeadline, uint32 exclusivityDeadline, address exclusiveRelayer, address indexed relayer, address depositor, address recipient, bytes message, Info relayExecutionInfo)",
  "event DepositForBurn(uint64 indexed nonce, address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller)",
  "event MessageReceived(address indexed caller, uint32 sourceDomain, uint64 indexed nonce, bytes32 sender, bytes messageBody)",
  "event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken)",
  "event OFTSent(bytes32 indexed guid, uint32 dstEid, address indexed fromAddress, uint256 amountSentLD, uint256 amountReceivedLD)",
  "event OFTReceived(bytes32 indexed guid, uint32 srcEid, address indexed toAddress, uint256 amountReceivedLD)",
]);

/** A V3FundsDeposited's arguments: 1,000 units of TOKEN from A to B. */
const depositArgs = (over: Record<string, unknown>) => ({
  inputToken: TOKEN,
  outputToken: TOKEN,
  inputAmount: 1_000n,
  outputAmount: 1_000n,
  destinationChainId: 1n,
  depositId: 0,
  quoteTimestamp: 1,
  fillDeadline: 2,
  exclusivityDeadline: 0,
  depositor: A,
  recipient: B,
  exclusiveRelayer: `0x${"0".repeat(40)}`,
  message: "0x",
  ...over,
});

let logIndex = 0;
function log(topics: readonly string[], data: string, tx = "0x01", address = CONTRACT): RpcLog {
  return {
    address,
    topics: [...topics],
    data,
    blockNumber: "0x64",
    blockHash: `0x${"ab".repeat(32)}`,
    transactionHash: word(tx),
    logIndex: `0x${(logIndex++).toString(16)}`,
  };
}

/** A log of one of `abi`'s events, its indexed arguments as topics and the rest as data. */
function eventLog(name: string, args: Record<string, unknown>, tx?: string, address?: string): RpcLog {
  const event = abi.find((e) => e.type === "event" && e.name === name);
  if (event?.type !== "event") throw new Error(name);
  const topics = encodeEventTopics({ abi: [event], eventName: name, args } as never) as string[];
  const plain = event.inputs.filter((i) => !("indexed" in i && i.indexed));
  const data = encodeAbiParameters(plain as never, plain.map((i) => args[i.name as string]) as never);
  return log(topics, data, tx, address);
}

describe("bridge events", () => {
  it("has the topic0 of each signature as the protocols' sources declare it", () => {
    expect(BRIDGE_TOPICS).toEqual({
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
    });
    // And each is its event's signature as the decoder's ABI declares it.
    const selector = (name: string) =>
      toEventSelector(BRIDGE_ABI.find((e) => e.type === "event" && e.name === name) as AbiEvent);
    expect(Object.values(BRIDGE_TOPICS)).toEqual(
      [
        "FundsDeposited",
        "FilledRelay",
        "V3FundsDeposited",
        "FilledV3Relay",
        "DepositForBurn",
        "MessageSent",
        "MessageReceived",
        "MintAndWithdraw",
        "OFTSent",
        "OFTReceived",
      ].map(selector),
    );
  });

  it("reads Across V3 deposits and fills (the speed-up's recipient and amount) under one key", () => {
    const deposit = eventLog(
      "V3FundsDeposited",
      depositArgs({ outputAmount: 990n, destinationChainId: 8453n, depositId: 77 }),
      undefined,
      SPOKE_POOL(1),
    );
    const fill = eventLog(
      "FilledV3Relay",
      {
        inputToken: TOKEN,
        outputToken: TOKEN,
        inputAmount: 1_000n,
        outputAmount: 990n,
        repaymentChainId: 1n,
        originChainId: 1n,
        depositId: 77,
        fillDeadline: 2,
        exclusivityDeadline: 0,
        exclusiveRelayer: `0x${"0".repeat(40)}`,
        relayer: CONTRACT,
        depositor: A,
        recipient: B,
        message: "0x",
        relayExecutionInfo: {
          updatedRecipient: A,
          updatedMessage: "0x",
          updatedOutputAmount: 985n,
          fillType: 0,
        },
      },
      undefined,
      SPOKE_POOL(8453),
    );
    const out = decodeBridgeLegs(1, [deposit], timeOf).legs;
    const inn = decodeBridgeLegs(8453, [fill], timeOf).legs;
    expect(out).toMatchObject([
      {
        protocol: "across",
        direction: "out",
        pairKey: "1:77",
        sender: A,
        recipient: B,
        amount: 1_000n,
        otherChainId: 8453,
      },
    ]);
    // Sped up: the fill pays the updated recipient the updated amount.
    expect(inn).toMatchObject([
      {
        protocol: "across",
        direction: "in",
        pairKey: "1:77",
        sender: A,
        recipient: A,
        amount: 985n,
        otherChainId: 1,
      },
    ]);
  });

  it("keys a CCTP burn by the source domain of its chain, and a receipt by its message's; the mint names the local token", () => {
    const burn = eventLog(
      "DepositForBurn",
      {
        nonce: 5n,
        burnToken: TOKEN,
        amount: 250n,
        depositor: A,
        mintRecipient: word(B),
        destinationDomain: 3,
        destinationTokenMessenger: word(CONTRACT),
        destinationCaller: word("0x00"),
      },
      undefined,
      TOKEN_MESSENGER,
    );
    expect(decodeBridgeLegs(1, [burn], timeOf).legs).toMatchObject([
      { protocol: "cctp", direction: "out", pairKey: "0:5", recipient: B, otherChainId: 42161 },
    ]);
    // A chain whose domain neither the message nor the table gives: skipped, counted.
    expect(decodeBridgeLegs(31337, [burn], timeOf)).toMatchObject({ legs: [], skipped: 1 });

    const localToken = "0x00000000000000000000000000000000000000ee";
    const body = encodeAbiParameters(parseAbiParameters("uint32"), [0]).slice(0, 2 + 8) as string;
    const burnMessage = `${body}${word(TOKEN).slice(2)}${word(B).slice(2)}${250n.toString(16).padStart(64, "0")}${word(A).slice(2)}`;
    const mint = eventLog(
      "MintAndWithdraw",
      { mintRecipient: B, amount: 250n, mintToken: localToken },
      "0x02",
      ARBITRUM_MESSENGER,
    );
    const received = eventLog(
      "MessageReceived",
      { caller: CONTRACT, sourceDomain: 0, nonce: 5n, sender: word(CONTRACT), messageBody: burnMessage },
      "0x02",
      ARBITRUM_TRANSMITTER,
    );
    expect(decodeBridgeLegs(42161, [mint, received], timeOf).legs).toMatchObject([
      {
        protocol: "cctp",
        direction: "in",
        pairKey: "0:5",
        sender: A,
        recipient: B,
        token: localToken,
        amount: 250n,
        otherChainId: 1,
      },
    ]);
  });

  it("keys OFT sends and receipts by their guid, each with the token movement it stands for", () => {
    const guid = `0x${"7f".repeat(32)}`;
    const sent = eventLog("OFTSent", {
      guid,
      dstEid: 30110,
      fromAddress: A,
      amountSentLD: 10n,
      amountReceivedLD: 10n,
    });
    const got = eventLog("OFTReceived", { guid, srcEid: 30101, toAddress: B, amountReceivedLD: 10n });
    const tx = word("0x01");
    // An OFT burns its own token from the sender; an adapter takes the underlying token into itself.
    const burn = { token: CONTRACT, from: A, to: ZERO, value: 10n };
    const lock = { token: TOKEN, from: A, to: CONTRACT, value: 10n };
    expect(decodeBridgeLegs(1, [sent], timeOf, (h) => (h === tx ? [burn] : [])).legs).toMatchObject([
      { protocol: "oft", direction: "out", pairKey: guid, sender: A, token: CONTRACT, otherChainId: 42161 },
    ]);
    expect(decodeBridgeLegs(1, [sent], timeOf, () => [lock]).legs).toMatchObject([{ token: TOKEN }]);
    // An OFT mints to the recipient; an adapter pays it the underlying token.
    const mint = { token: CONTRACT, from: ZERO, to: B, value: 10n };
    const release = { token: TOKEN, from: CONTRACT, to: B, value: 10n };
    expect(decodeBridgeLegs(42161, [got], timeOf, () => [mint]).legs).toMatchObject([
      { protocol: "oft", direction: "in", pairKey: guid, recipient: B, token: CONTRACT, otherChainId: 1 },
    ]);
    expect(decodeBridgeLegs(42161, [got], timeOf, () => [release]).legs).toMatchObject([{ token: TOKEN }]);
    // The event alone, or with a movement of another amount or between others, is no leg.
    expect(decodeBridgeLegs(1, [sent], timeOf)).toMatchObject({ legs: [], skipped: 1 });
    expect(
      decodeBridgeLegs(1, [sent], timeOf, () => [
        { ...burn, value: 9n },
        { ...lock, from: B },
      ]).legs,
    ).toEqual([]);
  });

  it("counts Across and CCTP events on a public chain only from the protocols' contracts; on a devnet from any", () => {
    // Solana, as Across numbers it.
    const args = depositArgs({ destinationChainId: 34_268_394_551_451n, depositId: 1 });
    const forged = eventLog("V3FundsDeposited", args, undefined, CONTRACT);
    expect(decodeBridgeLegs(1, [forged], timeOf)).toEqual({ legs: [], skipped: 1 });
    // A chain id beyond the store's 32 bits is kept as the protocol wrote it, with no chain of the service's.
    expect(decodeBridgeLegs(31337, [forged], timeOf).legs).toMatchObject([
      { otherRef: "chain:34268394551451", otherChainId: null },
    ]);
  });

  it("skips a log with a bridge topic whose layout is another's, and counts it", () => {
    const forged = log([BRIDGE_TOPICS.oftSent], "0x");
    expect(decodeBridgeLegs(1, [forged], timeOf)).toEqual({ legs: [], skipped: 1 });
  });
});
