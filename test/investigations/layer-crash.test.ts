// An incremental analysis whose worker process is killed (SIGKILL) in the middle resumes at its first unfinished
// layer after a worker restarts and produces the same layers as an uninterrupted run (durability): on
// the embedded database the restarted owner retries the job left running; on PostgreSQL the job's heartbeat
// stops and it is retried. The layers stored before the kill are not rewritten.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompletedLayer } from "../../src/analysis/index.ts";
import { childDatabaseEnv, killChildProcesses, startChildProcess } from "../support/child-process.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { writeChainsFile } from "../support/service.ts";
import { comparable, expectLayerInvariants } from "./layers.ts";

const DEPTH = 6;
const target = testDatabase();
const chains = writeChainsFile([{ id: 1, name: "Ethereum", currency_symbol: "ETH" }]);
let dataDir: string | undefined;

type Line = { event: string; [key: string]: unknown };

const startChild = (env: Record<string, string>) =>
  startChildProcess<Line>("test/investigations/support/layer-child.ts", {
    CHILD_CHAINS: chains,
    ...childDatabaseEnv(target, dataDir),
    ...env,
  });

beforeAll(() => {
  if (!onPostgres) dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-layer-crash-"));
});
afterAll(async () => {
  killChildProcesses();
  await target.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`an incremental analysis killed mid-run (${onPostgres ? "PostgreSQL" : "PGlite data dir"})`, () => {
  it("resumes at the first unfinished layer and gives the layers of an uninterrupted run", async () => {
    const first = startChild({ CHILD_MODE: "hang", CHILD_SEND: "1" });
    const sent = await first.next("sent");
    const hanging = await first.next("hanging");
    const before = hanging.layers as string[];
    expect(before).toHaveLength(2);
    first.proc.kill("SIGKILL");
    await first.exited;

    const second = startChild({ CHILD_MODE: "finish", CHILD_WAIT_FOR: sent.analysisId as string });
    const finished = await second.next("finished", 120_000);
    second.proc.kill("SIGTERM");
    await second.exited;

    expect(finished).toMatchObject({ status: "completed", referenceStatus: "completed" });
    const resumed = (finished.resumed as string[]).map((b) => JSON.parse(b) as CompletedLayer);
    const reference = (finished.reference as string[]).map((b) => JSON.parse(b) as CompletedLayer);
    // the layers stored before the kill were kept as they were
    expect((finished.resumed as string[]).slice(0, 2)).toEqual(before);
    expectLayerInvariants(resumed, DEPTH, resumed[0]!.cumulativeGraph.rootAddress);
    expect(resumed.map(comparable)).toEqual(reference.map(comparable));
    expect(resumed.at(-1)!.detectedPatterns.map((p) => p.patternType)).toContain("peel_chain");
  }, 180_000);
});
