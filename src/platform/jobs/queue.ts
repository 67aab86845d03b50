// Durable background jobs on pg-boss, on either database: PostgreSQL (through the service's pool) or the embedded
// PGlite (through an adapter on the process's instance). Jobs live in the database, so a job whose process died
// mid-run is run again: on PostgreSQL when its heartbeat stops (or its run exceeds expireInSeconds), on PGlite at
// the next start of the one process that owns the data dir (it alone runs workers, so any job still `active`
// then was orphaned by its previous run).
//
// Every process can send jobs and read them; only a process started with `workers: true` runs handlers. Handlers
// are registered with `work()` whatever the process: a process without workers just never runs them. pg-boss is
// started on the first use, or by `start()`.
import { CompiledQuery, type Kysely } from "kysely";
import { PgBoss, type Job as PgBossJob } from "pg-boss";
import pino from "pino";
import type { Database } from "../db/open.ts";
import { pgliteDb, poolDb } from "./adapters.ts";

export type JobState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

export interface QueuePolicy {
  /** Longest a run may take, in seconds; a run still active then is failed (and retried). Default 900. */
  expireInSeconds?: number;
  /**
   * A running job's worker refreshes it every heartbeatSeconds / 2; a job not refreshed for heartbeatSeconds
   * (its process died or hung) is failed and retried. At least 10; default 30. `null`: no heartbeat (then only
   * expireInSeconds detects a dead worker).
   */
  heartbeatSeconds?: number | null;
  /** Runs after the first failure. Default 3. */
  retryLimit?: number;
  /** Seconds before a retry; doubled for each further one (with jitter) when retryBackoff. Defaults 5, true. */
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** The longest wait before a retry, in seconds, however many runs failed. Default 1 hour. */
  retryDelayMaxSeconds?: number;
  /** How long a finished job (completed, failed, cancelled) is kept, in seconds. Default 7 days. */
  deleteAfterSeconds?: number;
}

export const DEFAULT_QUEUE_POLICY: Required<QueuePolicy> = {
  expireInSeconds: 900,
  heartbeatSeconds: 30,
  retryLimit: 3,
  retryDelaySeconds: 5,
  retryBackoff: true,
  retryDelayMaxSeconds: 3600,
  deleteAfterSeconds: 7 * 24 * 3600,
};

export interface JobRecord<T = unknown, R = unknown> {
  id: string;
  queue: string;
  state: JobState;
  data: T;
  /** what the handler returned (completed jobs) */
  output: R | undefined;
  /** the last failure's message (jobs in `retry` or `failed`) */
  error: string | undefined;
  /** runs so far after the first */
  retryCount: number;
  retryLimit: number;
  createdOn: Date;
  startedOn: Date | undefined;
  completedOn: Date | undefined;
}

export interface JobContext<T> {
  id: string;
  queue: string;
  data: T;
  /** 0 on the first run, then 1, 2, ... */
  retryCount: number;
  /** aborted when the job is taken away from this worker (expired, cancelled, or the worker stopping) */
  signal: AbortSignal;
}

/** One queue's backlog (JobQueue.stats). */
export interface QueueStats {
  name: string;
  waiting: number;
  due: number;
  active: number;
  /** seconds the oldest due job has waited since it was sent */
  oldest: number;
}

export type JobHandler<T, R> = (job: JobContext<T>) => Promise<R>;

export interface WorkOptions {
  /** Jobs of this queue run at once in this process. Default 1. */
  concurrency?: number;
}

export interface SendOptions {
  /** Only one queued job per key (pg-boss singletonKey). */
  singletonKey?: string;
  /** Run no earlier than this many seconds from now. */
  startAfterSeconds?: number;
  /**
   * Queue the job in this open transaction (a Kysely transaction on the service's database): it exists exactly
   * when the caller's own writes commit. The queue must have been `prepare`d before the transaction began: on the
   * embedded database any other statement of pg-boss would wait for that transaction to end.
   */
  // biome-ignore lint/suspicious/noExplicitAny: any database schema; only raw statements run through it
  transaction?: Kysely<any>;
}

