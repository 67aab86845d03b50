// Wash trading (patterns.md): two or more addresses send the same token back and forth at least 3 times each way
// within 7 days, amounts within 10% of each other, net flow under 10% of the gross.
// False friend: a two-way business relationship with uneven amounts.
import type { Rng } from "../rng.ts";
import { DAY, HOUR, type World } from "../world.ts";

export function washTrading(world: World, rng: Rng, id: string, start: number): void {
  const a = world.account(`${id}.trader-a`);
  const b = world.account(`${id}.trader-b`);
  const token = rng.pick(["TKN", "USDV"] as const);
  const size = rng.between(500, 20_000);
  world.sendUsd(world.account(`${id}.seed`), a, token, size * 1.3, start - HOUR);
  const rounds = rng.int(3, 6);
  const span = rng.between(12 * HOUR, 6.5 * DAY);
  for (let i = 0; i < rounds; i++) {
    const at = start + (span * i) / rounds;
    world.sendUsd(a, b, token, size * rng.between(0.97, 1.03), at);
    world.sendUsd(b, a, token, size * rng.between(0.97, 1.03), at + rng.between(10 * 60, span / rounds / 2));
  }
  world.addCase({
    id,
    pattern: "wash_trading",
    positive: true,
    subject: a.address,
    involved: [a.address, b.address],
    note: `${rounds} round trips of ~${Math.round(size)} USD in ${token}`,
  });
}

export function washTradingFalseFriend(world: World, rng: Rng, id: string, start: number): void {
  const shop = world.account(`${id}.shop`);
  const supplier = world.account(`${id}.supplier`);
  world.sendUsd(world.account(`${id}.bank`), shop, "USDV", 60_000, start - HOUR);
  // The shop pays large invoices; the supplier sends back small refunds: uneven, with a large net flow.
  for (let i = 0; i < 4; i++) {
    world.sendUsd(shop, supplier, "USDV", rng.between(5_000, 9_000), start + i * DAY);
    world.sendUsd(supplier, shop, "USDV", rng.between(100, 600), start + i * DAY + 3 * HOUR);
  }
  world.addCase({
    id,
    pattern: "wash_trading",
    positive: false,
    subject: shop.address,
    involved: [shop.address, supplier.address],
    note: "invoices and small refunds",
  });
}
