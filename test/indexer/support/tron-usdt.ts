// A USDT-like TRC-20 for the Tron indexer tests on anvil: Transfer events as Tether's token emits them, and its
// blacklist events (AddedBlackList / RemovedBlackList, the user unindexed, in the data, as on Tron mainnet).
// Compiled with solc-js (a devDependency) like support/contracts.ts, cached in the temp dir by source hash.
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { Abi } from "viem";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract TronUsdt {
  event Transfer(address indexed from, address indexed to, uint256 value);
  event AddedBlackList(address _user);
  event RemovedBlackList(address _user);
  string public name = "Tether USD";
  string public symbol = "USDT";
  uint8 public decimals = 6;
  mapping(address => uint256) public balanceOf;
  mapping(address => bool) public isBlackListed;

  function mint(address to, uint256 value) external {
    balanceOf[to] += value;
    emit Transfer(address(0), to, value);
  }

  function transfer(address to, uint256 value) external returns (bool) {
    require(!isBlackListed[msg.sender], "frozen");
    require(balanceOf[msg.sender] >= value, "balance");
    balanceOf[msg.sender] -= value;
    balanceOf[to] += value;
    emit Transfer(msg.sender, to, value);
    return true;
  }

  function addBlackList(address user) external {
    isBlackListed[user] = true;
    emit AddedBlackList(user);
  }

  function removeBlackList(address user) external {
    isBlackListed[user] = false;
    emit RemovedBlackList(user);
  }
}
`;

export interface CompiledUsdt {
  abi: Abi;
  bytecode: `0x${string}`;
}

let compiled: CompiledUsdt | undefined;

export function tronUsdt(): CompiledUsdt {
  if (compiled) return compiled;
  const hash = crypto.createHash("sha256").update(SOURCE).digest("hex").slice(0, 16);
  const cacheFile = path.join(os.tmpdir(), `vigia-test-tron-usdt-${hash}.json`);
  try {
    compiled = JSON.parse(fs.readFileSync(cacheFile, "utf8")) as CompiledUsdt;
    return compiled;
  } catch {}
  const require = createRequire(import.meta.url);
  const solc = require("solc") as { compile(input: string): string };
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { "TronUsdt.sol": { content: SOURCE } },
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
  const contract = output.contracts["TronUsdt.sol"]?.TronUsdt;
  if (!contract) throw new Error("solc gave no TronUsdt");
  const result: CompiledUsdt = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  const temporary = `${cacheFile}.${process.pid}`;
  fs.writeFileSync(temporary, JSON.stringify(result));
  fs.renameSync(temporary, cacheFile);
  compiled = result;
  return result;
}
