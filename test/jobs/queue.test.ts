// Durable jobs (src/platform/jobs) in-process: a job runs and keeps its result, a failing job is retried and then
// given up on with its error, a process without workers queues jobs that a worker process runs, and the service
// starts and stops the workers with `options.workers`. Runs on the in-memory PGlite and, with DATABASE_URL, on
// PostgreSQL (pg-boss in the test's schema).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobQueue, type JobRecord } from "../../src/platform/jobs/index.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { startTestService } from "../support/service.ts";

type TestDb = Awaited<ReturnType<typeof openTestDatabase>>;
let database: TestDb;
let worker: JobQueue;
let sender: JobQueue;

const FAST = { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1, logLevel: "silent" } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function settled<R>(queue: JobQueue, name: string, id: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await queue.get<unknown, R>(name, id);
    if (job && ["completed", "failed", "cancelled"].includes(job.state)) return job as JobRecord<unknown, R>;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job?.state} after ${timeoutMs} ms`);
    await sleep(100);
  }
}

beforeAll(async () => {
  database = await openTestDatabase();
  const schema = (
    await database.db.selectNoFrom((eb) => eb.fn<string>("current_schema").as("s")).executeTakeFirst()
  )?.s;
  const jobsSchema = database.kind === "postgres" ? (schema as string) : "pgboss";
  worker = new JobQueue(database, { workers: true, schema: jobsSchema, ...FAST });
  sender = new JobQueue(database, { workers: false, schema: jobsSchema, ...FAST });
});

afterAll(async () => {
  await sender?.stop();
  await worker?.stop();
  await database?.drop();
});

describe("jobs", () => {
  it("a job runs in a worker and keeps what its handler returned", async () => {
    await worker.define("test.double");
    await worker.work<{ n: number }, { doubled: number }>("test.double", async (job) => ({
      doubled: job.data.n * 2,
    }));
    const id = await worker.send("test.double", { n: 21 });
    const job = await settled<{ doubled: number }>(worker, "test.double", id);
    expect(job).toMatchObject({
      id,
      queue: "test.double",
      state: "completed",
      data: { n: 21 },
      output: { doubled: 42 },
      error: undefined,
      retryCount: 0,
    });
    expect(job.completedOn).toBeInstanceOf(Date);
    expect(await worker.get("test.double", "00000000-0000-4000-8000-000000000000")).toBeUndefined();
  });

  it("a failing job is retried, and completes when a retry succeeds", async () => {
    await worker.define("test.flaky", { retryLimit: 3, retryDelaySeconds: 0, retryBackoff: false });
    const runs: number[] = [];
    await worker.work<{ failures: number }, { runs: number }>("test.flaky", async (job) => {
      runs.push(job.retryCount);
      if (job.retryCount < job.data.failures) throw new Error(`run ${job.retryCount} failed`);
      return { runs: job.retryCount + 1 };
    });
    const id = await worker.send("test.flaky", { failures: 2 });
    const job = await settled(worker, "test.flaky", id);
    expect(job).toMatchObject({ state: "completed", retryCount: 2, output: { runs: 3 } });
    expect(runs).toEqual([0, 1, 2]);
  });

  it("a job that keeps failing is given up on after its retries, with its last error", async () => {
    await worker.define("test.broken", { retryLimit: 1, retryDelaySeconds: 0, retryBackoff: false });
    let runs = 0;
    await worker.work("test.broken", async () => {
      runs++;
      throw new Error("the data source is down");
    });
    const id = await worker.send("test.broken", {});
    const job = await settled(worker, "test.broken", id);
    expect(job).toMatchObject({
      state: "failed",
      retryCount: 1,
      retryLimit: 1,
      error: "the data source is down",
    });
    expect(job.output).toBeUndefined();
    expect(runs).toBe(2);
  });

  it("a process without workers queues jobs that only a worker process runs", async () => {
    let ranInSender = 0;
    await sender.define("test.split");
    await sender.work("test.split", async () => {
      ranInSender++;
      return { by: "sender" };
    });
    const id = await sender.send("test.split", { hello: "world" });
    await sleep(1500);
    expect((await sender.get("test.split", id))?.state).toBe("created");
    await worker.define("test.split");
    await worker.work("test.split", async () => ({ by: "worker" }));
    const job = await settled(sender, "test.split", id);
    expect(job).toMatchObject({ state: "completed", output: { by: "worker" } });
    expect(ranInSender).toBe(0);
  });

  it("a handler registered before the queue starts is polled once: one job at a time by default", async () => {
    const schema = worker.schema;
    const fresh = new JobQueue(database, { workers: true, schema, ...FAST });
    try {
      await fresh.define("test.serial", { retryLimit: 0 });
      let running = 0;
      let most = 0;
      await fresh.work("test.serial", async () => {
        running++;
        most = Math.max(most, running);
        await sleep(300);
        running--;
        return {};
      });
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push(await fresh.send("test.serial", { i }));
      for (const id of ids) expect((await settled(fresh, "test.serial", id)).state).toBe("completed");
      expect(most).toBe(1);
    } finally {
      await fresh.stop();
    }
  });

  it("keeps a cron schedule per key, in its time zone, replaced when scheduled again", async () => {
    await worker.define("test.cron");
    await worker.schedule(
      "test.cron",
      "0 1 * * *",
      { countryCode: "MX" },
      { tz: "America/Mexico_City", key: "MX" },
    );
    await worker.schedule(
      "test.cron",
      "0 1 * * *",
      { countryCode: "CO" },
      { tz: "America/Bogota", key: "CO" },
    );
    await worker.schedule(
      "test.cron",
      "0 2 * * *",
      { countryCode: "MX" },
      { tz: "America/Mexico_City", key: "MX" },
    );
    const schedules = (await worker.schedules("test.cron")).sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(schedules).toEqual([
      { key: "CO", cron: "0 1 * * *", timezone: "America/Bogota", data: { countryCode: "CO" } },
      { key: "MX", cron: "0 2 * * *", timezone: "America/Mexico_City", data: { countryCode: "MX" } },
    ]);
    await expect(
      worker.schedule("test.cron", "0 1 * * *", {}, { tz: "America/Nowhere", key: "X" }),
    ).rejects.toThrow();
  });

  it("a job sent in a caller's transaction exists exactly when that transaction commits", async () => {
    await sender.define("test.atomic");
    await database.db.schema.createTable("atomic_rows").ifNotExists().addColumn("id", "text").execute();
    // Not prepared: refused rather than risk waiting on the transaction it runs in.
    await expect(
      database.db.transaction().execute((trx) => sender.send("test.atomic", {}, { transaction: trx })),
    ).rejects.toThrow(/must be prepared/);
    await sender.prepare("test.atomic");

    let rolledBack = "";
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("atomic_rows" as never)
          .values({ id: "rolled back" } as never)
          .execute();
        rolledBack = await sender.send("test.atomic", { row: "rolled back" }, { transaction: trx });
        throw new Error("the caller's next write failed");
      }),
    ).rejects.toThrow("the caller's next write failed");
    expect(rolledBack).not.toBe("");
    expect(await sender.get("test.atomic", rolledBack)).toBeUndefined();

    const committed = await database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("atomic_rows" as never)
        .values({ id: "committed" } as never)
        .execute();
      return await sender.send("test.atomic", { row: "committed" }, { transaction: trx });
    });
    expect(await sender.get("test.atomic", committed)).toMatchObject({
      state: "created",
      data: { row: "committed" },
    });
    const rows = await database.db
      .selectFrom("atomic_rows" as never)
      .selectAll()
      .execute();
    expect(rows).toEqual([{ id: "committed" }]);
  });

  it("a failed job waits its retry delay before it runs again (backoff over minutes, not at once)", async () => {
    await worker.define("test.patient", { retryLimit: 4, retryDelaySeconds: 30, retryBackoff: true });
    let runs = 0;
    await worker.work("test.patient", async () => {
      runs++;
      throw new Error("the data source is down");
    });
    const id = await worker.send("test.patient", {});
    const deadline = Date.now() + 20_000;
    while ((await worker.get("test.patient", id))?.state !== "retry") {
      if (Date.now() > deadline) throw new Error("the job never failed");
      await sleep(100);
    }
    // At least 15 s (half the delay, the least jitter) before the second run: it has not come in 3 s.
    await sleep(3000);
    expect(runs).toBe(1);
    expect(await worker.get("test.patient", id)).toMatchObject({ state: "retry" });
  });

  it("refuses a queue it has no definition of, and workers on another process's embedded database", async () => {
    await expect(sender.send("test.nowhere", {})).rejects.toThrow(/unknown job queue/);
    expect(
      () =>
        new JobQueue({ kind: "pglite-socket", pglite: undefined, pool: database.pool }, { workers: true }),
    ).toThrow(/owns the embedded database/);
  });
});

describe("the service's jobs", () => {
  it("run in a service with workers, and are only queued by one without", async () => {
    const withWorkers = await startTestService({
      service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
    });
    try {
      await withWorkers.jobs.define("test.service");
      await withWorkers.jobs.work("test.service", async (job) => ({ echoed: job.data }));
      const id = await withWorkers.jobs.send("test.service", { x: 1 });
      expect(await settled(withWorkers.jobs, "test.service", id)).toMatchObject({
        state: "completed",
        output: { echoed: { x: 1 } },
      });
    } finally {
      await withWorkers.stop();
    }

    const apiOnly = await startTestService({ service: { workers: false } });
    try {
      let ran = 0;
      await apiOnly.jobs.define("test.service");
      await apiOnly.jobs.work("test.service", async () => {
        ran++;
        return {};
      });
      const id = await apiOnly.jobs.send("test.service", { x: 2 });
      await sleep(1500);
      expect((await apiOnly.jobs.get("test.service", id))?.state).toBe("created");
      expect(ran).toBe(0);
    } finally {
      await apiOnly.stop();
    }
  });
});
