import { describe, expect, it } from "vitest";
import { Assembly } from "./assembly.ts";

describe("the assembly of a service", () => {
  it("starts loops only where the workers run, and stops everything the last first, whatever fails", async () => {
    const stopped: string[] = [];
    const loop = (name: string) => ({ stop: async () => void stopped.push(name) });
    const workers = new Assembly(true, true);
    workers.onClose(() => stopped.push("jobs"));
    expect(workers.loop(() => loop("checker"))).toBeDefined();
    workers.onClose(() => {
      throw new Error("the deliverer would not stop");
    });
    workers.loop(() => loop("indexers"));
    await expect(workers.close()).rejects.toThrow("some parts of the service failed to stop");
    expect(stopped).toEqual(["indexers", "checker", "jobs"]);

    let started = false;
    const api = new Assembly(false, true);
    expect(
      api.loop(() => {
        started = true;
        return loop("never");
      }),
    ).toBeUndefined();
    expect(started).toBe(false);
    await api.close();
  });

  it("keeps the routes of a process that serves only probes out, and says the facts it can read", async () => {
    const probes = new Assembly(true, false);
    let registered = 0;
    probes.routes(() => {
      registered++;
    });
    probes.pages(() => {
      registered++;
    });
    await probes.registerRoutes({} as never);
    await probes.registerPages({} as never);
    expect(registered).toBe(0);

    probes.facts.chains = async () => [{ chainId: 1, lagBlocks: 2 }];
    probes.facts.stoppedChains = async () => undefined;
    probes.facts.lists = async () => {
      throw new Error("the lists' table is locked");
    };
    expect(await probes.readFacts()).toEqual({ chains: [{ chainId: 1, lagBlocks: 2 }] });
  });
});
