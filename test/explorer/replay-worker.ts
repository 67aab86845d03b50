// Worker-thread entry of the replay explorer: starts a ReplayServer and serves the test thread's commands.
import { parentPort, workerData } from "node:worker_threads";
import type { History, HistoryTx } from "./history-data.ts";
import { type Fault, type FaultMatch, ReplayServer } from "./replay-server.ts";

export type Command =
  | { op: "inject"; fault: Fault; times: number; match: FaultMatch }
  | { op: "clearLog" }
  | { op: "reset" }
  | { op: "requests" }
  | { op: "set"; resultWindow?: number; legacyFields?: boolean }
  | { op: "prependTxs"; address: string; txs: HistoryTx[] }
  | { op: "close" };

const port = parentPort!;
const server = await ReplayServer.start(...(workerData as { histories: History[] }).histories);
port.postMessage({ ready: true, url: server.url });
port.on("message", async ({ id, command }: { id: number; command: Command }) => {
  let result: unknown;
  switch (command.op) {
    case "inject":
      server.inject(command.fault, command.times, command.match);
      break;
    case "clearLog":
      server.clearLog();
      break;
    case "reset":
      server.clearLog();
      server.clearFaults();
      break;
    case "requests":
      result = server.requests;
      break;
    case "set":
      if (command.resultWindow !== undefined) server.resultWindow = command.resultWindow;
      if (command.legacyFields !== undefined) server.legacyFields = command.legacyFields;
      break;
    case "prependTxs":
      server.histories.get(command.address)!.txs.unshift(...command.txs);
      break;
    case "close":
      await server.close();
      break;
  }
  port.postMessage({ id, result });
});
