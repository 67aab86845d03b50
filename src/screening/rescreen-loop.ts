// The worker that screens monitored clients again when a list of persons changes (a `vigia lists import` or
// `refresh` by any process): every few seconds it takes a batch of clients screened against older versions and
// screens the persons kept of their profiles against the current ones (clients.ts). A list import is acted on
// within seconds; each run is bounded, and a crash leaves the rest for the next run or another worker.

import type { Kysely } from "kysely";
import type pino from "pino";
import { PollingLoop } from "../platform/polling.ts";
import type { DB } from "../schema.ts";
import { rescreenClients } from "./clients.ts";
import type { Screener } from "./screener.ts";

export const DEFAULT_CLIENT_RESCREEN = { batch: 100, pollMs: 5_000 };

export function startClientRescreening(o: {
  db: Kysely<DB>;
  screener: Screener;
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
      const run = await rescreenClients(o.db, o.screener, batch, o.now ?? (() => new Date()));
      for (const f of run.failed) {
        o.log?.warn(
          { err: f.error, projectId: f.projectId, userId: f.userId },
          `screening: user ${f.userId} could not be screened again: ${(f.error as Error).message}; tried again at the next run`,
        );
        o.onError?.(f.error);
      }
      if (run.screened > 0) {
        o.onScreened?.(run.screened, run.alerts);
        o.log?.info(
          { screened: run.screened, alerts: run.alerts },
          `screening: ${run.screened} monitored clients screened again against the current lists, ${run.alerts} alerts raised or extended`,
        );
      }
      return run.screened;
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
