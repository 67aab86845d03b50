// What the registry says of a chain's coins, kept in the ledger's `tokens` at start for every enabled chain (so a
// chain configured in VIGIA_CHAINS is valued right before anything is read):
// - the native coin's decimals where they are not Ethereum's 18 (Tron's TRX has 6), under the address "native":
//   the ledger's USD formula (src/ledger/usd.ts) reads a transfer's decimals from its token row and takes 18 only
//   when there is none;
// - the chain's pegged tokens (`pegged_tokens`: USDT on Tron at USD 1), their symbol, decimals and peg, which the
//   ledger takes as the USD price on days it holds none (migrations/0030_pegged_tokens.sql).
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import { codecOfKind } from "./address/codec.ts";
import type { ChainConfig } from "./registry.ts";

const ETHEREUM_DECIMALS = 18;

interface CoinRow {
  chainId: number;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  peggedUsd: number | null;
}

/** The rows the registry's chains call for; a pegged token whose address the chain cannot read is an error. */
export function chainCoinRows(chains: readonly ChainConfig[]): CoinRow[] {
  return chains.flatMap((c) => {
    const native: CoinRow[] =
      c.currency_decimals === ETHEREUM_DECIMALS
        ? []
        : [
            {
              chainId: c.id,
              address: "native",
              symbol: c.currency_symbol,
              name: c.name,
              decimals: c.currency_decimals,
              peggedUsd: null,
            },
          ];
    const pegged = (c.pegged_tokens ?? []).map((t) => {
      const parsed = codecOfKind(c.kind).parse(t.address);
      if ("error" in parsed)
        throw new Error(
          `chain ${c.id} (${c.name}): pegged token ${JSON.stringify(t.address)} ${parsed.error}`,
        );
      return {
        chainId: c.id,
        address: parsed.address,
        symbol: t.symbol,
        name: t.symbol,
        decimals: t.decimals,
        peggedUsd: t.usd,
      };
    });
    return [...native, ...pegged];
  });
}

export async function recordChainTokens(db: Kysely<DB>, chains: readonly ChainConfig[]): Promise<void> {
  const rows = chainCoinRows(chains);
  if (rows.length === 0) return;
  // The registry is the authority on these rows: its decimals and peg replace what an indexer read earlier.
  await sql`
    INSERT INTO tokens (chain_id, address, symbol, name, decimals, pegged_usd)
    SELECT * FROM unnest(
      ${rows.map((r) => r.chainId)}::integer[],
      ${rows.map((r) => r.address)}::text[],
      ${rows.map((r) => r.symbol)}::text[],
      ${rows.map((r) => r.name)}::text[],
      ${rows.map((r) => r.decimals)}::integer[],
      ${rows.map((r) => r.peggedUsd)}::numeric[]
    )
    ON CONFLICT (chain_id, address) DO UPDATE SET
      symbol = COALESCE(tokens.symbol, excluded.symbol),
      name = COALESCE(tokens.name, excluded.name),
      decimals = excluded.decimals,
      pegged_usd = excluded.pegged_usd`.execute(db);
}
