// The worker that screens the monitored clients (queue.ts): those registered and never screened, from their
// profiles, as soon as a list of persons is imported; and every client again when a list changes (a `vigia lists
// import` or `refresh` by any process), when the project's thresholds change or when an officer asks, from the
// persons kept of their profiles (clients.ts). Every few seconds, and at once again while batches come full, it
// claims a batch no other worker holds. A list import is acted on within seconds; each run is bounded, and a crash
// leaves the rest for the next run or another worker (a claim lapses after a minute).

import type { Kysely } from "kysely";
import type pino from "pino";
import { PollingLoop } from "../platform/polling.ts";
import type { DB } from "../schema.ts";
import { type ProfileOf, rescreenClients } from "./clients.ts";
import type { Screener } from "./screener.ts";

export const DEFAULT_CLIENT_RESCREEN = { batch: 100, pollMs: 5_000 };

export function startClientRescreening(o: {
  db: Kysely<DB>;
  screener: Screener;
  /** reads a client's profile from the integrator, for the clients queued at their registration */
  profileOf?: ProfileOf;
  log?: pino.Logger;
  onError?: (error: unknown) => void;
  onScreened?: (clients: number, alerts: number) => void;
  batch?: number;
  pollMs?: number;
  now?: () => Date;
}): { stop(): Promise<void> } {
  const batch = o.batch ?? DEFAULT_CLIENT_RESCREEN.batch;
  const loop = new PollingLoop(
    async () => {
      const run = await rescreenClients(o.db, o.screener, batch, o.now ?? (() => new Date()), o.profileOf);
      for (const f of run.failed) {
        o.log?.warn(
          { err: f.error, projectId: f.projectId, userId: f.userId },
          `screening: user ${f.userId} of project ${f.projectId} could not be screened: ${(f.error as Error).message}; tried again in 10 minutes`,
        );
        o.onError?.(f.error);
      }
      if (run.screened > 0) {
        o.onScreened?.(run.screened, run.alerts);
        o.log?.info(
          { screened: run.screened, alerts: run.alerts },
          `screening: ${run.screened} monitored clients screened against the current lists, ${run.alerts} alerts raised or extended`,
        );
      }
      // A full batch claimed: more are due, and the loop runs again at once.
      return run.claimed;
    },
    batch,
    o.pollMs ?? DEFAULT_CLIENT_RESCREEN.pollMs,
    (error) => {
      o.log?.warn(
        { err: error },
        "screening: a re-screening of clients failed; tried again at the next poll",
      );
      o.onError?.(error);
    },
  );
  loop.start();
  return { stop: () => loop.stop() };
}
