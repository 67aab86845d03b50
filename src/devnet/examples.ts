// The example of every request of the API, from the devnet scenario: its addresses (README.md's table), its chain
// (31337) and its time (January and February 2024), with the demo project a fresh `npm start` creates (project 1)
// and the quickstart's customer `ana`; and, with the answers (response-examples.ts) and the notification webhook's
// (webhook-example.ts), every example the OpenAPI document carries, so the docs page's "Try it out" sends requests
// that find data on a fresh machine and each answer shows what comes back. test/contract/openapi-examples.test.ts
// fails for an operation without an example for each of its parameters, its body and its answer, or with one its
// schema refuses: a new route adds its own here (or in its schema).
import { DEVNET_CHAIN_ID } from "../chains/index.ts";
import type { ApiExamples } from "../platform/http/examples.ts";
import { devnetWorld } from "../worlds/index.ts";
import { type DemoAddress, demoAddresses } from "./addresses.ts";
import { BITCOIN_EXAMPLE } from "./bitcoin-examples.ts";
import { devnetResponseExamples } from "./response-examples.ts";
import { devnetWebhookExamples } from "./webhook-example.ts";

/** Real-looking ids of things a fresh service has not made yet: answers for them are 404s of the right shape. */
const INVESTIGATION_ID = "6f1c2a4e-9b3d-4e7a-8c55-2d0f9a1b7e34";
const ANALYSIS_ID = "0b7e9d2c-4a61-4f3e-b8d1-5c2a7e9f1034";
const JOB_ID = "c3a9f2e1-7d4b-4c8a-9e16-8b0d5f2a6c71";
/** The quickstart's customer, her monitored address, and her January 2024 report in Mexico. */
const USER = "ana";
const USER_ADDRESS = "0x00000000000000000000000000000000000a11ce";
const PERIOD = "2024-01";
const REPORT = `${USER}.xml`;
const REPORT_PATH = `mx/1/${PERIOD}/${REPORT}`;

/** Every example of the OpenAPI document: requests, answers and the webhook's. */
export function devnetApiExamples(): ApiExamples {
  const world = devnetWorld();
  return {
    ...devnetRequestExamples(demoAddresses(world)),
    responses: devnetResponseExamples(world),
    webhooks: devnetWebhookExamples(),
  };
}

