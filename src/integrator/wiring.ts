// The integrator room in a running service: its context (every call counted and logged when it fails), its part of
// a project's settings, the profile reader, the notifications' delivery (in processes with workers) and its routes.
import type { Base } from "../platform/assembly.ts";
import type { ProjectsWiring } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import type { IntegratorContext } from "./context.ts";
import { type DelivererOptions, NotificationDeliverer } from "./deliver.ts";
import { integratorsFailing } from "./health.ts";
import { outboxFull } from "./outbox-cap.ts";
import { ProfileReader } from "./profile-reader.ts";
import { registerIntegratorRoutes } from "./routes.ts";
import { integrationSettings } from "./settings.ts";

/** An integrator failing for longer than this counts as failing in the metrics. */
const FAILING_FOR_MS = 3_600_000;

export interface IntegratorNeeds {
  projects: ProjectsWiring;
  metrics: {
    integratorFailure: NonNullable<IntegratorContext["countFailure"]>;
    loopFailure: (loop: string) => void;
    webhookAttempt: NonNullable<DelivererOptions["onAttempt"]>;
    followIntegrators(read: () => ReturnType<typeof integratorsFailing>): void;
  };
}

export interface IntegratorWiring {
  context: IntegratorContext;
  profiles: ProfileReader;
  /** Whether a project's outbox is full (its checks wait). */
  outboxFull: (projectId: number) => Promise<boolean>;
  /** Tells the delivery that messages were queued (a no-op where this process has no workers). */
  wake(): void;
}

export function wireIntegrator(base: Base<DB>, needs: IntegratorNeeds): IntegratorWiring {
  const { config } = base;
  const { metrics } = needs;
  // Everything sent to or read from integrators: failures logged at warn and counted by reason.
  const context: IntegratorContext = {
    db: base.db,
    serverKeys: base.serverKeys,
    outbound: base.outbound,
    now: Date.now,
    log: base.log("integrator"),
    countFailure: metrics.integratorFailure,
    countLoopFailure: metrics.loopFailure,
  };
  metrics.followIntegrators(() => integratorsFailing(base.db, new Date(), FAILING_FOR_MS));
  needs.projects.addPart(integrationSettings(base.serverKeys, config.allowPrivateOutbound));
  const profiles = new ProfileReader(context, { perProject: config.profileReadsPerProject });
  base.assembly.routes((v1) =>
    registerIntegratorRoutes(v1, context, {
      redeliveriesPerMinute: config.redeliveriesPerMinute,
      maxPendingNotifications: config.maxPendingNotificationsPerProject,
    }),
  );
  // Notifications go out from every process with workers; they share the outbox, each project within its own
  // limit of deliveries at once.
  const deliverer = base.assembly.loop(() => {
    const started = new NotificationDeliverer(context, {
      slots: config.deliveriesPerProcess,
      perProject: config.deliveriesPerProject,
      onAttempt: metrics.webhookAttempt,
    });
    started.start();
    return started;
  });
  return {
    context,
    profiles,
    outboxFull: outboxFull(context, config.maxPendingNotificationsPerProject),
    wake: () => deliverer?.wake(),
  };
}
