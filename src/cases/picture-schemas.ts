// The client picture's HTTP schema (docs/api.md, "Client picture"); its type derives from it.
import { type Static, Type } from "@sinclair/typebox";
import { StringEnum } from "../platform/http/schemas.ts";

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Level = Type.String({ description: "`low`, `medium`, `high` or `critical`" });

export const ClientPictureSchema = Type.Object({
  clientId: Type.String(),
  risk: Type.Object({
    level: Type.Union([Level, Type.Null()], {
      description:
        "the highest of the drivers; null when nothing is known (no verdict, no open operation alert)",
    }),
    levelText: Nullable(Type.String()),
    drivers: Type.Array(
      Type.Object({
        kind: StringEnum(["wallet", "operations"]),
        level: Level,
        levelText: Type.String(),
        ref: Type.String({ description: "`chainId:address` of a wallet, `alert:<id>` of an alert" }),
        text: Type.String({
          description: "the verdict's reason, or the alert's reason in the answer's language",
        }),
      }),
      { description: "what makes the level, highest first" },
    ),
  }),
  wallets: Type.Array(
    Type.Object({
      chainId: Type.Union([Type.Integer(), Type.Null()]),
      address: Type.String(),
      level: Nullable(Type.String()),
      score: Type.Union([Type.Integer(), Type.Null()]),
      reason: Nullable(Type.String()),
      source: Nullable(Type.String()),
      analysisId: Nullable(Type.String()),
      at: Nullable(Type.String({ format: "date-time" })),
    }),
  ),
  operationAlerts: Type.Array(
    Type.Object({
      id: Type.String(),
      cause: Type.String(),
      level: Type.String(),
      reasonText: Type.String(),
      operations: Type.Integer(),
      createdAt: Type.String({ format: "date-time" }),
    }),
  ),
  operations: Type.Object({
    since: Type.String({ format: "date-time" }),
    count: Type.Integer(),
    truncated: Type.Boolean(),
    first: Nullable(Type.String()),
    last: Nullable(Type.String()),
    byKind: Type.Array(
      Type.Object({
        kind: Type.String(),
        count: Type.Integer(),
        usd: Type.Number({ description: "their value in USD, where a rate or price is known" }),
        unvalued: Type.Integer({
          description: "how many could not be valued (no rate or price on their day)",
        }),
      }),
    ),
    payers: Type.Integer({ description: "distinct payers of its fiat deposits" }),
    destinations: Type.Integer({ description: "distinct destinations of its crypto withdrawals" }),
    custody: Type.Union(
      [
        Type.Object({
          at: Type.String({ description: "when the snapshot was taken" }),
          balances: Type.Array(
            Type.Object({
              asset: Type.String(),
              amount: Type.String(),
              chainId: Type.Union([Type.Integer(), Type.Null()]),
              address: Nullable(Type.String({ description: "the wallet that holds it" })),
              since: Nullable(Type.String({ description: "when its custody began" })),
              usd: Type.Union([Type.Number(), Type.Null()]),
              mxn: Type.Union([Type.Number(), Type.Null()], {
                description: "its value in pesos on the snapshot's day (RCG Art. 24 Bis 3)",
              }),
            }),
          ),
        }),
        Type.Null(),
      ],
      { description: "the newest custody snapshot the integrator sent, each balance valued on its day" },
    ),
  }),
  otherOpenAlerts: Type.Integer({
    description: "its open alerts of other causes (law, analysis, lists): see its case",
  }),
});
export type ClientPicture = Static<typeof ClientPictureSchema>;
