// The example of the notification webhook in the OpenAPI document: the one docs/quickstart.md makes the service send,
// when `vigia devnet send` pays 0.1 ETH to the quickstart's customer `ana` (who lives in Bogotá, so Colombia's
// CO-TX-150 applies), with the headers of both signing schemes computed over the body as it is sent. They are signed
// with EXAMPLE_WEBHOOK_SECRETS (the Standard Webhooks one is the `webhook_secret` of the project's example answer),
// so that a receiver's verifying code can be tried on the example (the timestamps are the example's, not now).
import {
  NOTIFICATION_WEBHOOK,
  type NotificationBody,
  serializeBody,
  signatureHeaders,
} from "../integrator/index.ts";

/** The project's example secrets, one per signing scheme (never a real project's). */
export const EXAMPLE_WEBHOOK_SECRETS = {
  "standard-webhooks": `whsec_${Buffer.from("vigia-devnet-example-webhook-key").toString("base64")}`,
  "hmac-canonical": "3f6c2a9e4b8d1f07a5c3e9b2d4f6a801",
} as const;

/** When the example was signed (a block mined after the scenario, on 4 March 2024). */
export const EXAMPLE_WEBHOOK_AT = Date.parse("2024-03-04T15:20:13.000Z");

/** The message id every attempt of the example carries (`webhook-id`). */
export const EXAMPLE_MESSAGE_ID = "msg_5d0c6f0e-3a7b-4f61-9a8e-2c4b7d9e1f35";

/** The transaction of the example: 0.1 ETH to `ana`. */
export const EXAMPLE_TX_HASH = "0x9c2f7b1e4d8a3c6f0b5e2a9d7c4f1e8b3a6d0c9f2e5b8a1d4c7f0e3b6a9d2c5f";

/** The quickstart customer's monitored address and the anvil account `vigia devnet send` pays from. */
const ANA = "0x00000000000000000000000000000000000a11ce";
const SENDER = "0xa0ee7a142d267c1f36714e4a8f75612f20a79720";

export function exampleNotification(): NotificationBody {
  return {
    type: "notification",
    data: {
      id: 1,
      projectId: 1,
      chainId: 31337,
      address: { id: 1, userId: "ana", address: ANA, description: "Ana's main wallet" },
      txHash: EXAMPLE_TX_HASH,
      timestamp: "2024-03-04T15:20:12.000Z",
      amount: { value: 100000000000000000, valueDecimal: "100000000000000000", usd: 238.78 },
      token: { name: "ETH", symbol: "ETH", decimals: 18, address: null },
      inflictedLaws: [
        {
          id: "CO-TX-150",
          name: "Resolución UIAF 314/2021: transacción individual",
          description:
            "A virtual-asset transaction of USD 150 or more (or its equivalent) not reported as part of multiple transactions is included in the monthly report of transactions to the UIAF through SIREL, within the first 20 calendar days of the next month. Not verified: figures and deadline as secondary sources quote the UIAF; the resolution's articles were not read.",
          source:
            "Resolución UIAF 314 de 2021 (Diario Oficial 51.898, 24-12-2021); Resolución UIAF 84 de 2022 (reporte desde 01-07-2022)",
          risk: "warn",
          country: "colombia",
          countryCode: "CO",
          verified: false,
        },
      ],
      direction: "in",
      counterparty: SENDER,
    },
  };
}

/** The example body, in the order it is sent (keys sorted), and the headers of both schemes that sign it. */
export function devnetWebhookExamples(): Record<string, { body: unknown; headers: Record<string, string> }> {
  const body = exampleNotification();
  const message = {
    id: EXAMPLE_MESSAGE_ID,
    method: "POST" as const,
    path: "/webhook",
    body,
    at: EXAMPLE_WEBHOOK_AT,
  };
  return {
    [NOTIFICATION_WEBHOOK]: {
      body: JSON.parse(serializeBody("standard-webhooks", body)),
      headers: {
        ...signatureHeaders("standard-webhooks", [EXAMPLE_WEBHOOK_SECRETS["standard-webhooks"]], message),
        ...signatureHeaders("hmac-canonical", [EXAMPLE_WEBHOOK_SECRETS["hmac-canonical"]], message),
      },
    },
  };
}
