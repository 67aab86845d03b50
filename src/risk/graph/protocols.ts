// The registry of protocol contracts the conversion reading names (graph/conversions.ts): routers, factories and
// well-known pools of decentralised exchanges, per chain, as their developers publish them. Versioned: a change
// to the list is a new PROTOCOL_REGISTRY_VERSION, which every analysis records through the scoring model's
// fingerprint of its configuration. Addresses are stored as the service stores them (lowercase 0x hex; Tron's in
// the hex form of their base58 address, which the comment beside each gives).
//
// The registry names a conversion; it does not decide one. Any contract that passes value through nets to about
// zero in the transaction and is read as an intermediary (a pool a factory created yesterday is not listed here,
// and need not be); what the registry adds is the name a reason gives ("via Uniswap V2") and the recognition of a
// router the store has never seen deploy code. Sources are in docs/risk-model.md, "Conversions".

export const PROTOCOL_REGISTRY_VERSION = "2026-11-30";

export interface ProtocolContract {
  protocol: string;
  role: string;
}

const ETHEREUM = 1;
const BNB_SMART_CHAIN = 56;
const POLYGON = 137;
const ARBITRUM = 42161;
const BASE = 8453;
const TRON = 728126428;

const entry = (protocol: string, role: string): ProtocolContract => ({ protocol, role });

