// The notification Vigía POSTs to `{integration_url}/webhook` (docs/api.md, "Calls to the integrator"), described for
// the OpenAPI document's `webhooks` section: the body's three shapes (a monitored transfer that met laws, an exchange
// operation that met laws, an error about a client's profile) as monitoring/check.ts, exchange-operations/law.ts and
// outbox.ts write them, the headers of both signing schemes (signing.ts), and what the receiver answers
// (deliver.ts). The composition root gives it to the HTTP app; its example is the caller's (the devnet's).
import { type Static, Type } from "@sinclair/typebox";
import { StringEnum } from "../platform/http/schemas.ts";
import { RETRY_SCHEDULE_MS } from "./deliver.ts";
import { WEBHOOK_TIMEOUT_MS } from "./endpoint-check.ts";
import { SIGNATURE_TOLERANCE_MS } from "./signing.ts";

/** The name of the webhook in the OpenAPI document. */
export const NOTIFICATION_WEBHOOK = "notification";

const InflictedLaw = Type.Object(
  {
    id: Type.String({ description: "the rule's id, e.g. `MX-AVISO`, `CO-TX-450`, `XB-MIXER`" }),
    name: Type.String(),
    description: Type.String({
      description: "what the rule asks, in the version in force on the operation's day",
    }),
    source: Type.String({ description: "where the text was read" }),
    risk: StringEnum(["warn", "illegal"]),
    country: Type.String({ description: "the jurisdiction's name, e.g. `mexico`" }),
    countryCode: Type.String({ description: "ISO 3166 alpha-2, or XB for the international rules" }),
    verified: Type.Boolean({ description: "false: a figure of the rule comes from secondary sources" }),
  },
  { additionalProperties: false },
);

const Id = Type.Integer({
  description: "the message's id, the same in every attempt (as `webhook-id` is): deduplicate on it",
});

