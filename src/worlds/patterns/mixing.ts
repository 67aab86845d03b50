// Mixing (docs/risk-model.md): funds of the analysed address reach or come from an address labelled mixer within the
// analysed depth; confidence falls with each hop.
// False friend: an address active at the same time as a mixer deposit that never touches the pool's funds.
import type { Rng } from "../../platform/rng.ts";
import type { Services } from "../services.ts";
import { HOUR, type World } from "../world.ts";

export function mixing(world: World, services: Services, rng: Rng, id: string, start: number): void {
  const user = world.account(`${id}.user`);
  const variant = rng.int(0, 2);
  const oneEth = 10n ** 18n;
  world.sendUsd(world.account(`${id}.income`), user, "ETH", 12_000, start - 2 * HOUR);
  if (variant === 0) {
    // Deposits of the pool's fixed denomination.
    for (let i = 0; i < rng.int(1, 3); i++) world.send(user, services.mixer, "ETH", oneEth, start + i * HOUR);
  } else if (variant === 1) {
    // Withdrawal from the pool into a fresh address, which then pays the user.
    const fresh = world.account(`${id}.fresh`);
    world.send(services.mixer, fresh, "ETH", oneEth, start);
    world.send(fresh, user, "ETH", (oneEth * 95n) / 100n, start + HOUR);
  } else {
    // Two hops: the user funds an intermediary that deposits into the pool.
    const mule = world.account(`${id}.mule`);
    world.send(user, mule, "ETH", oneEth * 2n, start);
    world.send(mule, services.mixer, "ETH", oneEth, start + HOUR);
    world.send(mule, services.mixer, "ETH", oneEth, start + 2 * HOUR);
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
