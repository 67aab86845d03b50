// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.28;

/// The Tron devnet's USDT: DemoToken's ERC-20 (TRC-20 on Tron) with Tether's blacklist, the part of Tether's
/// contract an AML service reads. As on Tether's TRC-20 (TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t), the owner freezes an
/// address with addBlackList, which emits AddedBlackList(address) with the address in the event's data (not
/// indexed), and a blacklisted address can no longer send. Balances are seeded with anvil_setStorageAt, so the
/// storage layout is DemoToken's and must not change:
///   slot 0: balanceOf (mapping: balance of A at keccak256(abi.encode(A, 0)))
///   slot 1: allowance (mapping of mappings)
///   slot 2: totalSupply
contract DemoTether {
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(address => uint256)) public allowance;
  uint256 public totalSupply;
  string public name;
  string public symbol;
  uint8 public immutable decimals;
  address public owner;
  mapping(address => bool) public isBlackListed;

  event Transfer(address indexed from, address indexed to, uint256 value);
  event Approval(address indexed owner, address indexed spender, uint256 value);
  // Tether's events, with their parameter names and without `indexed`, so their topics and data are Tether's.
  event AddedBlackList(address _user);
  event RemovedBlackList(address _user);

  constructor(string memory name_, string memory symbol_, uint8 decimals_) {
    name = name_;
    symbol = symbol_;
    decimals = decimals_;
    owner = msg.sender;
  }

  modifier onlyOwner() {
    require(msg.sender == owner, "DemoTether: not the owner");
    _;
  }

  function getBlackListStatus(address maker) external view returns (bool) {
    return isBlackListed[maker];
  }

  function addBlackList(address evilUser) external onlyOwner {
    isBlackListed[evilUser] = true;
    emit AddedBlackList(evilUser);
  }

  function removeBlackList(address clearedUser) external onlyOwner {
    isBlackListed[clearedUser] = false;
    emit RemovedBlackList(clearedUser);
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
      require(allowed >= value, "DemoTether: allowance");
      allowance[from][msg.sender] = allowed - value;
    }
    _transfer(from, to, value);
    return true;
  }

  function _transfer(address from, address to, uint256 value) private {
    require(!isBlackListed[from], "DemoTether: the sender is blacklisted");
    require(to != address(0), "DemoTether: transfer to the zero address");
    uint256 balance = balanceOf[from];
    require(balance >= value, "DemoTether: balance");
    unchecked {
      balanceOf[from] = balance - value;
    }
    balanceOf[to] += value;
    emit Transfer(from, to, value);
  }
}
