// A Vigía worker process for the test that kills a transfer checker mid-check (`node bin/run-ts.js` this file): the
// real service (no HTTP, no workers of its own) and a transfer checker with a short lease, so that the transfers a
// killed process had claimed are taken over quickly by the next one.
// Environment: CHILD_DATABASE_URL + CHILD_SCHEMA (PostgreSQL) or CHILD_DATA_DIR (PGlite); CHILD_CHAINS (with chain
// 31337); CHILD_LEASE_MS; CHILD_SETUP=N creates a project whose integration_url is CHILD_INTEGRATOR, with N users
// who each receive two transfers over Colombia's USD 150.
// Prints JSON lines: {"event":"ready"}, {"event":"checking"}, {"event":"done","evaluated","notifications","checked"}.
import { ProfileReader } from "../../../src/integrator/index.ts";
import { createProject } from "../../../src/keys/index.ts";
import { TransferChecker } from "../../../src/monitoring/index.ts";
import { OutboundClient } from "../../../src/platform/outbound/index.ts";
import { updateProject } from "../../../src/projects/index.ts";
import { say, startChildService } from "../../support/child-service.ts";
import { MonitoredChain } from "../../support/monitored-chain.ts";

const CHAIN = 31337;
const DAY = "2026-03-10";
const ETH = 10n ** 18n;
const env = process.env;
const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

const service = await startChildService();
const db = service.database.db;

if (env.CHILD_SETUP) {
  const actor = { kind: "cli" } as const;
  const { projectId } = await createProject(service.keys, { name: "Kill test" }, actor);
  await updateProject(
    service.projects,
    projectId,
    { integration_url: env.CHILD_INTEGRATOR as string, jurisdictions: ["CO"] },
    actor,
  );
  await db
    .insertInto("prices")
    .values({ chain_id: CHAIN, token: "native", day: DAY, price_usd: "3000" })
    .execute();
  const chain = new MonitoredChain(db, CHAIN);
  await chain.block(new Date(`${DAY}T09:00:00Z`), []);
  const users = Number(env.CHILD_SETUP);
  for (let u = 1; u <= users; u++)
    await db
      .insertInto("monitored_addresses")
      .values({
        project_id: projectId,
        chain_id: CHAIN,
        address: addr(u),
        foreign_user_id: `user${u}`,
        watch_from_block: "1",
      })
      .execute();
  // Two transfers of USD 300 to each user, in two blocks.
  for (const hour of ["10", "11"])
    await chain.block(
      new Date(`${DAY}T${hour}:00:00Z`),
      Array.from({ length: users }, (_, i) => ({
        from: addr(0x9000 + i),
        to: addr(i + 1),
        value: ETH / 10n,
      })),
    );
  say({ event: "ready" });
}

let checked = 0;
const checker = new TransferChecker({
  db,
  registry: service.registry,
  profiles: new ProfileReader({
    ...service.integrator,
    outbound: new OutboundClient({ allowPrivate: true }),
  }),
  leaseMs: Number(env.CHILD_LEASE_MS || 3_000),
  slots: 4,
  perProject: 4,
  onChecked: () => {
    checked++;
  },
});
say({ event: "checking" });
for (;;) {
  if ((await checker.runOnce()) > 0) continue;
  const pending = await db
    .selectFrom("monitored_transfers")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  if (Number(pending.n) === 0) break;
  await new Promise((r) => setTimeout(r, 200)); // a lease of a killed process still running out
}
const evaluated = await db
  .selectFrom("monitored_transfers")
  .select((eb) => eb.fn.countAll<string>().as("n"))
  .where("status", "=", "evaluated")
  .executeTakeFirstOrThrow();
const notifications = await db
  .selectFrom("notifications")
  .select((eb) => eb.fn.countAll<string>().as("n"))
  .executeTakeFirstOrThrow();
say({ event: "done", evaluated: Number(evaluated.n), notifications: Number(notifications.n), checked });
await service.close();
