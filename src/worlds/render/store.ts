// Writes a scenario World (src/worlds: devnetWorld, benchmarkWorld) into the chain data store, as an import
// would: its transfers on one chain (deterministic transaction hashes and block numbers), its labels (source
// `scenario:<namespace>`), token metadata, daily USD prices from the scenario's priceOn, and the mixers as
// contracts. Token addresses and values match src/worlds/render/graph.ts, so the store gives the graphs the
// risk core's own scenario tests reason about. For HTTP end-to-end tests and `npm run eval`. Idempotent.
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { afterExchangeLabelChange } from "../../attribution/index.ts";
import { insertTransfers, markContracts, type TransferRow, upsertTokens } from "../../chains/store/index.ts";
import { LabelStage } from "../../ingest/labels/index.ts";
import type { DB } from "../../schema.ts";
import { DAY, TOKENS, type TokenSymbol, transactionsOf, type World } from "../world.ts";
import { type ChainTokens, EVM_TOKENS } from "./chain-tokens.ts";

const BATCH = 5_000;

export interface WorldStoreSummary {
  transfers: number;
  labels: number;
  prices: number;
}

export async function writeWorldToStore(
  db: Kysely<DB>,
  world: World,
  chainId: number,
  /** How the world's tokens appear on the chain (render/chain-tokens.ts): EVM's as they are, Tron's as TRX and USDT. */
  tokens: ChainTokens = EVM_TOKENS,
): Promise<WorldStoreSummary> {
  const timeline = world.timeline();
  const blockOf = new Map<number, number>();
  for (const t of timeline) if (!blockOf.has(t.at)) blockOf.set(t.at, blockOf.size + 1);
  const rows: TransferRow[] = transactionsOf(timeline).map(({ t, hashIndex, logIndex }) => ({
    chainId,
    txHash: `0x${createHash("sha256").update(`${world.namespace}:${hashIndex}`).digest("hex")}`,
    logIndex,
    blockNumber: BigInt(blockOf.get(t.at) ?? 0),
    blockTime: new Date(t.at * 1000),
    from: t.from.toLowerCase(),
    to: t.to.toLowerCase(),
    token: tokens.tokens[t.token].address,
    value: tokens.units(t.token, t.amount),
  }));
  for (let i = 0; i < rows.length; i += BATCH) await insertTransfers(db, rows.slice(i, i + BATCH));

  const source = `scenario:${world.namespace}`;
  const labelled = world.labelled();
  // Written after the transfers: the change of exchange labels then infers the deposit addresses (src/attribution).
  await afterExchangeLabelChange(db, () =>
    db.transaction().execute(async (trx) => {
      const stage = await LabelStage.create(trx);
      let line = 0;
      for (const account of labelled) {
        await stage.add(++line, {
          address: account.address.toLowerCase(),
          chainId,
          label: account.label!.label,
          category: account.label!.category,
          originalCategory: null,
          source,
          confidence: 100,
        });
      }
      return stage.merge({ replaceSources: [source] });
    }),
  );
  // Mixers are contracts even in worlds that don't say so; every account marked a contract too (routers, pools).
  const contracts = [...labelled.filter((a) => a.label?.category === "mixer"), ...world.contracts()].map(
    (a) => a.address.toLowerCase(),
  );
  if (contracts.length > 0) await markContracts(db, chainId, contracts);

  await upsertTokens(
    db,
    (["USDV", "TKN"] as const).map((symbol) => ({
      chainId,
      address: tokens.tokens[symbol].address,
      symbol: tokens.tokens[symbol].symbol,
      name: tokens.tokens[symbol].name,
      decimals: tokens.tokens[symbol].decimals,
    })),
  );

  const prices: { chain_id: number; token: string; day: string; price_usd: string }[] = [];
  if (timeline.length > 0) {
    const first = Math.floor(timeline[0]!.at / DAY) * DAY;
    const last = Math.floor(timeline[timeline.length - 1]!.at / DAY) * DAY;
    for (let day = first; day <= last; day += DAY) {
      const date = new Date(day * 1000).toISOString().slice(0, 10);
      for (const symbol of Object.keys(TOKENS) as TokenSymbol[]) {
        prices.push({
          chain_id: chainId,
          token: tokens.tokens[symbol].address,
          day: date,
          price_usd: String(tokens.price(symbol, day)),
        });
      }
    }
    for (let i = 0; i < prices.length; i += BATCH) {
      await db
        .insertInto("prices")
        .values(prices.slice(i, i + BATCH))
        .onConflict((oc) =>
          oc
            .columns(["chain_id", "token", "day"])
            .doUpdateSet((eb) => ({ price_usd: eb.ref("excluded.price_usd") })),
        )
        .execute();
    }
  }
  return { transfers: rows.length, labels: labelled.length, prices: prices.length };
}