export interface JobsLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobQueueOptions {
  /** Run handlers in this process (refused on the embedded database reached through another process's socket). */
  workers: boolean;
  /** The PostgreSQL schema of pg-boss's tables. Default "pgboss". */
  schema?: string;
  /** How often an idle worker looks for jobs, in seconds (at least 0.5). Default 1. */
  pollingIntervalSeconds?: number;
  /** How often expired jobs and lost heartbeats are checked, in seconds. Default 10. */
  superviseIntervalSeconds?: number;
  /**
   * Caps every queue's wait before a retry, in seconds (tests, where a job killed on purpose should run again at
   * once). Unset: each queue's own policy.
   */
  retryDelayMaxSeconds?: number;
  /**
   * At start, fail the jobs left `active` by an earlier run, so they are retried at once. Only right for the only
   * process that runs workers on this database: the default is true on the embedded database, false on PostgreSQL.
   */
  recoverOnStart?: boolean;
  log?: JobsLog;
  logLevel?: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

interface Registration {
  name: string;
  handler: JobHandler<unknown, unknown>;
  options: WorkOptions;
  /** handed to pg-boss (once: `work()` during a start must not register it twice) */
  polling: boolean;
}

export class JobQueue {
  readonly runsWorkers: boolean;
  readonly schema: string;
  readonly #boss: PgBoss;
  readonly #options: JobQueueOptions;
  readonly #log: JobsLog;
  readonly #recover: boolean;
  readonly #definitions = new Map<string, Required<QueuePolicy>>();
  readonly #registrations: Registration[] = [];
  /** queues whose pg-boss metadata is cached, so that a send in a caller's transaction runs one statement */
  readonly #prepared = new Set<string>();
  #starting: Promise<void> | undefined;
  #stopping: Promise<void> | undefined;
  #started = false;

