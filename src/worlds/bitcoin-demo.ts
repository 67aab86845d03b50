// The Bitcoin devnet's demo world: what an AML service sees on Bitcoin, written for regtest (bcrt1… addresses) from
// a fixed seed. Ordinary users withdraw from exchanges and pay merchants and each other with change to fresh
// addresses, as Bitcoin wallets do; merchants reuse one address; three exchanges (labelled hot wallets) pay
// withdrawals in batches and sweep their customers' unlabelled deposit addresses. Injected into that traffic, each
// in Bitcoin's own shape:
//   - sanctions exposure at 1, 2 and 3 hops from a labelled sanctioned address, and by cluster: an address spent
//     together with one the sanctioned address paid;
//   - mixing: a user's coins in a WabiSabi round of 30 inputs (standard denominations, largest first in and out);
//   - a peel chain of 6 hops, each one transaction peeling 2-7 % to an exchange deposit and keeping the rest as
//     change on a fresh address;
//   - structuring: four payers each paying one collector USD 9,200-9,800 within four days;
//   - exchange hopping: a withdrawal from Kraken deposited whole at Bitso five hours later;
// and false friends the detectors must leave alone: a user paying two merchants in a week (two hops of the peel
// shape), a customer depositing back at the exchange it withdrew from, a merchant paid many small amounts.
import { Rng } from "../platform/rng.ts";
import { WABISABI_DENOMINATIONS } from "../risk/index.ts";
import {
  BitcoinWorld,
  type BtcCoin,
  BtcExchange,
  type BtcOutput,
  type BtcWallet,
  SATS_PER_BTC,
  satsForUsd,
} from "./bitcoin-world.ts";
import { DAY, HOUR } from "./world.ts";

/** 2024-01-01T00:00:00Z, as the other devnets' scenarios. */
const START = Date.UTC(2024, 0, 1) / 1000;
const btc = (amount: number) => BigInt(Math.round(amount * 1e8));

