// Where each room's wiring puts what it adds to a running service: its routes, its readiness checks and facts,
// and how its loops stop. The composition root (src/service.ts) hands one Assembly to every room's `wire…`
// function, then builds the HTTP app from the routes gathered and stops everything at close, the last started
// first. Domain-free: which rooms there are is the root's business, what each needs is the room's.
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import type { ServerKeys } from "./crypto/secrets.ts";
import type { HttpApp } from "./http/app.ts";
import type { JobQueue } from "./jobs/index.ts";
import type { OutboundClient } from "./outbound/index.ts";

/** Registers routes on a scope of the HTTP app (the /v1 prefix, or the root for pages and sign-in). */
export type RouteRegistration = (app: HttpApp) => void | Promise<void>;

/** A loop, a server or a timer the service stops at close. */
export type Stop = () => Promise<unknown> | unknown;

export class Assembly {
  private readonly api: RouteRegistration[] = [];
  private readonly root: RouteRegistration[] = [];
  private readonly signIn: RouteRegistration[] = [];
  private readonly stops: Stop[] = [];
  /** What /readyz checks, by name: each throws when the process cannot serve. */
  readonly readiness: Record<string, () => Promise<unknown>> = {};
  /** What a ready process says beside `status: "ready"`, by name: facts that never make it unready. */
  readonly facts: Record<string, () => Promise<unknown>> = {};

  constructor(
    /** Whether this process runs the background workers (loops start only then). */
    readonly workers: boolean,
    /** Whether it serves the API (false: probes and /metrics only, or no HTTP at all). */
    readonly serves: boolean,
  ) {}

  /** Routes under /v1, described in the OpenAPI document. */
  routes(register: RouteRegistration): void {
    if (this.serves) this.api.push(register);
  }

  /** Browser pages and their assets, outside /v1 and the OpenAPI document. */
  pages(register: RouteRegistration): void {
    if (this.serves) this.root.push(register);
  }

  /** The sign-in routes (`/auth/...`), outside /v1 but documented. */
  session(register: RouteRegistration): void {
    if (this.serves) this.signIn.push(register);
  }

  /** Something to stop at close; stopped in the reverse order of these calls. */
  onClose(stop: Stop): void {
    this.stops.push(stop);
  }

  /** Starts a worker loop where this process runs the workers, and stops it at close; undefined elsewhere. */
  loop<T extends { stop(): Promise<unknown> | unknown }>(start: () => T): T | undefined {
    if (!this.workers) return undefined;
    const started = start();
    this.onClose(() => started.stop());
    return started;
  }

  async registerRoutes(app: HttpApp): Promise<void> {
    for (const register of this.api) await register(app);
  }

  async registerPages(app: HttpApp): Promise<void> {
    for (const register of this.root) await register(app);
  }

  async registerSession(app: HttpApp): Promise<void> {
    for (const register of this.signIn) await register(app);
  }

  /** The readiness facts, each read at once; one that fails is left out (never a 503). */
  async readFacts(): Promise<Record<string, unknown>> {
    const entries = await Promise.all(
      Object.entries(this.facts).map(async ([name, read]) => {
        try {
          const value = await read();
          return value === undefined ? [] : [[name, value] as const];
        } catch {
          return [];
        }
      }),
    );
    return Object.fromEntries(entries.flat());
  }

  /** Stops everything registered, the last first; one that fails does not keep the others running. */
  async close(): Promise<void> {
    const failures: unknown[] = [];
    for (const stop of [...this.stops].reverse()) {
      try {
        await stop();
      } catch (error) {
        failures.push(error);
      }
    }
    this.stops.length = 0;
    if (failures.length > 0) throw new AggregateError(failures, "some parts of the service failed to stop");
  }
}

/**
 * What the composition root gives every room's wiring, beside the room's own needs (which each wiring names): the
 * database, the configuration, the clock, loggers, the outbound client, the job queue, the server's keys and the
 * assembly to put its parts in.
 */
export interface Base<DB> {
  config: Config;
  db: Kysely<DB>;
  assembly: Assembly;
  /** The service's clock (a test's own where it gives one). */
  now: () => number;
  /** A logger named for a room, at the configured level. */
  log: (name: string) => Logger;
  outbound: OutboundClient;
  jobs: JobQueue;
  serverKeys: ServerKeys;
}
