// The language of the API's answers: the texts the service writes (a quick check's reason, error messages) follow
// the request's Accept-Language, and an answer says which language it is in (Content-Language, Vary); a request
// with no Accept-Language is answered in English, as the API always answered. The codes (riskLevel, error) never
// change. In-memory PGlite, or PostgreSQL with VIGIA_TEST_DB=postgres.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRiskJob } from "../../src/analysis/jobs.ts";
import { SCENARIO_START, writeWorldToStore } from "../../src/worlds/index.ts";
import { DAY, World } from "../../src/worlds/world.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
const CHAIN = 1;
const T = SCENARIO_START + 20 * DAY;

const world = new World("languages");
const lazarus = world.account("lazarus", { label: "OFAC SDN: Lazarus Group", category: "sanctioned" });
const employer = world.account("employer");
const client = world.account("client");
world.sendUsd(employer, client, "USDV", 4_775, T - 5 * DAY);
world.sendUsd(lazarus, client, "USDV", 12_000, T);
const quiet = world.account("quiet");
world.sendUsd(employer, quiet, "USDV", 300, T);

beforeAll(async () => {
  svc = await startTestService({ env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" } });
  await writeWorldToStore(svc.database.db, world, CHAIN);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

async function quick(address: string, language?: string) {
  const res = await svc.app!.inject({
    method: "GET",
    url: `/v1/risk/quick?address=${address}&chainId=${CHAIN}`,
    headers: { ...auth(svc.project.keys.viewer), ...(language ? { "accept-language": language } : {}) },
  });
  expect(res.statusCode).toBe(200);
  return { headers: res.headers, data: res.json().data };
}

describe("a quick check's reason", () => {
  it("is the risk core's English without Accept-Language, and says so", async () => {
    const { headers, data } = await quick(client.address);
    expect(headers["content-language"]).toBe("en");
    expect(String(headers.vary)).toMatch(/accept-language/i);
    expect(data.level).toBe("critical");
    expect(data.reason).toMatch(/^Received USD 12,000 .*directly from a sanctioned address/);
  });

  it("is written in Spanish for es-MX, from the same verdict, with the same score and level code", async () => {
    const en = (await quick(client.address, "en-US")).data;
    const { headers, data } = await quick(client.address, "es-MX,es;q=0.9,en;q=0.8");
    expect(headers["content-language"]).toBe("es");
    expect(data.level).toBe(en.level);
    expect(data.risk).toBe(en.risk);
    expect(data.reason).toMatch(/^Recibió USD 12,000 .*directamente de una dirección sancionada/);
    expect(data.reason).not.toMatch(/\b(Received|from|sanctioned)\b/);
  });

  it("says there is nothing, in Spanish, for an address with no indicators", async () => {
    const { data } = await quick(quiet.address, "es-MX");
    expect(data.level).toBe("minimal");
    expect(data.reason).toMatch(
      /^Sin indicadores de riesgo: 1 transferencia \(USD 300 recibidos, USD 0 enviados\)/,
    );
  });
});

describe("errors", () => {
  it("keep their code and English message without Accept-Language", async () => {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/keys`,
      headers: auth(svc.project.keys.viewer),
      payload: {},
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: "forbidden" });
    expect(res.json().message).toMatch(
      /^Forbidden: this action needs a key of role admin; this key's role is viewer$/,
    );
    expect(res.headers["content-language"]).toBe("en");
  });

  it("name the role needed and the caller's in Spanish for es-MX", async () => {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/keys`,
      headers: { ...auth(svc.project.keys.viewer), "accept-language": "es-MX" },
      payload: {},
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("forbidden");
    expect(res.json().message).toBe(
      "Prohibido: esta acción requiere el rol administrador; su rol es lector. Pida a un administrador del proyecto que le asigne el rol necesario",
    );
    expect(res.headers["content-language"]).toBe("es");
  });

  it("say a wrong key, an invalid query and an unknown route in Spanish, details at the same paths", async () => {
    const key = await svc.app!.inject({
      method: "GET",
      url: `/v1/risk/quick?address=${client.address}`,
      headers: { "x-api-key": "ApiKey vigia_nope", "accept-language": "es" },
    });
    expect(key.statusCode).toBe(401);
    expect(key.json()).toMatchObject({ error: "unauthorized" });
    expect(key.json().message).toMatch(/^La clave de API no es válida/);

    const query = await svc.app!.inject({
      method: "GET",
      url: "/v1/risk/quick?chainId=1",
      headers: { ...auth(svc.project.keys.viewer), "accept-language": "es-MX" },
    });
    expect(query.statusCode).toBe(400);
    expect(query.json().message).toBe("Los parámetros de la consulta no son válidos");
    expect(query.json().details).toEqual([
      { path: "/address", message: "falta el campo obligatorio «address»" },
    ]);

    const route = await svc.app!.inject({
      method: "GET",
      url: "/v1/nothing-here",
      headers: { "accept-language": "es" },
    });
    expect(route.statusCode).toBe(404);
    expect(route.json()).toMatchObject({
      error: "not_found",
      message: "No existe la ruta GET /v1/nothing-here",
    });
  });
});

describe("the choice of a request's language", () => {
  it("is English for no header or only *, the person's setting first, else the header by weight", async () => {
    const { requestLang } = await import("../../src/messages/index.ts");
    expect(requestLang(undefined, undefined)).toBe("en");
    expect(requestLang(undefined, "*")).toBe("en");
    expect(requestLang(undefined, " * ;q=1")).toBe("en");
    expect(requestLang(undefined, "es-MX,es;q=0.9,*;q=0.5")).toBe("es");
    expect(requestLang(undefined, "pt-BR")).toBe("es");
    expect(requestLang("en", "es-MX")).toBe("en");
    expect(requestLang("es", undefined)).toBe("es");
  });
});

describe("a scan's reason", () => {
  async function scan(language?: string) {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
      headers: { ...auth(svc.project.keys.developer), ...(language ? { "accept-language": language } : {}) },
      payload: { addresses: [{ address: client.address, chainId: String(CHAIN) }], maxDepth: 2 },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data.results[0];
  }

  it("is English without Accept-Language and Spanish for es-MX, fresh or skipped, with the same codes", async () => {
    const en = await scan();
    expect(en.riskLevel).toBe("critical");
    expect(en.riskReason).toMatch(/^Received USD 12,000 .*directly from a sanctioned address/);
    const es = await scan("es-MX");
    expect(es.status).toBe("skipped");
    expect(es.riskLevel).toBe(en.riskLevel);
    expect(es.riskScore).toBe(en.riskScore);
    expect(es.riskReason).toMatch(/^Recibió USD 12,000 .*directamente de una dirección sancionada/);
  });

  it("is Spanish in the stored results for es-MX", async () => {
    const stored = async (language?: string) => {
      const res = await svc.app!.inject({
        method: "GET",
        url: `/v1/projects/${svc.project.id}/addresses/scan-risk?addresses=${client.address}`,
        headers: { ...auth(svc.project.keys.viewer), ...(language ? { "accept-language": language } : {}) },
      });
      expect(res.statusCode).toBe(200);
      return res.json().data.results[0];
    };
    expect((await stored()).riskReason).toMatch(/^Received USD 12,000/);
    expect((await stored("es-MX")).riskReason).toMatch(/^Recibió USD 12,000/);
  });
});

describe("what is wrong with a field (details)", () => {
  const scan = (payload: object, language?: string) =>
    svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
      headers: { ...auth(svc.project.keys.developer), ...(language ? { "accept-language": language } : {}) },
      payload,
    });

  it("is Ajv's English without Accept-Language and Spanish for es-MX, at the same paths", async () => {
    const bad = {
      addresses: [{ address: client.address, chainId: String(CHAIN) }],
      maxDepth: 9,
      maxdepht: 2,
    };
    const en = (await scan(bad)).json();
    const es = (await scan(bad, "es-MX")).json();
    expect(en.details.map((d: { path: string }) => d.path)).toEqual(
      es.details.map((d: { path: string }) => d.path),
    );
    expect(en.details).toContainEqual({
      path: "/maxdepht",
      message: 'unknown field "maxdepht": did you mean "maxDepth"?',
    });
    expect(es.details).toContainEqual({
      path: "/maxdepht",
      message: "campo desconocido «maxdepht»: ¿quiso decir «maxDepth»?",
    });
    const noAddresses = (await scan({ maxDepth: 9 }, "es-MX")).json();
    expect(noAddresses.details).toEqual(
      expect.arrayContaining([{ path: "/addresses", message: "falta el campo obligatorio «addresses»" }]),
    );
    const tooDeep = (
      await scan({ addresses: [{ address: client.address, chainId: "1" }], maxDepth: 9 }, "es")
    ).json();
    expect(tooDeep.details).toEqual([{ path: "/maxDepth", message: "debe ser como máximo 7" }]);
  });

  it("says a body that is not JSON in Spanish", async () => {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
      headers: {
        ...auth(svc.project.keys.developer),
        "accept-language": "es",
        "content-type": "application/json",
      },
      payload: "{addresses: ",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].message).toMatch(/^el cuerpo no es JSON válido/);
  });
});

describe("a risk job's reason", () => {
  it("is English without Accept-Language and Spanish for es-MX, from the one stored result", async () => {
    const started = await svc.app!.inject({
      method: "POST",
      url: "/v1/risk",
      headers: auth(svc.project.keys.developer),
      payload: { address: client.address, chainId: CHAIN, fromDate: "2020-01-01" },
    });
    expect(started.statusCode, started.body).toBe(202);
    const { jobId } = started.json().data;
    await runRiskJob(svc.analysis, jobId, true);
    const read = async (language?: string) => {
      const res = await svc.app!.inject({
        method: "GET",
        url: `/v1/risk/${jobId}`,
        headers: { ...auth(svc.project.keys.viewer), ...(language ? { "accept-language": language } : {}) },
      });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    };
    const en = await read();
    const es = await read("es-MX");
    expect(en).toMatchObject({ status: "completed", result: { riskLevel: "critical" } });
    expect(en.result.riskReason).toMatch(/^Received USD 12,000 .*directly from a sanctioned address/);
    expect(es.result.riskReason).toMatch(/^Recibió USD 12,000 .*directamente de una dirección sancionada/);
    expect({ ...es.result, riskReason: "" }).toEqual({ ...en.result, riskReason: "" });
  });
});
