// Mixing (docs/risk-model.md): funds of the analysed address reach or come from an address labelled mixer within the
// analysed depth; confidence falls with each hop.
// False friend: an address active at the same time as a mixer deposit that never touches the pool's funds.
// depositIntoPool and withdrawFromPool are the one way a pool's deposits and withdrawals are laid out: the devnet's
// demo below and the eval's cases (eval/world/cases/mixing.ts) both play them.
import type { Rng } from "../../platform/rng.ts";
import type { Services } from "../services.ts";
import { type Account, HOUR, type World } from "../world.ts";

const MILLI_ETH = 10n ** 15n;

/**
 * `from` -> intermediaries -> pool: each intermediary receives everything (the deposits plus a little for gas, a
 * milli-ether per hop still to go) and the last holder deposits `count` times `denomination`. `target` names the
 * address each deposit goes to (the pool, or its router); `hopWait` and `depositWait` the seconds after each
 * forward and each deposit. Returns when `from`'s own last transfer towards the pool was, and the end time.
 */
export function depositIntoPool(
  world: World,
  deposit: {
    from: Account;
    intermediaries: Account[];
    target: () => Account;
    denomination: bigint;
    count: number;
    start: number;
    hopWait: () => number;
    depositWait: () => number;
  },
): { lastOut: number; end: number } {
  const { intermediaries, denomination, count } = deposit;
  const total = denomination * BigInt(count);
  let holder = deposit.from;
  let t = deposit.start;
  let lastOut = t;
  for (const [h, next] of intermediaries.entries()) {
    world.send(holder, next, "ETH", total + BigInt(intermediaries.length - h) * MILLI_ETH, t);
    if (h === 0) lastOut = t;
    holder = next;
    t += deposit.hopWait();
  }
  for (let i = 0; i < count; i++) {
    world.send(holder, deposit.target(), "ETH", denomination, t);
    if (intermediaries.length === 0) lastOut = t;
    t += deposit.depositWait();
  }
  return { lastOut, end: t };
}

/**
 * pool -> intermediaries -> `to`: the pool pays `count` withdrawals of `amount` (the denomination less any relayer's
 * fee) to the first holder, and each holder forwards `forwardPercent()` % of what it holds to the next. Returns
 * when `to` first received, what it received and the end time.
 */
export function withdrawFromPool(
  world: World,
  withdrawal: {
    pool: Account;
    intermediaries: Account[];
    to: Account;
    amount: bigint;
    count: number;
    start: number;
    withdrawalWait: () => number;
    forwardPercent: () => number;
    hopWait: () => number;
  },
): { firstIn: number; received: bigint; end: number } {
  const { intermediaries, to } = withdrawal;
  const first = intermediaries[0] ?? to;
  let t = withdrawal.start;
  let firstIn = t;
  for (let i = 0; i < withdrawal.count; i++) {
    world.send(withdrawal.pool, first, "ETH", withdrawal.amount, t);
    t += withdrawal.withdrawalWait();
  }
  let holder = first;
  let held = withdrawal.amount * BigInt(withdrawal.count);
  for (const [h, next] of [...intermediaries.slice(1), to].entries()) {
    if (holder === to) break;
    held = (held * BigInt(withdrawal.forwardPercent())) / 100n;
    world.send(holder, next, "ETH", held, t);
    if (h === intermediaries.length - 1) firstIn = t;
    holder = next;
    t += withdrawal.hopWait();
  }
  return { firstIn, received: held, end: t };
}

export function mixing(world: World, services: Services, rng: Rng, id: string, start: number): void {
  const user = world.account(`${id}.user`);
  const variant = rng.int(0, 2);
  const oneEth = 10n ** 18n;
  world.sendUsd(world.account(`${id}.income`), user, "ETH", 12_000, start - 2 * HOUR);
  const hourly = () => HOUR;
  if (variant === 1) {
    // Withdrawal from the pool into a fresh address, which then pays the user.
    withdrawFromPool(world, {
      pool: services.mixer,
      intermediaries: [world.account(`${id}.fresh`)],
      to: user,
      amount: oneEth,
      count: 1,
      start,
      withdrawalWait: hourly,
      forwardPercent: () => 95,
      hopWait: hourly,
    });
  } else {
    // Deposits of the pool's fixed denomination, direct (variant 0) or through an intermediary the user funds
    // (variant 2: two hops).
    depositIntoPool(world, {
      from: user,
      intermediaries: variant === 2 ? [world.account(`${id}.mule`)] : [],
      target: () => services.mixer,
      denomination: oneEth,
      count: variant === 2 ? 2 : rng.int(1, 3),
      start,
      hopWait: hourly,
      depositWait: hourly,
    });
  }
  world.addCase({
    id,
    pattern: "mixing",
    positive: true,
    subject: user.address,
    involved: [user.address],
    note: ["direct deposits", "withdrawal via a fresh address", "deposits two hops away"][variant] ?? "",
  });
}

export function mixingFalseFriend(
  world: World,
  services: Services,
  rng: Rng,
  id: string,
  start: number,
): void {
  const bystander = world.account(`${id}.bystander`);
  const depositor = world.account(`${id}.depositor`);
  world.sendUsd(world.account(`${id}.income`), bystander, "ETH", 3_000, start - HOUR);
  world.sendUsd(world.account(`${id}.income2`), depositor, "ETH", 3_000, start - HOUR);
  // Same moment, unrelated funds: the depositor uses the pool, the bystander pays a shop.
  world.send(depositor, services.mixer, "ETH", 10n ** 18n, start);
  world.sendUsd(bystander, world.account(`${id}.shop`), "ETH", rng.between(50, 500), start);
  world.addCase({
    id,
    pattern: "mixing",
    positive: false,
    subject: bystander.address,
    involved: [bystander.address],
    note: "active in the same block as a mixer deposit",
  });
}