export function devnetRequestExamples(addresses: readonly DemoAddress[] = demoAddresses()): ApiExamples {
  const of = (pattern: string, n = 0) => {
    const found = addresses.filter((a) => a.pattern === pattern)[n];
    if (!found) throw new Error(`the devnet scenario has no ${pattern} case #${n}`);
    return found.address;
  };
  const chainId = DEVNET_CHAIN_ID;
  const project = { projectId: 1 };
  return {
    params: {
      projectId: 1,
      chainId,
      address: of("mixing"),
      addresses: `${of("mixing")},${of("peel_chain")},${of("structuring")}`,
      wallet: of("wash_trading"),
      jobId: JOB_ID,
      analysisId: ANALYSIS_ID,
      layer: 1,
      keyId: 2,
      limit: 10,
      offset: 0,
      foreign_user_id: USER,
      status: "failed",
      period: PERIOD,
      countryCode: "MX",
      search: USER,
      reportId: REPORT,
      path: REPORT_PATH,
      lang: "es",
      recreate: false,
      "*": REPORT_PATH,
      expires: "1709251200",
      signed: "1706659200",
      signature: "pZ3q8Jc1xKv7LmN4tYb2Wd6Hf0Gs9Ea5Ui8Rk3Oj1Q",
    },
    operations: {
      "PATCH /v1/projects/{projectId}": {
        body: {
          integration_url: "http://127.0.0.1:9000",
          jurisdictions: ["CO", "MX"],
          jurisdiction_settings: {
            MX: { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" },
            CO: { codigo_sirel: "PSAV-0042" },
          },
        },
      },
      "POST /v1/projects/{projectId}/keys": { body: { label: "backend", role: "developer" } },
      "POST /v1/projects/{projectId}/users": {
        body: { email: "ana@example.mx", displayName: "Ana Pérez", role: "officer" },
      },
      "PATCH /v1/projects/{projectId}/users/{userId}": { params: { userId: 1 }, body: { role: "viewer" } },
      "POST /auth/login": {
        body: { email: "ana@example.mx", password: "una frase larga que solo ella sabe" },
      },
      "PATCH /auth/session/settings": { body: { lang: "es", timeZone: "America/Mexico_City" } },
      "POST /auth/totp/enable": { body: { code: "123456" } },
      "POST /auth/password": {
        body: { current: "una frase larga que solo ella sabe", next: "otra frase larga que nadie adivina" },
      },
      "POST /auth/password/set": {
        body: {
          token: "d1AmsQeTB7woSMBjdHz9X4P8zqHOBfs2efEr4u6I06E",
          password: "una frase larga que solo ella sabe",
        },
      },
      "POST /v1/projects/{projectId}/addresses/scan-risk": {
        body: {
          addresses: [0, 1, 2].map((n) => ({
            address: of("sanctions_exposure", n),
            chainId: String(chainId),
          })),
          maxDepth: 3,
          skipExisting: true,
        },
      },
      "POST /v1/risk": {
        body: { address: of("peel_chain"), chainId, fromDate: "2024-01-01", toDate: "2024-02-29" },
      },
      // Persons need a list imported first: `vigia lists import un examples/un-sample.xml`.
      "POST /v1/screening/persons": {
        body: {
          persons: [
            { name: "Ana María Pérez Gómez", birthdate: "1990-04-12", nationality: "MX" },
            {
              name: "Comercializadora del Norte S.A. de C.V.",
              type: "entity",
              incorporationDate: "2015-06-01",
              identifiers: [{ kind: "rfc", value: "CNO150601AB1", country: "MX" }],
            },
          ],
        },
      },
      // One client screened again now (leave the body out to screen every client).
      "POST /v1/projects/{projectId}/screening/run": { body: { userId: "user-1042" } },
      "POST /v1/screening": {
        body: {
          person: { name: "Ana María Pérez Gómez", birthdate: "1990-04-12", nationality: "MX" },
          addresses: [{ address: of("sanctions_exposure"), chainId: String(chainId) }],
          maxDepth: 3,
        },
      },
      "POST /v1/projects/{projectId}/investigations": {
        body: { name: "Round trip", wallet: of("round_tripping"), chainId, incremental: true, maxDepth: 4 },
      },
      "GET /v1/projects/{projectId}/investigations/{id}": { params: { id: INVESTIGATION_ID } },
      // The devnet has no Bitcoin chain: an address of mainnet (BIP-173's example), answered once a Bitcoin chain is
      // in the chain list and its transactions imported.
      "GET /v1/clusters/{address}": {
        params: { address: BITCOIN_EXAMPLE.address, chainId: BITCOIN_EXAMPLE.chainId },
      },
      "POST /v1/projects/{projectId}/investigations/{id}/close": { params: { id: INVESTIGATION_ID } },
      "GET /v1/projects/{projectId}/investigations/{id}/evidence": {
        params: { id: INVESTIGATION_ID, format: "md" },
      },
      "POST /v1/projects/{projectId}/addresses": {
        body: { address: USER_ADDRESS, chainId, foreign_user_id: USER, description: "Ana's main wallet" },
      },
      "GET /v1/projects/{projectId}/addresses/{id}": { params: { id: "1" } },
      "PATCH /v1/projects/{projectId}/addresses/{id}": {
        params: { id: "1" },
        body: { foreign_user_id: USER, description: "Ana's main wallet" },
      },
      "DELETE /v1/projects/{projectId}/addresses/{id}": { params: { id: "1" } },
      "POST /v1/projects/{projectId}/notifications/{id}/redeliver": { params: { id: "1" } },
      "POST /v1/projects/{projectId}/integration/test": { body: { foreign_user_id: USER } },
      // The span form (the month's form is `period`); the docs page sends only the parameters filled in.
      "GET /v1/reports/calendar": { params: { from: "2024-02-01", to: "2024-02-29" } },
      "POST /v1/reports/calendar/filed": {
        body: { ...project, countryCode: "CO", period: PERIOD, filing: "CO-ROS-ABSENCE", folio: "SIREL-77" },
      },
      "POST /v1/reports/generate": { body: { ...project, countryCode: "MX", period: PERIOD } },
      "POST /v1/reports/{reportId}/filed": { body: { folio: "2024-1234" } },
      "POST /v1/projects/{projectId}/avisos": {
        body: {
          userId: USER,
          basis: "behaviour",
          narrative:
            "La clienta recibio tres depositos apenas inferiores al umbral de aviso en una semana y los retiro el mismo dia.",
          alertIds: ["1"],
        },
      },
      "GET /v1/projects/{projectId}/alerts": {
        params: {
          status: "open",
          level: "illegal",
          cause: "law",
          assignee: "1",
          client: USER,
          dueBefore: "2024-02-01T06:00:00.000Z",
        },
      },
      "GET /v1/projects/{projectId}/clients/{clientId}/case": { params: { clientId: USER } },
      "GET /v1/projects/{projectId}/clients/{clientId}": { params: { clientId: USER } },
      "GET /v1/projects/{projectId}/operations": {
        params: {
          userId: USER,
          from: "2024-01-01T06:00:00.000Z",
          to: "2024-02-01T06:00:00.000Z",
          limit: 200,
        },
      },
      // A SPEI deposit and the buy it paid for (the CLABE's check digit is right), as the exchange records them.
      "POST /v1/projects/{projectId}/operations": {
        body: {
          operations: [
            {
              operationId: "dep-2024-0001",
              userId: USER,
              kind: "fiat_deposit",
              at: "2024-01-15T09:12:00-06:00",
              currency: "MXN",
              amount: "15000",
              rail: "spei",
              counterparty: { name: "Ana Pérez García", bank: "BBVA México", account: "012180001183597198" },
              reference: "BBVA20240115091200001",
            },
            {
              operationId: "buy-2024-0001",
              userId: USER,
              kind: "buy",
              at: "2024-01-15T09:20:00-06:00",
              asset: "USDT",
              amount: "880.5",
              currency: "MXN",
              fiatAmount: "15000",
              price: "17.0358",
            },
          ],
        },
      },
      "GET /v1/projects/{projectId}/alerts/{alertId}/match": { params: { alertId: "1" } },
      "POST /v1/projects/{projectId}/alerts/{alertId}/match/review": {
        params: { alertId: "1" },
        body: {
          decision: "discard",
          reason: "Fecha de nacimiento y nacionalidad distintas de las de la entrada de la lista.",
        },
      },
      "GET /v1/projects/{projectId}/alerts/{alertId}": { params: { alertId: "1" } },
      "GET /v1/projects/{projectId}/alerts/{alertId}/evidence": { params: { alertId: "1", format: "md" } },
      "PATCH /v1/projects/{projectId}/alerts/{alertId}": {
        params: { alertId: "1" },
        body: {
          status: "closed",
          resolution: "reported",
          reference: "UIF-24H-2024-0001",
          note: "Aviso filed.",
        },
      },
    },
  };
}
