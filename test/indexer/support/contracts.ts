// The contracts the indexer's tests deploy, compiled with solc-js (a devDependency) on first use and cached in
// the temp dir by source hash, so the test files after the first skip the ~3 s compile.
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { Abi } from "viem";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// An ERC-20 as far as the indexer cares: metadata, Transfer events, balances.
contract TestToken {
  event Transfer(address indexed from, address indexed to, uint256 value);
  string public name;
  string public symbol;
  uint8 public decimals;
  mapping(address => uint256) public balanceOf;

  constructor(string memory name_, string memory symbol_, uint8 decimals_) {
    name = name_;
    symbol = symbol_;
    decimals = decimals_;
  }

  function mint(address to, uint256 value) external {
    balanceOf[to] += value;
    emit Transfer(address(0), to, value);
  }

  function transfer(address to, uint256 value) public returns (bool) {
    require(balanceOf[msg.sender] >= value, "balance");
    balanceOf[msg.sender] -= value;
    balanceOf[to] += value;
    emit Transfer(msg.sender, to, value);
    return true;
  }

  mapping(address => mapping(address => uint256)) public allowance;

  function approve(address spender, uint256 value) external returns (bool) {
    allowance[msg.sender][spender] = value;
    return true;
  }

  function transferFrom(address from, address to, uint256 value) external returns (bool) {
    require(allowance[from][msg.sender] >= value, "allowance");
    require(balanceOf[from] >= value, "balance");
    allowance[from][msg.sender] -= value;
    balanceOf[from] -= value;
    balanceOf[to] += value;
    emit Transfer(from, to, value);
    return true;
  }

  function transferMany(address[] calldata to, uint256[] calldata value) external {
    for (uint256 i = 0; i < to.length; i++) transfer(to[i], value[i]);
  }
}

/// Old-style metadata: bytes32 symbol and name (MKR, SAI), uint256 decimals.
contract Bytes32Token {
  event Transfer(address indexed from, address indexed to, uint256 value);
  bytes32 public symbol = "MKR";
  bytes32 public name = "Maker";
  uint256 public decimals = 18;

  function mint(address to, uint256 value) external {
    emit Transfer(address(0), to, value);
  }
}

/// Emits Transfer events but has no metadata functions: every eth_call reverts.
contract BareToken {
  event Transfer(address indexed from, address indexed to, uint256 value);

  function mint(address to, uint256 value) external {
    emit Transfer(address(0), to, value);
  }
}

/// ERC-721 Transfer: same topic0, the token id indexed as a 4th topic. Not an ERC-20 transfer.
contract TestNft {
  event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

  function mint(address to, uint256 tokenId) external {
    emit Transfer(address(0), to, tokenId);
  }
}

/// A contract that takes ether, and forwards it (an internal transfer, invisible without traces).
contract Vault {
  constructor() payable {}

  receive() external payable {}

  function forward(address payable to) external payable {
    (bool ok, ) = to.call{value: msg.value}("");
    require(ok, "forward failed");
  }
}

/// Refuses ether: a value transfer to it fails.
contract Refuser {
  receive() external payable {
    revert("no");
  }
}

interface IBridgedToken {
  function transferFrom(address from, address to, uint256 value) external returns (bool);
  function transfer(address to, uint256 value) external returns (bool);
  function mint(address to, uint256 value) external;
}

