// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.28;

interface ITransfer {
  function transfer(address to, uint256 amount) external returns (bool);
}

/// The devnet's DEX: one pool in one contract, ETH in and a demo token out, paid to any recipient, as a Uniswap
/// V2 router and pair pay a swap's recipient. The amount out is the caller's (the scenario's plan fixes prices from
/// its own price table); the pool pays it from its token balance, which the devnet seeds with anvil_setStorageAt
/// like every other balance, and keeps the ETH. No constructor and no storage: the devnet installs the runtime
/// code at the pool's address with anvil_setCode.
contract DemoSwap {
  /// Uniswap V2's Swap event's shape is not needed by the service (it reads the Transfer events); this one says
  /// what happened for anyone reading the devnet's logs.
  event Swap(address indexed sender, address indexed recipient, address token, uint256 amountIn, uint256 amountOut);

  function swapExactETHForTokens(address token, address recipient, uint256 amountOut) external payable {
    require(msg.value > 0, "no ETH in");
    require(ITransfer(token).transfer(recipient, amountOut), "token transfer failed");
    emit Swap(msg.sender, recipient, token, msg.value, amountOut);
  }
}
