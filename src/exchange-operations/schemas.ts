// The exchange's operations as the integrator sends them (POST /projects/{id}/operations, docs/api.md "Exchange
// operations"): one schema per kind, and the envelope every item shares. The route validates the envelope with the
// request and each item against its kind's schema here (items.ts), so that a refusal names the item's index and
// its field. The row and view types derive from these schemas.
import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { FOREIGN_USER_ID_MAX } from "../integrator/index.ts";
import { StringEnum } from "../platform/http/schemas.ts";

export const OPERATION_KINDS = [
  "buy",
  "sell",
  "swap",
  "fiat_deposit",
  "fiat_withdrawal",
  "crypto_deposit",
  "crypto_withdrawal",
  "fee",
  "custody_snapshot",
] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

export const RAILS = ["spei", "pix", "ach", "card", "cash", "other"] as const;
export type Rail = (typeof RAILS)[number];

/** At most this many operations in one request. */
export const MAX_OPERATIONS = 1_000;

const Amount = (description: string) =>
  Type.String({
    pattern: "^(0|[1-9][0-9]{0,29})(\\.[0-9]{1,18})?$",
    description: `${description}: a decimal string, at most 18 decimals ("1500.25")`,
  });
const Currency = Type.String({ pattern: "^[A-Z]{3}$", description: "ISO 4217 code (MXN, BRL, COP, USD…)" });
const Asset = Type.String({
  pattern: "^[A-Za-z0-9.]{1,20}$",
  description: "the virtual asset's symbol (USDT, BTC, ETH…)",
});

const Common = {
  operationId: Type.String({
    minLength: 1,
    maxLength: 128,
    description: "the integrator's own id of the operation: sending it again changes nothing",
  }),
  userId: Type.String({
    minLength: 1,
    maxLength: FOREIGN_USER_ID_MAX,
    description: "the integrator's client",
  }),
  at: Type.String({ description: "when the operation was concluded (ISO 8601 with its offset)" }),
};

const Trade = (kind: "buy" | "sell") =>
  Type.Object(
    {
      ...Common,
      kind: Type.Literal(kind),
      asset: Asset,
      amount: Amount("the asset's amount"),
      currency: Currency,
      fiatAmount: Amount("what the client paid or received in `currency`"),
      price: Amount("the price of one unit of the asset in `currency`"),
    },
    { additionalProperties: false },
  );

const Swap = Type.Object(
  {
    ...Common,
    kind: Type.Literal("swap"),
    asset: Asset,
    amount: Amount("the amount given"),
    assetReceived: Asset,
    amountReceived: Amount("the amount received"),
  },
  { additionalProperties: false },
);

const Counterparty = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 300, description: "the payer's or payee's name" }),
    bank: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    account: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "the account: an 18-digit CLABE for SPEI (its check digit is verified)",
      }),
    ),
    taxId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 32,
        description: "the payer's or payee's tax id: for Pix a CPF or CNPJ (verified); an RFC in Mexico",
      }),
    ),
    pixKey: Type.Optional(
      Type.String({ minLength: 1, maxLength: 77, description: "the Pix key (verified)" }),
    ),
  },
  { additionalProperties: false },
);

const Fiat = (kind: "fiat_deposit" | "fiat_withdrawal") =>
  Type.Object(
    {
      ...Common,
      kind: Type.Literal(kind),
      currency: Currency,
      amount: Amount("the amount in `currency`"),
      rail: Type.Union(
        RAILS.map((r) => Type.Literal(r)),
        { description: "spei, pix, ach, card, cash or other" },
      ),
      counterparty: Type.Optional(Counterparty),
      reference: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description:
            "the rail's reference: SPEI's clave de rastreo, Pix's end-to-end id (E + 31 characters)",
        }),
      ),
    },
    { additionalProperties: false },
  );

const Crypto = (kind: "crypto_deposit" | "crypto_withdrawal") =>
  Type.Object(
    {
      ...Common,
      kind: Type.Literal(kind),
      asset: Asset,
      amount: Amount("the asset's amount"),
      chainId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
      address: Type.String({
        minLength: 1,
        maxLength: 128,
        description:
          kind === "crypto_deposit" ? "the client's deposit address" : "the withdrawal's destination address",
      }),
      txHash: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    },
    { additionalProperties: false },
  );

const Fee = Type.Object(
  {
    ...Common,
    kind: Type.Literal("fee"),
    currency: Type.Optional(Currency),
    asset: Type.Optional(Asset),
    amount: Amount("the fee charged"),
    of: Type.String({
      minLength: 1,
      maxLength: 128,
      description: "the `operationId` the fee was charged on",
    }),
  },
  { additionalProperties: false },
);

const Balance = Type.Object(
  {
    asset: Asset,
    amount: Amount("the balance held"),
    chainId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
    address: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: "the wallet that holds it, when one is the client's",
      }),
    ),
    since: Type.Optional(Type.String({ description: "when the custody of this asset began (ISO 8601)" })),
  },
  { additionalProperties: false },
);

const Custody = Type.Object(
  {
    ...Common,
    kind: Type.Literal("custody_snapshot"),
    balances: Type.Array(Balance, { maxItems: 200 }),
  },
  { additionalProperties: false },
);

/** Each kind's schema. */
export const KIND_SCHEMAS = {
  buy: Trade("buy"),
  sell: Trade("sell"),
  swap: Swap,
  fiat_deposit: Fiat("fiat_deposit"),
  fiat_withdrawal: Fiat("fiat_withdrawal"),
  crypto_deposit: Crypto("crypto_deposit"),
  crypto_withdrawal: Crypto("crypto_withdrawal"),
  fee: Fee,
  custody_snapshot: Custody,
} satisfies Record<OperationKind, TSchema>;

export type OperationItem = {
  [K in OperationKind]: Static<(typeof KIND_SCHEMAS)[K]>;
}[OperationKind];
export type OperationOf<K extends OperationKind> = Static<(typeof KIND_SCHEMAS)[K]>;

/** What the request's own validation checks of every item; the rest is its kind's (items.ts). */
const Envelope = Type.Object(
  {
    operationId: Common.operationId,
    userId: Common.userId,
    kind: StringEnum(OPERATION_KINDS, { description: OPERATION_KINDS.join(", ") }),
    at: Type.String({ format: "date-time", description: Common.at.description }),
  },
  { additionalProperties: true },
);

export const OperationsBody = Type.Object(
  { operations: Type.Array(Envelope, { minItems: 1, maxItems: MAX_OPERATIONS }) },
  { additionalProperties: false },
);

export const IngestResponse = Type.Object({
  received: Type.Integer({ description: "operations in the request" }),
  created: Type.Integer({ description: "operations new to the service" }),
  unchanged: Type.Integer({ description: "operations already held with the same content" }),
});

export const StoredOperation = Type.Object({
  operation: Type.Unsafe<OperationItem>(Type.Object({}, { additionalProperties: true })),
  receivedAt: Type.String({ format: "date-time" }),
  checkedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  unjudged: Type.Array(Type.String()),
});
export type StoredOperationView = Static<typeof StoredOperation>;

export const OperationsQuery = Type.Object({
  userId: Type.String({ minLength: 1, maxLength: FOREIGN_USER_ID_MAX }),
  from: Type.Optional(Type.String({ format: "date-time" })),
  to: Type.Optional(Type.String({ format: "date-time" })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 200 })),
});
