// The screening room in a running service: the lists of persons and their matcher (rebuilt when an import changes
// a list), its part of a project's settings, its routes, and in processes with workers the screening again of the
// monitored clients when a list changes. The rooms that see clients (monitoring, the exchange's operations) screen
// them through it.
import type { AnalysisWiring } from "../analysis/index.ts";
import type { Base } from "../platform/assembly.ts";
import { ofKind } from "../platform/config.ts";
import type { ProjectsWiring } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { type ClientRef, clientListings, type ProfileOf, type ProfileRead, profileRead } from "./clients.ts";
import { screeningShare } from "./fair-share.ts";
import { currentLists } from "./lists/read.ts";
import { startClientRescreening } from "./rescreen-loop.ts";
import { registerMatchReviewRoutes } from "./review/routes.ts";
import { matchView } from "./review/view.ts";
import { registerScreeningRoutes, type ScreeningContext } from "./routes.ts";
import { Screener } from "./screener.ts";
import { screeningSettings } from "./settings.ts";

export interface ScreeningNeeds {
  analysis: AnalysisWiring;
  projects: ProjectsWiring;
  /** Reads a client's profile from the integrator. */
  profiles: { read: ProfileOf };
  /** Each list's age and last refresh (the lists' wiring). */
  lists: { freshness: NonNullable<ScreeningContext["freshness"]> };
  metrics: {
    screeningRefused(): void;
    clientsScreened(when: "first" | "rescreen" | "profile_changed", count: number): void;
    loopFailure: (loop: string) => void;
  };
}

export interface ScreeningWiring {
  screener: Screener;
  /** Screens a client at its first checked transfer or operation (and again once its lists changed). */
  screenClient: (client: ClientRef, readProfile: ProfileRead, now: Date) => ReturnType<typeof clientListings>;
  /** Screens a client again when the profile the integrator gives changed. */
  profileChanged: (client: ClientRef, profile: Parameters<typeof profileRead>[3], now: Date) => Promise<void>;
  /** A `person_match` alert's match, as its page shows it. */
  matchOf: (
    projectId: number,
    alertId: string,
    lang: Parameters<typeof matchView>[3],
  ) => ReturnType<typeof matchView>;
}

export async function wireScreening(base: Base<DB>, needs: ScreeningNeeds): Promise<ScreeningWiring> {
  const { config } = base;
  const { metrics } = needs;
  const log = base.log("screening");
  const screener = new Screener(base.db, log);
  if (base.assembly.workers && (await currentLists(base.db)).lists.length === 0)
    log.info(
      "no list of persons is imported: monitored clients are screened against none, and POST /v1/screening answers 409 until `vigia lists import KIND FILE` (docs/person-lists.md)",
    );
  needs.projects.addPart(screeningSettings());
  base.assembly.routes((v1) => {
    registerMatchReviewRoutes(v1, { db: base.db, now: base.now });
    registerScreeningRoutes(v1, {
      screener,
      analysis: needs.analysis.context,
      share: screeningShare(
        {
          maxInFlight: config.screeningMaxInFlight,
          maxInFlightPerProject: config.screeningMaxInFlightPerProject,
          maxWaitMs: config.screeningMaxWaitMs,
        },
        { refused: metrics.screeningRefused, log: base.log("analysis") },
      ),
      freshness: needs.lists.freshness,
      maxAgeHours: (kind) => ofKind(config.listMaxAgeHours, kind),
      now: base.now,
    });
  });
  // A list of persons that changed screens the monitored clients again.
  base.assembly.loop(() =>
    startClientRescreening({
      db: base.db,
      screener,
      profileOf: (projectId, userId) => needs.profiles.read(projectId, userId),
      log,
      onError: () => metrics.loopFailure("client_rescreen"),
      onScreened: (clients) => metrics.clientsScreened("rescreen", clients),
      now: () => new Date(base.now()),
    }),
  );
  return {
    screener,
    screenClient: async (client, readProfile, now) => {
      const listed = await clientListings(base.db, screener, client, readProfile, now);
      if ("screened" in listed && listed.screened) metrics.clientsScreened(listed.screened, 1);
      return listed;
    },
    profileChanged: async (client, profile, now) => {
      if (await profileRead(base.db, screener, client, profile, now))
        metrics.clientsScreened("profile_changed", 1);
    },
    matchOf: (projectId, alertId, lang) => matchView(base.db, projectId, alertId, lang),
  };
}
