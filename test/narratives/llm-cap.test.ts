// The hourly cap on LLM-written wallet reports (VIGIA_LLM_REPORTS_PER_HOUR) holds under concurrency: 20 reports of
// different wallets asked at once by a viewer key, with a cap of 2, make at most 2 calls to the LLM (counted at a
// stand-in server on 127.0.0.1); the others are served the deterministic report, and the reserved slots say 2. On
// the embedded database and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { FakeLlm } from "./fake-llm.ts";

const CAP = 2;
const llm = new FakeLlm();
let svc: TestService;

beforeAll(async () => {
  await llm.start();
  svc = await startTestService({
    env: {
      VIGIA_LLM_BASE_URL: llm.url,
      // The stand-in LLM is on 127.0.0.1.
      VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
      VIGIA_LLM_MODEL: "test-model",
      VIGIA_LLM_TIMEOUT_MS: "5000",
      VIGIA_LLM_REPORTS_PER_HOUR: String(CAP),
    },
  });
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await llm.stop();
});

/** 20 distinct unseen EVM addresses: no two requests share a generation. */
const wallets = Array.from({ length: 20 }, (_, i) => `0x${(0xc0ffee00 + i).toString(16).padStart(40, "0")}`);

describe("the hourly LLM cap under concurrency", () => {
  it("20 concurrent wallet reports with a cap of 2 make at most 2 LLM calls", async () => {
    llm.mode = "faithful";
    const answers = await Promise.all(
      wallets.map((wallet) =>
        svc.app!.inject({ url: `/v1/wallets/${wallet}/report`, headers: auth(svc.project.keys.viewer) }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(wallets.map(() => 200));
    expect(llm.requests.length).toBeLessThanOrEqual(CAP);
    expect(llm.requests.length).toBe(CAP);
    const calledRows = await svc.database.db
      .selectFrom("wallet_report_generations")
      .select("llm_called")
      .where("project_id", "=", svc.project.id)
      .execute();
    expect(calledRows).toHaveLength(wallets.length);
    expect(calledRows.filter((r) => r.llm_called)).toHaveLength(CAP);
    const slots = await svc.database.db
      .selectFrom("wallet_report_llm_slots")
      .select("id")
      .where("project_id", "=", svc.project.id)
      .execute();
    expect(slots).toHaveLength(CAP);

    // The cap is spent: one more report, even alone, is written without the LLM.
    const more = await svc.app!.inject({
      url: `/v1/wallets/0x${"c0ffee99".padStart(40, "0")}/report`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(more.statusCode).toBe(200);
    expect(more.headers["x-report-writer"]).toBe("deterministic");
    expect(llm.requests.length).toBe(CAP);
  }, 120_000);
});
