// The service the viewer's browser tests drive: the devnet world written on chain 1, workers for the layer jobs,
// a server on 127.0.0.1, a headless Chromium, and the API called as a developer of the test project.
import { devnetWorld, writeWorldToStore } from "../../src/worlds/index.ts";
import { type HeadlessBrowser, launchChromium } from "../support/browser.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

export interface ViewerWorld {
  svc: TestService;
  url: string;
  browser: HeadlessBrowser;
  world: ReturnType<typeof devnetWorld>;
  /** Calls the API as the project's developer; throws with the answer on an error status. */
  api(method: "GET" | "POST", apiPath: string, body?: object): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export async function startViewerWorld(): Promise<ViewerWorld> {
  const world = devnetWorld();
  const svc = await startTestService({
    env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" },
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  await writeWorldToStore(svc.database.db, world, 1);
  const url = await svc.listen();
  const browser = await launchChromium();
  return {
    svc,
    url,
    browser,
    world,
    async api(method, apiPath, body) {
      const res = await fetch(`${url}${apiPath}`, {
        method,
        headers: {
          ...auth(svc.project.keys.developer),
          ...(body ? { "content-type": "application/json" } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const json = (await res.json()) as { success: boolean; data: Record<string, unknown> };
      if (!res.ok) throw new Error(`${method} ${apiPath}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    },
    async stop() {
      await browser.close();
      await svc.stop();
    },
  };
}
