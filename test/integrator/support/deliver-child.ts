// A Vigía worker process for the test that kills deliveries mid-run (`node bin/run-ts.js` this file): the real
// service (no HTTP, no workers of its own) and a notification deliverer with a short lease, so that the messages a
// killed process had claimed are taken over quickly by the next one.
// Environment: CHILD_DATABASE_URL + CHILD_SCHEMA (PostgreSQL) or CHILD_DATA_DIR (PGlite); CHILD_CHAINS;
// CHILD_SEND=N creates a project whose integration_url is CHILD_RECEIVER and queues N notifications.
// Prints JSON lines: {"event":"sent","projectId"}, {"event":"delivering"}, {"event":"done","delivered","pending"}.
import { enqueue, NotificationDeliverer } from "../../../src/integrator/index.ts";
import { createProject } from "../../../src/keys/index.ts";
import { OutboundClient } from "../../../src/platform/outbound/index.ts";
import { updateProject } from "../../../src/projects/index.ts";
import { say, startChildService } from "../../support/child-service.ts";

const env = process.env;

const service = await startChildService();
const db = service.database.db;

if (env.CHILD_SEND) {
  const actor = { kind: "cli" } as const;
  const { projectId } = await createProject(service.keys, { name: "Kill test" }, actor);
  await updateProject(service.projects, projectId, { integration_url: env.CHILD_RECEIVER as string }, actor);
  const at = new Date();
  for (let n = 0; n < Number(env.CHILD_SEND); n++)
    await enqueue(db, { projectId, type: "notification", body: { type: "notification", data: { n } } }, at);
  say({ event: "sent", projectId });
}

const deliverer = new NotificationDeliverer(
  { ...service.integrator, outbound: new OutboundClient({ allowPrivate: true }) },
  { leaseMs: 1_500, slots: 8 },
);
say({ event: "delivering" });
for (;;) {
  const claimed = await deliverer.runOnce();
  if (claimed > 0) continue;
  const open = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("status", "in", ["pending", "delivering"])
    .executeTakeFirstOrThrow();
  if (Number(open.n) === 0) break;
  await new Promise((r) => setTimeout(r, 200)); // a lease of a killed process still running out
}
const delivered = await db
  .selectFrom("notifications")
  .select((eb) => eb.fn.countAll<string>().as("n"))
  .where("status", "=", "delivered")
  .executeTakeFirstOrThrow();
say({ event: "done", delivered: Number(delivered.n) });
await service.close();