// Keyed by chain and address: one address may have different roles on different chains (Uniswap's deployments).
const REGISTRY: Readonly<Record<number, Readonly<Record<string, ProtocolContract>>>> = {
  [ETHEREUM]: {
    // docs.uniswap.org, v2-deployments
    "0x7a250d5630b4cf539739df2c5dacb4c659f2488d": entry("Uniswap V2", "Router02"),
    "0x5c69bee701ef814a2b6a3edd4b1652cb9cc5aa6f": entry("Uniswap V2", "Factory"),
    // Uniswap/docs v3-ethereum-deployments; Uniswap/universal-router deploy-addresses/mainnet.json
    "0x1f98431c8ad98523631ae4a59f267346ea31f984": entry("Uniswap V3", "Factory"),
    "0xe592427a0aece92de3edee1f18e0157c05861564": entry("Uniswap V3", "SwapRouter"),
    "0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45": entry("Uniswap V3", "SwapRouter02"),
    "0x66a9893cc07d91d95644aedd05d03f95e1dba8af": entry("Uniswap", "Universal Router V2"),
    "0x4c82d1fbfe28c977cbb58d8c7ff8fcf9f70a2cca": entry("Uniswap", "Universal Router V2.1.1"),
    "0x3fc91a3afd70395cd496c647d5a6cc9d4b2b7fad": entry("Uniswap", "Universal Router V1.2"),
    "0xef1c6e67703c7bd7107eed8303fbe6ec2554bf6b": entry("Uniswap", "Universal Router V1"),
    "0x4c60051384bd2d3c01bfc845cf5f4b44bcbe9de5": entry("Uniswap", "Universal Router V1.1"),
    // @sushiswap/core README
    "0xd9e1ce17f2641f24ae83637ab66a2cca9c378b9f": entry("SushiSwap", "Router02"),
    "0xc0aee478e3658e2610c5f7a4a2e1777ce9e4f2ac": entry("SushiSwap", "Factory"),
    // curvefi/curve-contract contracts/pools/3pool; curvefi/curve-router-ng README and deployments
    "0xbebc44782c7db0a1a60cb6fe97d0b483032ff1c7": entry("Curve", "3pool"),
    "0x45312ea0eff7e09c83cbe249fa1d7598c4c8cd4e": entry("Curve", "Router NG v1.2"),
    "0x16c6521dff6bab339122a0fe25a9116693265353": entry("Curve", "Router NG v1.1"),
    "0xf0d4c12a5768d806021f80a262b4d39d26c58b8d": entry("Curve", "Router NG v1.0"),
    // 1inch/1inch-sdk-go constants/contracts.go; 0x.org contract addresses
    "0x1111111254eeb25477b68fb85ed929f73a960582": entry("1inch", "AggregationRouterV5"),
    "0x111111125421ca6dc452d289314280a0f8842a65": entry("1inch", "AggregationRouterV6"),
    "0xdef1c0ded9bec7f1a1670819833240f027b25eff": entry("0x", "Exchange Proxy"),
  },
  [BNB_SMART_CHAIN]: {
    // developer.pancakeswap.finance, v2 and v3 addresses, universal router addresses
    "0x10ed43c718714eb63d5aa57b78b54704e256024e": entry("PancakeSwap V2", "Router"),
    "0xca143ce32fe78f1f7019d7d551a6402fc5350c73": entry("PancakeSwap V2", "Factory"),
    "0x13f4ea83d0bd40e75c8222255bc855a974568dd4": entry("PancakeSwap V3", "Smart Router"),
    "0x1b81d678ffb9c0263b24a97847620c99d213eb14": entry("PancakeSwap V3", "SwapRouter"),
    "0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865": entry("PancakeSwap V3", "Factory"),
    "0x1a0a18ac4becddbd6389559687d1a73d8927e416": entry("PancakeSwap", "Universal Router"),
    "0xd9c500dff816a1da21a48a732d3498bf09dc9aeb": entry("PancakeSwap", "Infinity Universal Router"),
    "0x1111111254eeb25477b68fb85ed929f73a960582": entry("1inch", "AggregationRouterV5"),
    "0x111111125421ca6dc452d289314280a0f8842a65": entry("1inch", "AggregationRouterV6"),
    "0xdef1c0ded9bec7f1a1670819833240f027b25eff": entry("0x", "Exchange Proxy"),
  },
  [POLYGON]: {
    // Uniswap/docs v3-polygon-deployments
    "0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45": entry("Uniswap V3", "SwapRouter02"),
    "0x1095692a6237d83c6a72f3f5efedb9a670c49223": entry("Uniswap", "Universal Router V2"),
  },
  [ARBITRUM]: {
    // Uniswap/docs v3-arbitrum-deployments
    "0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45": entry("Uniswap V3", "SwapRouter02"),
    "0xa51afafe0263b40edaef0df8781ea9aa03e381a3": entry("Uniswap", "Universal Router V2"),
  },
  [BASE]: {
    // Uniswap/docs v3-base-deployments
    "0x2626664c2603336e57b271c5c0b26f421741e481": entry("Uniswap V3", "SwapRouter02"),
    "0x6ff5693b99212da76ad316178a184ab56d299b43": entry("Uniswap", "Universal Router V2"),
  },
  [TRON]: {
    // sun-protocol/SmartExchangeRouter scripts/config.js (mainnet)
    "0xeed9e56a5cddaa15ef0c42984884a8afcf1bdebb": entry("SunSwap V1", "Factory"), // TXk8rQSAvPvBBNtqSoY6nCfsXWCSSpTVQF
    "0x6e0617948fe030a7e4970f8389d4ad295f249b7e": entry("SunSwap V2", "Router"), // TKzxdSv2FZKQrEqkKVgp5DcwEXBEKMg2Ax
    "0x689abaeeed3f0bb3585773192e23224cac25dd41": entry("SunSwap V2", "Factory"), // TKWJdrQkqHisa1X8HUdHEfREvTzw4pMAaY
    // sun-protocol/sunswap-v3-contracts README
    "0xc2708485c99cd8cf058de1a9a7e3c2d8261a995c": entry("SunSwap V3", "Factory"), // TThJt8zaJzJMhCEScH7zWKnp5buVZqys9x
    "0x9bc8fbecba5d240b977b6fd4e9ac25b0012ef843": entry("SunSwap V3", "SwapRouter"), // TQAvWQpT9H916GckwWDJNhYZvQMkuRL7PN
    // docs-zh.sun.io smart routing (mainnet contract address); SmartExchangeRouter README
    "0x3c9e0ac33f138216c50638d71c344a299d0d1030": entry("SUN.io", "Smart Router"), // TFVisXFaijZfeyeSjCEVkHfex7HGdTxzF9
    "0x18ff186cb1973d4b29700f2aac6b1eec9e55ffbd": entry("SUN.io", "Smart Router"), // TCFNp179Lg46D16zKoumd4Poa2WFFdtqYj
    // sun-protocol/sunswap-universal-router README
    "0xa31d689a84244bc01be56e07aeafb7686f56bb89": entry("SunSwap", "Universal Router"), // TQqgNg13s2DjvXhW1ky4v6TsR8wZGvb7Y4
  },
};

/** The registered protocol contract at an address of a chain, if any. */
export function protocolContract(chainId: number, address: string): ProtocolContract | undefined {
  return REGISTRY[chainId]?.[address];
}

/** Every registered contract, for the docs and the tests. */
export function registeredProtocolContracts(): {
  chainId: number;
  address: string;
  contract: ProtocolContract;
}[] {
  return Object.entries(REGISTRY).flatMap(([chainId, contracts]) =>
    Object.entries(contracts).map(([address, contract]) => ({ chainId: Number(chainId), address, contract })),
  );
}
