// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.28;

/// The devnet's demo ERC-20 (USDV, TKN): metadata set in the constructor, no minting. Balances are seeded with
/// anvil_setStorageAt, so the storage layout is part of the interface and must not change:
///   slot 0: balanceOf (mapping: balance of A at keccak256(abi.encode(A, 0)))
///   slot 1: allowance (mapping of mappings)
///   slot 2: totalSupply
contract DemoToken {
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(address => uint256)) public allowance;
  uint256 public totalSupply;
  string public name;
  string public symbol;
  uint8 public immutable decimals;

  event Transfer(address indexed from, address indexed to, uint256 value);
  event Approval(address indexed owner, address indexed spender, uint256 value);

  constructor(string memory name_, string memory symbol_, uint8 decimals_) {
    name = name_;
    symbol = symbol_;
    decimals = decimals_;
  }

  function transfer(address to, uint256 value) external returns (bool) {
    _transfer(msg.sender, to, value);
    return true;
  }

  function approve(address spender, uint256 value) external returns (bool) {
    allowance[msg.sender][spender] = value;
    emit Approval(msg.sender, spender, value);
    return true;
  }

  function transferFrom(address from, address to, uint256 value) external returns (bool) {
    uint256 allowed = allowance[from][msg.sender];
    if (allowed != type(uint256).max) {
      require(allowed >= value, "DemoToken: allowance");
      allowance[from][msg.sender] = allowed - value;
    }
    _transfer(from, to, value);
    return true;
  }

  function _transfer(address from, address to, uint256 value) private {
    require(to != address(0), "DemoToken: transfer to the zero address");
    uint256 balance = balanceOf[from];
    require(balance >= value, "DemoToken: balance");
    unchecked {
      balanceOf[from] = balance - value;
    }
    balanceOf[to] += value;
    emit Transfer(from, to, value);
  }
}