const TransferNotification = Type.Object(
  {
    type: Type.Literal("notification"),
    data: Type.Object(
      {
        id: Id,
        projectId: Type.Integer(),
        chainId: Type.Integer(),
        address: Type.Object(
          {
            id: Type.Integer({
              description: "the monitored address's id (`POST /projects/{projectId}/addresses`)",
            }),
            userId: Type.String({ description: "the `foreign_user_id` it was registered with" }),
            address: Type.String({ description: "as the chain writes it (Tron: base58check)" }),
            description: Type.Union([Type.String(), Type.Null()]),
          },
          { additionalProperties: false },
        ),
        txHash: Type.String(),
        timestamp: Type.String({ format: "date-time", description: "the block's time" }),
        amount: Type.Object(
          {
            value: Type.Number({
              description: "in the token's smallest unit; beyond 2^53 inexact: read valueDecimal",
            }),
            valueDecimal: Type.String({ description: "the same, exactly, as a decimal string" }),
            usd: Type.Union([Type.Number(), Type.Null()], {
              description: "at the day's price; null unpriced",
            }),
          },
          { additionalProperties: false },
        ),
        token: Type.Object(
          {
            name: Type.Union([Type.String(), Type.Null()]),
            symbol: Type.Union([Type.String(), Type.Null()]),
            decimals: Type.Union([Type.Integer(), Type.Null()]),
            address: Type.Union([Type.String(), Type.Null()], {
              description: "null for the chain's own coin",
            }),
          },
          { additionalProperties: false },
        ),
        inflictedLaws: Type.Array(InflictedLaw),
        // Beyond the original's contract; absent from the sample of `POST .../integration/test`.
        direction: Type.Optional(
          StringEnum(["in", "out"], { description: "in: the monitored address received" }),
        ),
        counterparty: Type.Optional(Type.String({ description: "the other address of the transfer" })),
        test: Type.Optional(
          Type.Literal(true, {
            description: "a sample sent by `POST .../integration/test`, not a real transfer",
          }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: "Transfer notification" },
);

const OperationNotification = Type.Object(
  {
    type: Type.Literal("notification"),
    data: Type.Object(
      {
        id: Id,
        projectId: Type.Integer(),
        operation: Type.Object(
          {
            operationId: Type.String(),
            userId: Type.String(),
            kind: Type.String({
              description: "the operation's kind as it was sent (`buy`, `fiat_deposit`, …)",
            }),
            at: Type.String({ format: "date-time" }),
            amount: Type.Object(
              {
                value: Type.Union([Type.String(), Type.Null()], {
                  description: "the amount the law valued, as a decimal string",
                }),
                unit: Type.Union([Type.String(), Type.Null()]),
                usd: Type.Union([Type.Number(), Type.Null()]),
              },
              { additionalProperties: false },
            ),
          },
          { additionalProperties: false },
        ),
        timestamp: Type.String({ format: "date-time" }),
        inflictedLaws: Type.Array(InflictedLaw),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: "Exchange operation notification" },
);

const ErrorNotification = Type.Object(
  {
    type: Type.Literal("error"),
    data: Type.String({
      description:
        "the user, the address, the transaction and why: the client's profile could not be read, or lacks what the governing jurisdiction's files need",
    }),
  },
  { additionalProperties: false, title: "Error about a client" },
);

/** The body of a call to `{integration_url}/webhook`, sent with the keys of every object sorted (signing.ts). */
export const NotificationBodySchema = Type.Union(
  [TransferNotification, OperationNotification, ErrorNotification],
  {
    description:
      "Sent with the keys of every object sorted, inside arrays too: verify the signature over the bytes received.",
  },
);
export type NotificationBody = Static<typeof NotificationBodySchema>;

const duration = (ms: number) =>
  ms >= 3_600_000 ? `${ms / 3_600_000} h` : ms >= 60_000 ? `${ms / 60_000} min` : `${ms / 1000} s`;

const header = (name: string, description: string) => ({
  name,
  in: "header",
  required: false,
  description,
  schema: { type: "string" },
});

/** The OpenAPI 3.1 `webhooks` object: the notification, its headers in both signing schemes, the answers. */
export function notificationWebhooks(): Record<string, unknown> {
  const tolerance = `${SIGNATURE_TOLERANCE_MS / 60_000} minutes`;
  return {
    [NOTIFICATION_WEBHOOK]: {
      post: {
        tags: ["Calls to the integrator"],
        summary: "A notification to the integrator: a transfer or an operation that met laws, or an error",
        description:
          "`POST {integration_url}/webhook` (the project's `integration_url`). Delivered at least once: deduplicate " +
          "on `webhook-id` or `data.id`. Signed with the project's `webhook_secret` in its `signing_scheme`: " +
          "`standard-webhooks` (the default) sends `webhook-id`, `webhook-timestamp` and `webhook-signature`; " +
          "`hmac-canonical` (integrators built for the original service) sends `x-wavynode-hmac` and " +
          `\`x-wavynode-timestamp\`. Refuse a timestamp more than ${tolerance} off. A call is delivered when the ` +
          `receiver answers 2xx within ${WEBHOOK_TIMEOUT_MS / 1000} s; anything else is retried after ` +
          `${RETRY_SCHEDULE_MS.map(duration).join(", ")}, then the message is \`failed\` (docs/api.md, ` +
          '"Calls to the integrator").',
        parameters: [
          header(
            "webhook-id",
            "standard-webhooks: the message's id, the same in every attempt of one message (deduplicate on it)",
          ),
          header("webhook-timestamp", "standard-webhooks: when this attempt was signed, unix seconds"),
          header(
            "webhook-signature",
            'standard-webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the bytes the `whsec_<base64>` secret encodes; during a rotation two, space-separated (either verifies)',
          ),
          header(
            "x-wavynode-hmac",
            "hmac-canonical: the base64 HMAC-SHA256, keyed by the 32-character hex secret as text, of `POST::<the URL's path, lower case>::<JSON>::<timestamp>`, JSON being the body with the keys of its nested objects sorted (the body as sent is that string)",
          ),
          header("x-wavynode-timestamp", "hmac-canonical: when this attempt was signed, epoch milliseconds"),
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: NotificationBodySchema } },
        },
        responses: {
          "2XX": {
            description: "Delivered: any 2xx within the time limit; the body of the answer is not read.",
          },
          "401": {
            description:
              "hmac-canonical during a rotation: the signature of the old secret is refused, and the same call is sent again at once signed with the new one (403 likewise); otherwise retried as any failure.",
          },
          default: {
            description:
              "Not delivered (another status, a timeout, a refused connection, a redirect, which is not followed): retried on the schedule above.",
          },
        },
      },
    },
  };
}