  constructor(database: Pick<Database<unknown>, "kind" | "pglite" | "pool">, options: JobQueueOptions) {
    this.schema = options.schema ?? "pgboss";
    if (!SCHEMA_NAME.test(this.schema)) throw new Error(`invalid jobs schema name "${this.schema}"`);
    if (options.workers && database.kind === "pglite-socket") {
      throw new Error("background workers run in the process that owns the embedded database");
    }
    this.runsWorkers = options.workers;
    this.#options = options;
    this.#log = options.log ?? pino({ level: options.logLevel ?? "info", name: "jobs" });
    this.#recover = options.workers && (options.recoverOnStart ?? database.kind === "pglite");
    const db =
      database.kind === "pglite" && database.pglite
        ? pgliteDb(database.pglite)
        : database.pool
          ? poolDb(database.pool)
          : undefined;
    if (!db) throw new Error("the jobs queue needs the database's PGlite instance or pool");
    const supervise = options.superviseIntervalSeconds ?? 10;
    this.#boss = new PgBoss({
      db,
      schema: this.schema,
      backend: database.kind === "pglite" ? "pglite" : "postgres",
      // Maintenance (expiring jobs, lost heartbeats, deleting old jobs) runs where the workers run.
      supervise: options.workers,
      // Cron schedules (schedule()) are evaluated where the workers run; pg-boss's occurrence slots keep several
      // worker processes from sending one occurrence twice.
      schedule: options.workers,
      superviseIntervalSeconds: supervise,
      monitorIntervalSeconds: supervise,
      // REINDEX CONCURRENTLY cannot run on the embedded database's single connection.
      ...(database.kind === "pglite" ? { reindex: false } : {}),
    });
    this.#boss.on("error", (error: Error) => this.#log.error({ err: error }, "jobs: pg-boss error"));
    this.#boss.on("warning", (warning: { message: string; data?: unknown }) =>
      this.#log.warn({ data: warning.data }, `jobs: ${warning.message}`),
    );
  }

  /** Installs or migrates pg-boss's schema, applies the queue definitions and, with workers, starts them. */
  start(): Promise<void> {
    if (this.#stopping) return Promise.reject(new Error("the jobs queue is stopped"));
    this.#starting ??= this.#start().catch((error) => {
      this.#starting = undefined;
      throw error;
    });
    return this.#starting;
  }

  async #start(): Promise<void> {
    await this.#boss.start();
    this.#started = true;
    for (const [name, policy] of this.#definitions) await this.#apply(name, policy);
    if (this.#recover) await this.#recoverOrphans();
    if (this.runsWorkers) for (const registration of this.#registrations) await this.#work(registration);
  }

  /** Stops the workers (a job still running after `timeoutMs` is failed, to be retried) and pg-boss. */
  stop(timeoutMs = 10_000): Promise<void> {
    this.#stopping ??= (async () => {
      const starting = this.#starting;
      if (!starting) return;
      await starting.catch(() => {});
      if (this.#started) await this.#boss.stop({ graceful: true, timeout: timeoutMs, close: false });
    })();
    return this.#stopping;
  }

  /** Creates the queue (or updates its policy). Sending to a queue needs its definition in this process. */
  async define(name: string, policy: QueuePolicy = {}): Promise<void> {
    const resolved = { ...DEFAULT_QUEUE_POLICY, ...policy };
    this.#definitions.set(name, resolved);
    if (this.#started) await this.#apply(name, resolved);
  }

  async #apply(name: string, policy: Required<QueuePolicy>): Promise<void> {
    const cap = this.#options.retryDelayMaxSeconds;
    const common = {
      expireInSeconds: policy.expireInSeconds,
      retryLimit: policy.retryLimit,
      retryDelay: cap === undefined ? policy.retryDelaySeconds : Math.min(cap, policy.retryDelaySeconds),
      retryBackoff: policy.retryBackoff,
      // pg-boss takes a longest wait only with backoff (a fixed delay is its own longest).
      ...(policy.retryBackoff
        ? { retryDelayMax: Math.min(cap ?? Number.POSITIVE_INFINITY, policy.retryDelayMaxSeconds) }
        : {}),
      deleteAfterSeconds: policy.deleteAfterSeconds,
    };
    const { heartbeatSeconds } = policy;
    // createQueue leaves an existing queue as it is; updateQueue then applies this definition to it.
    await this.#boss.createQueue(name, heartbeatSeconds === null ? common : { ...common, heartbeatSeconds });
    await this.#boss.updateQueue(name, { ...common, heartbeatSeconds });
    // Creating or updating a queue drops pg-boss's cached copy of it.
    this.#prepared.delete(name);
  }

  /**
   * Readies a queue for `send` inside a caller's transaction: pg-boss started and the queue's metadata cached
   * (pg-boss reads it before its insert; a cached queue stays cached until it is defined again).
   */
  async prepare(name: string): Promise<void> {
    await this.#ready(name);
    if (this.#prepared.has(name)) return;
    // Any call that names the queue caches it; this one reads no rows.
    await this.#boss.findJobs(name, { id: "00000000-0000-0000-0000-000000000000" });
    this.#prepared.add(name);
  }

  /** Queues a job; returns its id. */
  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string> {
    const { transaction } = options;
    if (transaction && !this.#prepared.has(name))
      throw new Error(`queue "${name}" must be prepared before a send in a transaction`);
    if (!transaction) await this.#ready(name);
    const id = await this.#boss.send(name, data, {
      ...(options.singletonKey !== undefined ? { singletonKey: options.singletonKey } : {}),
      ...(options.startAfterSeconds !== undefined ? { startAfter: options.startAfterSeconds } : {}),
      ...(transaction
        ? {
            db: {
              executeSql: async (text: string, values?: unknown[]) =>
                await transaction.executeQuery(CompiledQuery.raw(text, values ?? [])),
            },
          }
        : {}),
    });
    if (!id) throw new Error(`job not queued on ${name}: one with the same singleton key is already queued`);
    return id;
  }

  /**
   * Sends a job to a queue on a cron schedule (`cron` in the time zone `tz`), from now on in every process that
   * runs workers; `key` tells several schedules of one queue apart. Scheduling again replaces the schedule.
   * Occurrences missed while no worker ran are sent once when one starts again.
   */
  async schedule<T extends object>(
    name: string,
    cron: string,
    data: T,
    options: { tz: string; key: string },
  ): Promise<void> {
    await this.#ready(name);
    await this.#boss.schedule(name, cron, data, { tz: options.tz, key: options.key, missed: "once" });
  }

  /** The schedules of a queue, as stored. */
  async schedules(name: string): Promise<{ key: string; cron: string; timezone: string; data: unknown }[]> {
    await this.#ready(name);
    const found = await this.#boss.getSchedules(name);
    return found.map((s) => ({ key: s.key, cron: s.cron, timezone: s.timezone, data: s.data }));
  }

  /** Registers the handler of a queue; it runs only in a process with workers. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler may return nothing
  async work<T, R extends object | undefined | void>(
    name: string,
    handler: JobHandler<T, R>,
    options: WorkOptions = {},
  ): Promise<void> {
    if (!this.#definitions.has(name)) throw new Error(`unknown job queue "${name}": define it first`);
    const registration = { name, handler: handler as JobHandler<unknown, unknown>, options, polling: false };
    this.#registrations.push(registration);
    if (!this.runsWorkers) return;
    // Starting registers every handler known by then; one registered later is handed to pg-boss here.
    await this.start();
    await this.#work(registration);
  }

  async #work(registration: Registration): Promise<void> {
    if (registration.polling) return;
    registration.polling = true;
    const { name, handler, options } = registration;
    // pg-boss waits a polling interval after every fetch, even one that found a job: a worker would run at most
    // one job a second however short its jobs. After a job, its worker is woken to fetch again at once, so a
    // backlog is drained back to back; an empty fetch falls back to polling (docs/benchmarks.md, "fleet").
    let workerId: string | undefined;
    workerId = await this.#boss.work<unknown, unknown>(
      name,
      {
        batchSize: 1,
        localConcurrency: options.concurrency ?? 1,
        pollingIntervalSeconds: this.#options.pollingIntervalSeconds ?? 1,
      },
      async (jobs: PgBossJob<unknown>[]) => {
        const job = jobs[0] as PgBossJob<unknown>;
        const context: JobContext<unknown> = {
          id: job.id,
          queue: job.name,
          data: job.data,
          retryCount: job.retryCount,
          signal: job.signal,
        };
        try {
          return await handler(context);
        } catch (error) {
          this.#log.warn(
            { queue: name, jobId: job.id, retryCount: job.retryCount, err: error },
            "jobs: a job failed",
          );
          throw error;
        } finally {
          if (workerId !== undefined && !job.signal.aborted) this.#boss.notifyWorker(workerId);
        }
      },
    );
  }

  /** A job of a queue, or undefined when there is none with that id. */
  async get<T = unknown, R = unknown>(name: string, id: string): Promise<JobRecord<T, R> | undefined> {
    await this.#ready(name);
    const [job] = await this.#boss.findJobs<T>(name, { id });
    if (!job) return undefined;
    const output = job.output as unknown;
    const failed = job.state === "failed" || job.state === "retry";
    const message =
      failed && output && typeof output === "object" && "message" in output
        ? String((output as { message: unknown }).message)
        : undefined;
    return {
      id: job.id,
      queue: job.name,
      state: job.state,
      data: job.data,
      output: job.state === "completed" ? ((output ?? undefined) as R | undefined) : undefined,
      error: message,
      retryCount: job.retryCount,
      retryLimit: job.retryLimit,
      createdOn: job.createdOn,
      startedOn: job.startedOn ?? undefined,
      completedOn: job.completedOn ?? undefined,
    };
  }

  /**
   * Each defined queue's backlog, for the metrics: jobs waiting (created, or waiting to retry), those due to run
   * now, those running, and how long the oldest due job has waited since it was sent (0 when none waits).
   */
  async stats(): Promise<QueueStats[]> {
    await this.start();
    const { rows } = await this.#boss.getDb().executeSql(
      `SELECT name,
         count(*) FILTER (WHERE state IN ('created', 'retry'))::int AS waiting,
         count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())::int AS due,
         count(*) FILTER (WHERE state = 'active')::int AS active,
         coalesce(extract(epoch FROM now() - min(created_on)
           FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())), 0)::float8 AS oldest
       FROM ${this.schema}.job WHERE state < 'completed' GROUP BY name`,
      [],
    );
    const found = new Map((rows as QueueStats[]).map((r) => [r.name, r]));
    return [...this.#definitions.keys()]
      .sort()
      .map((name) => found.get(name) ?? { name, waiting: 0, due: 0, active: 0, oldest: 0 });
  }

  async #ready(name: string): Promise<void> {
    if (!this.#definitions.has(name)) throw new Error(`unknown job queue "${name}": define it first`);
    await this.start();
  }

  /** Jobs left active by an earlier run of the only worker process: failed now, so that they are retried. */
  async #recoverOrphans(): Promise<void> {
    const { rows } = await this.#boss
      .getDb()
      .executeSql(`SELECT name, id FROM ${this.schema}.job WHERE state = 'active' ORDER BY name, id`, []);
    const orphans = rows as { name: string; id: string }[];
    const byQueue = new Map<string, string[]>();
    for (const { name, id } of orphans) byQueue.set(name, [...(byQueue.get(name) ?? []), id]);
    for (const [name, ids] of byQueue) {
      await this.#boss.fail(name, ids, { message: "the worker process stopped while the job was running" });
      this.#log.warn({ queue: name, jobIds: ids }, "jobs: retrying jobs left running by a stopped process");
    }
  }
}
