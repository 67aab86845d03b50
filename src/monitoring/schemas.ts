// TypeBox schemas of the monitored-address routes (docs/api.md, "Addresses and monitoring").
import { type Static, Type } from "@sinclair/typebox";
import { StoredScanSchema } from "../analysis/index.ts";
import { ForeignUserIdSchema } from "../integrator/index.ts";
import { JURISDICTION_CODES } from "../jurisdictions/index.ts";
import { Pagination } from "../platform/http/params.ts";
import { StringEnum } from "../platform/http/schemas.ts";

const Description = Type.Union([Type.String({ maxLength: 500 }), Type.Null()]);

export const RegisterBody = Type.Object({
  address: Type.String({ minLength: 1, maxLength: 200 }),
  chainId: Type.Optional(
    Type.Union(
      [
        Type.Integer({ minimum: 1, maximum: 2147483647 }),
        Type.String({ pattern: "^[1-9]\\d{0,9}$" }),
        Type.Null(),
      ],
      {
        description:
          "EVM chain id, as a number or a decimal string; absent or null: every EVM chain the service follows (one record)",
      },
    ),
  ),
  foreign_user_id: ForeignUserIdSchema,
  description: Type.Optional(Description),
  jurisdiction: Type.Optional(
    Type.Union([StringEnum(JURISDICTION_CODES), Type.Null()], {
      description:
        'the jurisdiction that governs this client relationship; absent or null: the client\'s profile decides (docs/api.md, "Which regulator gets a client")',
    }),
  ),
});

/** PATCH /projects/{projectId}/addresses/{id}: the fields an integrator may change. */
export const PatchBody = Type.Object({
  foreign_user_id: Type.Optional(ForeignUserIdSchema),
  description: Type.Optional(Description),
});

export const AddressSchema = Type.Object({
  id: Type.Integer(),
  address: Type.String(),
  chain_id: Type.Union([Type.Integer(), Type.Null()], {
    description: "the chain it was registered on; null: every EVM chain the service follows",
  }),
  chains: Type.Array(Type.Integer(), {
    description:
      "beyond the contract: the chains it is watched on, its chain_id or, for every chain, those the indexer follows now",
  }),
  foreign_user_id: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: "date-time" }),
  risk: Type.Union([StoredScanSchema, Type.Null()], {
    description: "the address's latest stored scan, or null",
  }),
  stopped_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
    description: "beyond the contract: when monitoring stopped (DELETE); null while it is monitored",
  }),
  jurisdiction: Type.Union([Type.String(), Type.Null()], {
    description: "the jurisdiction it was registered under; null: the client's profile decides",
  }),
});
export type AddressBody = Static<typeof AddressSchema>;

export const AssetSchema = Type.Object({
  token: Type.String({ description: "'native' or the token contract" }),
  symbol: Type.Union([Type.String(), Type.Null()]),
  decimals: Type.Union([Type.Integer(), Type.Null()]),
  raw: Type.String({ description: "the amount in the token's smallest unit" }),
  balance: Type.Union([Type.Number(), Type.Null()], { description: "whole tokens" }),
  usd: Type.Union([Type.Number(), Type.Null()]),
});

export const AddressWithBalanceSchema = Type.Composite([
  AddressSchema,
  Type.Object({
    balance: Type.Union(
      [Type.Array(Type.Composite([AssetSchema, Type.Object({ chain_id: Type.Integer() })])), Type.Null()],
      {
        description:
          "per token and chain (`chain_id`), read from each chain's node; null when no chain it is watched on has one, or none answered",
      },
    ),
  }),
]);

export const WalletParams = Type.Object({ wallet: Type.String({ minLength: 1, maxLength: 200 }) });
export const WalletQuery = Type.Object({
  chainId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, default: 1 })),
});

export const AddressParams = Type.Object({
  projectId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  id: Type.String({ minLength: 1, maxLength: 40 }),
});

export const ListQuery = Type.Composite([
  Pagination,
  Type.Object({ foreign_user_id: Type.Optional(ForeignUserIdSchema) }),
]);