/// A stand-in for three bridges' contracts: it emits their events exactly as they declare them (Across's
/// SpokePool, Circle CCTP V1's TokenMessenger and MessageTransmitter, a LayerZero V2 OFT) and moves tokens where
/// they move them (a deposit or burn takes the sender's; a fill pays from the relayer; a mint or OFT receive
/// mints). No relayers, attestations or messages pass between chains: the test plays both sides.
contract BridgeStandIn {
  struct RelayExecutionEventInfo {
    bytes32 updatedRecipient;
    bytes32 updatedMessageHash;
    uint256 updatedOutputAmount;
    uint8 fillType;
  }
  event FundsDeposited(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount,
    uint256 indexed destinationChainId, uint256 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline,
    uint32 exclusivityDeadline, bytes32 indexed depositor, bytes32 recipient, bytes32 exclusiveRelayer, bytes message);
  event FilledRelay(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount,
    uint256 repaymentChainId, uint256 indexed originChainId, uint256 indexed depositId, uint32 fillDeadline,
    uint32 exclusivityDeadline, bytes32 exclusiveRelayer, bytes32 indexed relayer, bytes32 depositor,
    bytes32 recipient, bytes32 messageHash, RelayExecutionEventInfo relayExecutionInfo);
  event DepositForBurn(uint64 indexed nonce, address indexed burnToken, uint256 amount, address indexed depositor,
    bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller);
  event MessageSent(bytes message);
  event MessageReceived(address indexed caller, uint32 sourceDomain, uint64 indexed nonce, bytes32 sender,
    bytes messageBody);
  event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken);
  event OFTSent(bytes32 indexed guid, uint32 dstEid, address indexed fromAddress, uint256 amountSentLD,
    uint256 amountReceivedLD);
  event OFTReceived(bytes32 indexed guid, uint32 srcEid, address indexed toAddress, uint256 amountReceivedLD);

  uint256 public depositCount;
  uint64 public nonce;
  uint32 public immutable domain;

  constructor(uint32 domain_) {
    domain = domain_;
  }

  function w(address a) internal pure returns (bytes32) {
    return bytes32(uint256(uint160(a)));
  }

  function acrossDeposit(address token, uint256 amount, uint256 destinationChainId, address recipient) external {
    IBridgedToken(token).transferFrom(msg.sender, address(this), amount);
    emit FundsDeposited(w(token), w(token), amount, amount, destinationChainId, depositCount++,
      uint32(block.timestamp), uint32(block.timestamp + 3600), 0, w(msg.sender), w(recipient), bytes32(0), "");
  }

  function acrossFill(address token, uint256 amount, uint256 originChainId, uint256 depositId, address depositor,
    address recipient) external {
    IBridgedToken(token).transferFrom(msg.sender, recipient, amount);
    RelayExecutionEventInfo memory info = RelayExecutionEventInfo(w(recipient), bytes32(0), amount, 0);
    emit FilledRelay(w(token), w(token), amount, amount, block.chainid, originChainId, depositId,
      uint32(block.timestamp + 3600), 0, bytes32(0), w(msg.sender), w(depositor), w(recipient), bytes32(0), info);
  }

  function cctpBurn(address token, uint256 amount, uint32 destinationDomain, address mintRecipient) external {
    IBridgedToken(token).transferFrom(msg.sender, address(this), amount);
    uint64 n = nonce++;
    bytes memory body = abi.encodePacked(uint32(0), w(token), w(mintRecipient), amount, w(msg.sender));
    emit MessageSent(abi.encodePacked(uint32(0), domain, destinationDomain, n, w(address(this)), w(address(this)),
      bytes32(0), body));
    emit DepositForBurn(n, token, amount, msg.sender, w(mintRecipient), destinationDomain, w(address(this)),
      bytes32(0));
  }

  function cctpReceive(address token, address remoteToken, uint32 sourceDomain, uint64 sourceNonce,
    address depositor, address recipient, uint256 amount) external {
    IBridgedToken(token).mint(recipient, amount);
    emit MintAndWithdraw(recipient, amount, token);
    emit MessageReceived(msg.sender, sourceDomain, sourceNonce, w(address(this)),
      abi.encodePacked(uint32(0), w(remoteToken), w(recipient), amount, w(depositor)));
  }

  function oftSend(address token, uint256 amount, uint32 dstEid) external {
    IBridgedToken(token).transferFrom(msg.sender, address(this), amount);
    bytes32 guid = keccak256(abi.encodePacked(block.chainid, nonce++));
    emit OFTSent(guid, dstEid, msg.sender, amount, amount);
  }

  /// As an OFT adapter: it pays the recipient the underlying token it holds (minted to it here first).
  function oftReceive(address token, bytes32 guid, uint32 srcEid, address to, uint256 amount) external {
    IBridgedToken(token).mint(address(this), amount);
    IBridgedToken(token).transfer(to, amount);
    emit OFTReceived(guid, srcEid, to, amount);
  }
}

/// Emits a token Transfer and then reverts: the log must not be stored.
contract RevertAfterLog {
  event Transfer(address indexed from, address indexed to, uint256 value);

  function go(address to) external {
    emit Transfer(address(0), to, 1);
    revert("after log");
  }
}
`;

export type ContractName =
  | "TestToken"
  | "Bytes32Token"
  | "BareToken"
  | "TestNft"
  | "Vault"
  | "Refuser"
  | "RevertAfterLog"
  | "BridgeStandIn";

export type Compiled = Record<ContractName, { abi: Abi; bytecode: `0x${string}` }>;

let compiled: Compiled | undefined;

export function contracts(): Compiled {
  if (compiled) return compiled;
  const hash = crypto.createHash("sha256").update(SOURCE).digest("hex").slice(0, 16);
  const cacheFile = path.join(os.tmpdir(), `vigia-test-contracts-${hash}.json`);
  try {
    compiled = JSON.parse(fs.readFileSync(cacheFile, "utf8")) as Compiled;
    return compiled;
  } catch {}
  const require = createRequire(import.meta.url);
  const solc = require("solc") as { compile(input: string): string };
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { "Test.sol": { content: SOURCE } },
        settings: {
          evmVersion: "paris",
          optimizer: { enabled: true, runs: 200 },
          outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
        },
      }),
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const result = {} as Compiled;
  for (const [name, contract] of Object.entries(output.contracts["Test.sol"] ?? {})) {
    result[name as ContractName] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  }
  const temporary = `${cacheFile}.${process.pid}`;
  fs.writeFileSync(temporary, JSON.stringify(result));
  fs.renameSync(temporary, cacheFile);
  compiled = result;
  return result;
}