/** The Bitcoin devnet's demo world (a fixed seed: the same addresses on every machine). */
export function bitcoinDevnetWorld(seed = 21): BitcoinWorld {
  const world = new BitcoinWorld("vigia-btc-devnet", "bcrt");
  const rng = new Rng(seed);
  const [bitso, binance, kraken] = ["Bitso", "Binance", "Kraken"].map((n) => new BtcExchange(world, n)) as [
    BtcExchange,
    BtcExchange,
    BtcExchange,
  ];
  const exchanges = [bitso, binance, kraken];
  // Everything happens in time order: each step is put on the world's agenda, played at the end.
  const on = (at: number, run: () => void) => world.schedule(at, run);
  const sanctioned = world.wallet("sanctioned.lazarus");
  const sanctionedAddress = sanctioned.fresh();
  world.label(sanctionedAddress, "OFAC SDN: Lazarus Group (devnet)", "sanctioned");

  // Day 0: a pool mines and pays the exchanges; the sanctioned address is funded by a theft from an exchange.
  const pool = world.wallet("pool.f2pool");
  const poolAddress = pool.fresh();
  for (let i = 0; i < 60; i++) world.mine(START + i * 600, poolAddress, btc(6.25));
  for (const [i, exchange] of exchanges.entries()) {
    pool.pay(START + 11 * HOUR + i * 600, [{ address: exchange.hotAddress, value: btc(110) }], {
      changeTo: poolAddress,
    });
  }
  binance.withdraw(START + 13 * HOUR, [{ address: sanctionedAddress, value: btc(6) }]);

  // Ordinary life, days 1-45: users, merchants, deposits, withdrawals, daily sweeps.
  const merchants = ["cafe", "electronics", "travel"].map((n) => {
    const wallet = world.wallet(`merchant.${n}`);
    return { wallet, address: wallet.fresh(), home: rng.pick(exchanges) };
  });
  const users = Array.from({ length: 30 }, (_, i) => ({
    wallet: world.wallet(`user.${String(i).padStart(2, "0")}`),
    home: rng.pick(exchanges),
  }));
  for (const [i, exchange] of exchanges.entries()) {
    const customers = users.filter((u) => u.home === exchange);
    on(START + DAY + i * HOUR, () =>
      exchange.withdraw(
        START + DAY + i * HOUR,
        customers.map((u) => ({ address: u.wallet.fresh(), value: btc(rng.between(0.05, 1.5)) })),
      ),
    );
  }
  for (let day = 2; day <= 45; day++) {
    for (let k = 0; k < 5; k++) {
      const at = START + day * DAY + rng.int(0, 22 * HOUR);
      on(at, () => ordinaryStep(at));
    }
    if (day % 7 === 0) {
      for (const merchant of merchants) {
        const at = START + day * DAY + 20 * HOUR;
        on(at, () => {
          if (merchant.wallet.balance() > btc(0.01))
            merchant.wallet.sendAll(at, merchant.home.depositFor(merchant.wallet.name));
        });
      }
    }
    for (const [i, exchange] of exchanges.entries()) {
      const at = START + day * DAY + 23 * HOUR + i * 600;
      on(at, () => exchange.sweep(at));
    }
  }
  function ordinaryStep(at: number): void {
    const user = rng.pick(users);
    const balance = user.wallet.balance();
    const roll = rng.next();
    if (balance < btc(0.01)) {
      user.home.withdraw(at, [{ address: user.wallet.fresh(), value: btc(rng.between(0.05, 0.6)) }]);
    } else if (roll < 0.55) {
      const merchant = rng.pick(merchants);
      pay(user.wallet, at, merchant.address, share(balance, rng.between(0.01, 0.3)));
    } else if (roll < 0.75) {
      const payee = rng.pick(users.filter((u) => u !== user));
      pay(user.wallet, at, payee.wallet.fresh(), share(balance, rng.between(0.05, 0.5)));
    } else {
      pay(user.wallet, at, user.home.depositFor(user.wallet.name), share(balance, rng.between(0.2, 0.9)));
    }
  }
  const addCase = (id: string, pattern: string, subject: string, note: string, positive = true) =>
    world.cases.push({ id, pattern, positive, subject, involved: [subject], note });

  // Sanctions exposure: the sanctioned address pays a wallet, which pays on 90%, which pays on 80%.
  const hops = ["sanctions.hop1", "sanctions.hop2", "sanctions.hop3"].map((n) => world.wallet(n)) as [
    BtcWallet,
    BtcWallet,
    BtcWallet,
  ];
  const [hop1, hop2, hop3] = hops.map((w) => w.fresh()) as [string, string, string];
  // The sanctioned address keeps its change (as the addresses on OFAC's list mostly do: they are reused).
  const fromSanctioned = { changeTo: sanctionedAddress };
  on(START + 10 * DAY, () =>
    sanctioned.pay(START + 10 * DAY, [{ address: hop1, value: btc(2) }], fromSanctioned),
  );
  on(START + 11 * DAY, () => hops[0].pay(START + 11 * DAY, [{ address: hop2, value: btc(1.8) }]));
  on(START + 12 * DAY, () => hops[1].pay(START + 12 * DAY, [{ address: hop3, value: btc(1.44) }]));
  for (const [i, subject] of [hop1, hop2, hop3].entries()) {
    addCase(
      `btc-sanctions-${i + 1}`,
      "sanctions_exposure",
      subject,
      `${i + 1} hop${i ? "s" : ""} from a sanctioned address`,
    );
  }

  // Mixing: a user who spent two coins together (their addresses are one cluster), was paid again at one of them
  // and took its coins into a WabiSabi round of 30 participants, then deposited a post-mix coin at Bitso.
  const mixer = world.wallet("mixing.user");
  const earlier = mixer.fresh();
  const entering = mixer.fresh();
  const others = Array.from({ length: 28 }, (_, i) => world.wallet(`coinjoin.peer.${i}`));
  on(START + 13 * DAY, () =>
    binance.withdraw(START + 13 * DAY, [
      { address: earlier, value: btc(0.3) },
      { address: entering, value: btc(0.2) },
    ]),
  );
  on(START + 13 * DAY + 6 * HOUR, () =>
    mixer.pay(START + 13 * DAY + 6 * HOUR, [{ address: merchants[2]!.address, value: btc(0.4) }], {
      coins: [...mixer.coins],
    }),
  );
  on(START + 14 * DAY, () => binance.withdraw(START + 14 * DAY, [{ address: entering, value: btc(0.8) }]));
  on(START + 14 * DAY + HOUR, () =>
    kraken.withdraw(
      START + 14 * DAY + HOUR,
      others.map((w) => ({ address: w.fresh(), value: btc(rng.between(0.05, 2)) })),
    ),
  );
  on(START + 15 * DAY, () => wabiSabiRound(world, START + 15 * DAY, [mixer, ...others]));
  on(START + 16 * DAY, () => {
    const postMix = mixer.coins[0] as BtcCoin;
    mixer.pay(START + 16 * DAY, [{ address: bitso.depositFor(mixer.name), value: postMix.value - 2_000n }], {
      coins: [postMix],
    });
  });
  addCase("btc-mixing", "mixing", entering, "its coins in a WabiSabi round of 30 inputs");

  // Exposure by cluster: a wallet paid at one address by the sanctioned address and at another by an exchange
  // spends both coins together; the second address never received a sanctioned coin, but its owner holds them.
  const holder = world.wallet("cluster.holder");
  const tainted = holder.fresh();
  const clean = holder.fresh();
  on(START + 18 * DAY, () =>
    sanctioned.pay(START + 18 * DAY, [{ address: tainted, value: btc(0.5) }], fromSanctioned),
  );
  on(START + 18 * DAY + HOUR, () =>
    kraken.withdraw(START + 18 * DAY + HOUR, [{ address: clean, value: btc(0.4) }]),
  );
  on(START + 19 * DAY, () =>
    holder.pay(START + 19 * DAY, [{ address: merchants[1]!.address, value: btc(0.6) }], {
      coins: [...holder.coins],
    }),
  );
  addCase(
    "btc-cluster",
    "sanctions_exposure",
    clean,
    "spent together with an address a sanctioned address paid",
  );

  // A peel chain: 12 BTC withdrawn, six hops each peeling 2-7 % to an exchange deposit, the rest to fresh change.
  const peeler = world.wallet("peel.chain");
  const peelStart = peeler.fresh();
  on(START + 20 * DAY, () => binance.withdraw(START + 20 * DAY, [{ address: peelStart, value: btc(12) }]));
  let peelAt = START + 20 * DAY + 2 * HOUR;
  for (let hop = 0; hop < 6; hop++) {
    const at = peelAt;
    const target = (rng.pick(exchanges) as BtcExchange).depositFor(`peel.${hop}`);
    const fraction = rng.between(0.02, 0.07);
    on(at, () => {
      const coin = peeler.coins[0] as BtcCoin;
      peeler.pay(at, [{ address: target, value: share(coin.value, fraction) }], { coins: [coin] });
    });
    peelAt += rng.int(3 * HOUR, 20 * HOUR);
  }
  addCase("btc-peel", "peel_chain", peelStart, "6 hops, each one transaction");

  // Structuring: four payers, each withdrawn from an exchange, pay one collector just under USD 10,000 each.
  const collector = world.wallet("structuring.collector");
  const collected = collector.fresh();
  for (let i = 0; i < 4; i++) {
    const payer = world.wallet(`structuring.payer.${i}`);
    const payerAddress = payer.fresh();
    const at = START + 25 * DAY + i * DAY + rng.int(0, 6 * HOUR);
    const usd = rng.between(9_200, 9_800);
    const exchange = exchanges[i % 3] as BtcExchange;
    on(at - 3 * HOUR, () => exchange.withdraw(at - 3 * HOUR, [{ address: payerAddress, value: btc(0.3) }]));
    on(at, () => payer.pay(at, [{ address: collected, value: satsForUsd(usd, at) }]));
  }
  on(START + 30 * DAY, () => collector.sendAll(START + 30 * DAY, bitso.depositFor(collector.name)));
  addCase("btc-structuring", "structuring", collected, "4 x ~9,500 USD received");

  // Exchange hopping: withdrawn from Kraken, deposited whole at Bitso five hours later.
  const hopper = world.wallet("hopping.user");
  const hopperAddress = hopper.fresh();
  on(START + 33 * DAY, () =>
    kraken.withdraw(START + 33 * DAY, [{ address: hopperAddress, value: btc(1.5) }]),
  );
  on(START + 33 * DAY + 5 * HOUR, () =>
    hopper.sendAll(START + 33 * DAY + 5 * HOUR, bitso.depositFor(hopper.name)),
  );
  addCase("btc-hopping", "exchange_hopping", hopperAddress, "Kraken -> Bitso");
  addCase("btc-sanctioned", "sanctioned", sanctionedAddress, "labelled sanctioned in the devnet's labels");

  // False friends: two payments in a week (two hops of the peel shape), a deposit back where the coins came from,
  // a merchant paid many small amounts.
  const shopper = world.wallet("friend.shopper");
  const shopperAddress = shopper.fresh();
  const [cafe, electronics] = merchants as [(typeof merchants)[number], (typeof merchants)[number]];
  on(START + 36 * DAY, () =>
    bitso.withdraw(START + 36 * DAY, [{ address: shopperAddress, value: btc(0.9) }]),
  );
  on(START + 37 * DAY, () => pay(shopper, START + 37 * DAY, cafe.address, btc(0.01)));
  on(START + 40 * DAY, () => pay(shopper, START + 40 * DAY, electronics.address, btc(0.05)));
  addCase(
    "btc-friend-shopper",
    "peel_chain",
    shopperAddress,
    "two payments in a week, change to fresh addresses",
    false,
  );
  const saver = world.wallet("friend.saver");
  const saverAddress = saver.fresh();
  on(START + 38 * DAY, () => kraken.withdraw(START + 38 * DAY, [{ address: saverAddress, value: btc(0.7) }]));
  on(START + 38 * DAY + 4 * HOUR, () =>
    saver.sendAll(START + 38 * DAY + 4 * HOUR, kraken.depositFor(saver.name)),
  );
  addCase(
    "btc-friend-saver",
    "exchange_hopping",
    saverAddress,
    "withdrawn from Kraken, deposited back at Kraken",
    false,
  );
  addCase("btc-friend-merchant", "structuring", cafe.address, "a merchant paid many small amounts", false);

  world.play();
  return world;
}

