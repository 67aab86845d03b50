// Exchange hopping (docs/risk-model.md): funds pass through deposit or hot wallets of >= 2 distinct exchanges within
// 72 hours, without resting more than 72 hours at any step. One generator of the hops for the devnet's demo and
// the eval's world (eval/world/cases/exchange-hopping.ts draws its own rests and shares and gives the hopper a life).
// False friends: a single deposit to one exchange (and, later, an unrelated one weeks apart); near misses: a
// second exchange after four to six days' rest, and one exchange used twice within hours.
import type { Rng } from "../../platform/rng.ts";
import type { Exchange, Services } from "../services.ts";
import { type Account, DAY, HOUR, type TokenSymbol, type World } from "../world.ts";

export interface ExchangeHops {
  hopper: Account;
  /** the exchanges in the order the funds pass through them (at least two) */
  exchanges: readonly Exchange[];
  /** whose deposit address at each exchange receives the funds (Exchange.depositFor) */
  customer: string;
  token: TokenSymbol;
  /** the first deposit, in USD */
  usd: number;
  start: number;
  /** the funds start as a withdrawal from the first exchange (bought there), not as a deposit into it */
  startsWithWithdrawal?: boolean;
  /** seconds from a deposit to the exchange's withdrawal back to the hopper */
  untilWithdrawal: () => number;
  /** share of a deposit the exchange pays back out */
  withdrawn: () => number;
  /** seconds from a withdrawal (or the last own wallet's receipt) to the deposit into the next exchange */
  untilDeposit: () => number;
  /** share of a withdrawal (or of the last own wallet's receipt) deposited into the next exchange */
  deposited: () => number;
  /**
   * The user's wallets the funds pass through between exchange `i`'s withdrawal and exchange `i + 1`'s deposit, in
   * order: the first receives the withdrawal, each pays the next, the last deposits (default: the hopper alone).
   */
  via?: (i: number) => readonly Account[];
  /** seconds a wallet of `via` holds the funds before paying the next one, and the share it passes on */
  untilForward?: () => number;
  forwarded?: () => number;
}

/**
 * Plays the hops: the hopper deposits into the first exchange, and each exchange but the last pays the funds back
 * out to the hopper (or to the first of the wallets `via` names, which pass them on, each to the next), which
 * deposits them into the next one. Returns the time of the last deposit.
 */
export function hopExchanges(world: World, h: ExchangeHops): number {
  let usd = h.usd;
  let t = h.start;
  let depositor = h.hopper;
  for (const [i, ex] of h.exchanges.entries()) {
    if (i > 0 || !h.startsWithWithdrawal)
      world.sendUsd(depositor, ex.depositFor(h.customer), h.token, usd, t);
    if (i === h.exchanges.length - 1) break;
    const wallets = h.via?.(i) ?? [h.hopper];
    t += h.untilWithdrawal();
    usd *= h.withdrawn();
    world.sendUsd(ex.hot, wallets[0] ?? h.hopper, h.token, usd, t);
    for (let w = 1; w < wallets.length; w++) {
      t += (h.untilForward ?? h.untilDeposit)();
      usd *= (h.forwarded ?? h.deposited)();
      world.sendUsd(wallets[w - 1] as Account, wallets[w] as Account, h.token, usd, t);
    }
    depositor = wallets.at(-1) ?? h.hopper;
    t += h.untilDeposit();
    usd *= h.deposited();
  }
  return t;
}

/** The devnet's instance: a funded wallet hopping through two or three exchanges in ETH (or `token`). */
export function exchangeHopping(
  world: World,
  services: Pick<Services, "exchanges">,
  rng: Rng,
  id: string,
  start: number,
  token: TokenSymbol = "ETH",
): void {
  const hopper = world.account(`${id}.hopper`);
  const count = rng.int(2, 3);
  const exchanges = [...services.exchanges].sort(() => rng.next() - 0.5).slice(0, count);
  const usd = rng.between(3_000, 60_000);
  world.sendUsd(world.account(`${id}.source`), hopper, token, usd * 1.05, start - rng.between(HOUR, DAY));
  hopExchanges(world, {
    hopper,
    exchanges,
    customer: id,
    token,
    usd,
    start,
    untilWithdrawal: () => rng.between(2 * HOUR, 40 * HOUR),
    withdrawn: () => 0.99,
    untilDeposit: () => rng.between(HOUR, 20 * HOUR),
    deposited: () => 1,
  });
  world.addCase({
    id,
    pattern: "exchange_hopping",
    positive: true,
    subject: hopper.address,
    involved: [hopper.address],
    note: exchanges.map((e) => e.name).join(" -> "),
  });
}

export function exchangeHoppingFalseFriend(
  world: World,
  services: Services,
  rng: Rng,
  id: string,
  start: number,
): void {
  const variant = rng.int(0, 2);
  const saver = world.account(`${id}.saver`);
  const [first, second] = [...services.exchanges].sort(() => rng.next() - 0.5);
  if (!first || !second) throw new Error("need two exchanges");
  const usd = rng.between(1_500, 30_000);
  world.sendUsd(world.account(`${id}.salary`), saver, "ETH", usd * 2.5, start - DAY);
  if (variant === 0) {
    world.sendUsd(saver, first.depositFor(id), "ETH", usd, start);
    // A second exchange, but three weeks later: funds rested far longer than 72 hours.
    world.sendUsd(saver, second.depositFor(id), "ETH", usd * 0.7, start + 21 * DAY + rng.between(0, DAY));
  } else if (variant === 1) {
    // Just outside on time: out of one exchange, then four to six days' rest before the second one.
    const deposit = first.depositFor(id);
    world.sendUsd(saver, deposit, "ETH", usd, start);
    const back = start + rng.between(6 * HOUR, DAY);
    world.sendUsd(first.hot, saver, "ETH", usd * 0.99, back);
    world.sendUsd(saver, second.depositFor(id), "ETH", usd * 0.98, back + rng.between(4 * DAY, 6 * DAY));
  } else {
    // Just outside on the count: in and out of one exchange twice within hours (one exchange, not two).
    let t = start;
    for (const suffix of ["", ".2"]) {
      const deposit = first.depositFor(`${id}${suffix}`);
      world.sendUsd(saver, deposit, "ETH", usd, t);
      t += rng.between(2 * HOUR, 20 * HOUR);
      world.sendUsd(first.hot, saver, "ETH", usd * 0.99, t);
      t += rng.between(HOUR, 10 * HOUR);
    }
  }
  world.addCase({
    id,
    pattern: "exchange_hopping",
    positive: false,
    subject: saver.address,
    involved: [saver.address],
    note:
      [
        "deposits to two exchanges three weeks apart",
        "a second exchange after four to six days' rest",
        "in and out of one exchange twice",
      ][variant] ?? "",
  });
}
