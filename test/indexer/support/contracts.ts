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
  | "RevertAfterLog";

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