const share = (value: bigint, fraction: number) => (value * BigInt(Math.round(fraction * 1e6))) / 1_000_000n;

/** A payment of `value` (at least 10,000 sats) from the wallet, when it holds enough. */
function pay(wallet: BtcWallet, at: number, address: string, value: bigint): void {
  if (value < 10_000n || wallet.balance() < value + 10_000n) return;
  wallet.pay(at, [{ address, value }]);
}

/**
 * A WabiSabi round: each participant's coins in, its amount less a 0.3 % coordination fee split greedily into the
 * standard denominations (to fresh addresses of its own), inputs and outputs ordered largest first as the
 * coordinator signs them.
 */
function wabiSabiRound(world: BitcoinWorld, at: number, participants: BtcWallet[]): void {
  const denominations = [...WABISABI_DENOMINATIONS]
    .filter((v) => v <= 20n * SATS_PER_BTC)
    .sort((a, b) => (a < b ? 1 : -1));
  const inputs: BtcCoin[] = [];
  const outputs: BtcOutput[] = [];
  for (const wallet of participants) {
    const coins = wallet.coins.splice(0);
    inputs.push(...coins);
    let left = (coins.reduce((n, c) => n + c.value, 0n) * 997n) / 1000n;
    for (const d of denominations) {
      while (left >= d && outputs.length < 400) {
        outputs.push({ address: wallet.fresh(), value: d });
        left -= d;
      }
    }
  }
  const desc = <T extends { value: bigint }>(a: T, b: T) =>
    a.value < b.value ? 1 : a.value > b.value ? -1 : 0;
  world.transact(at, inputs.sort(desc), outputs.sort(desc));
}
