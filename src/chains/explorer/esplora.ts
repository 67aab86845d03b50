// Esplora's address API (Bitcoin chains, explorer_api_kind "esplora": a self-hosted electrs/Esplora, or a public
// instance such as blockstream.info/api or mempool.space/api where its terms allow): GET
// {base}/address/{address}/txs/chain, then …/txs/chain/{last txid seen}, 25 confirmed transactions a page, newest
// first (Esplora's API.md). Unconfirmed transactions are not read: a verdict rests on blocks.
//
// Each transaction comes whole, every input with the output it spends (`prevout`): it becomes transfers exactly as
// an import's (src/chains/bitcoin: each input pays each output in proportion to value, a CoinJoin through its
// mixer node), so a history fetched on demand and an export of the same blocks store the same rows. The page also
// carries the CoinJoin nodes' labels and the transactions' inputs for the address clusters.
import type { BitcoinNetwork } from "../address/index.ts";
import { type BtcPartRead, bitcoinPart, p2pkAddress, projectBitcoinTransaction } from "../bitcoin/index.ts";
import type { ExplorerSource } from "./config.ts";
import { redactUrl } from "./errors.ts";
import { ItemReader, type Json } from "./parse.ts";
import type { ExplorerGet, HistoryList, HistoryPage, ListedItem } from "./types.ts";

/** Esplora's page of confirmed transactions. */
export const ESPLORA_PAGE_SIZE = 25;
const TXID = /^[0-9a-f]{64}$/;

export function esploraLists(
  source: ExplorerSource,
  address: string,
  get: ExplorerGet,
  network: BitcoinNetwork,
): HistoryList[] {
  const root = source.baseUrl.href.replace(/\/+$/, "");
  const first = `${root}/address/${encodeURIComponent(address)}/txs/chain`;
  return [
    {
      name: "transactions",
      async *pages(signal) {
        let url: URL | null = new URL(first);
        for (let page = 1; url; page += 1) {
          const where = `explorer ${redactUrl(url)}: transactions page ${page}`;
          const response = await get(url, { signal });
          if (!Array.isArray(response.body)) {
            throw new ItemReader(where, {}).fail("the answer", "is not a list of transactions");
          }
          const txs = response.body as unknown[];
          const parsed = parsePage(txs, where, network);
          const last = parsed.lastTxid;
          url = txs.length >= ESPLORA_PAGE_SIZE && last ? new URL(`${first}/${last}`) : null;
          yield { ...parsed.page, more: url !== null };
        }
      },
    },
  ];
}

function parsePage(
  txs: unknown[],
  where: string,
  network: BitcoinNetwork,
): { page: Omit<HistoryPage, "more">; lastTxid: string | undefined } {
  const items: ListedItem[] = [];
  const mixers: NonNullable<HistoryPage["mixers"]> = [];
  const utxo: NonNullable<HistoryPage["utxo"]> = [];
  let lastTxid: string | undefined;
  for (const [index, raw] of txs.entries()) {
    const at = `${where}, item ${index}`;
    const r: ItemReader = new ItemReader(at, ItemReader.object(raw, at));
    const txid = r.item.txid;
    if (typeof txid !== "string" || !TXID.test(txid))
      return r.fail("txid", "is not a transaction id (64 hex digits)");
    lastTxid = txid;
    const status = ItemReader.object(r.item.status, `${at}: status`);
    if (status.confirmed !== true) continue; // the chain list holds confirmed ones; a stray one is not read
    const height = r.uint(status.block_height, "status.block_height");
    const seconds = r.uint(status.block_time, "status.block_time");
    const blockTime = new Date(Number(seconds) * 1000);
    const vin = r.item.vin;
    const vout = r.item.vout;
    if (!Array.isArray(vin)) r.fail("vin", "is not a list");
    if (!Array.isArray(vout)) r.fail("vout", "is not a list");
    const coinbase = vin.some((i) => (i as Json | null)?.is_coinbase === true);
    const part = (value: unknown, field: string): BtcPartRead => {
      const out = ItemReader.object(value, `${at}: ${field}`);
      const address =
        typeof out.scriptpubkey_address === "string"
          ? out.scriptpubkey_address
          : out.scriptpubkey_type === "p2pk" && typeof out.scriptpubkey === "string"
            ? p2pkAddress(out.scriptpubkey, network)
            : null;
      return bitcoinPart(
        address,
        out.scriptpubkey_type === "op_return",
        r.uint(out.value, `${field}.value`),
        network,
      );
    };
    const inputs = coinbase
      ? []
      : vin.map((i, k) => part(ItemReader.object(i, `${at}: vin[${k}]`).prevout, `vin[${k}].prevout`));
    const outputs = vout.map((o, k) => part(o, `vout[${k}]`));
    const projected = projectBitcoinTransaction({
      hash: txid,
      block: height.toString(),
      time: blockTime.toISOString(),
      coinbase,
      inputs,
      outputs,
    });
    if (projected.mixer) mixers.push(projected.mixer);
    if (projected.utxo) utxo.push(projected.utxo);
    if (projected.transfers.length === 0) items.push({ blockTime, transfer: null });
    for (const t of projected.transfers) {
      items.push({
        blockTime,
        transfer: {
          txHash: t.txHash,
          logIndex: t.logIndex,
          blockNumber: height,
          blockTime,
          from: t.from,
          to: t.to,
          token: t.token,
          value: BigInt(t.value),
        },
      });
    }
  }
  return { page: { items, tokens: [], contracts: [], mixers, utxo }, lastTxid };
}
