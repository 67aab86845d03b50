// TypeBox schemas of the investigation routes (docs/api.md, "Investigations and layered analyses").

import { type Static, Type } from "@sinclair/typebox";
import { GraphSchema, MaxDepthSchema } from "../analysis/index.ts";
import { StringEnum } from "../platform/http/schemas.ts";

const Address = Type.String({
  minLength: 10,
  maxLength: 200,
  description:
    "the wallet as its chain writes it (EVM hex; Tron base58check or hex; Bitcoin as its network writes it)",
});

export const CreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  wallet: Type.Optional(Address),
  address: Type.Optional({ ...Address, description: "alias of `wallet`" }),
  chainId: Type.Optional(
    Type.Union(
      [Type.Integer({ minimum: 1, maximum: 2147483647 }), Type.String({ pattern: "^[1-9][0-9]{0,9}$" })],
      {
        description: "chain id, a number or a decimal string; default 1",
      },
    ),
  ),
  incremental: Type.Optional(Type.Boolean({ default: false })),
  maxDepth: MaxDepthSchema,
});

const AnalysisStatus = StringEnum(["pending", "running", "completed", "failed"], {
  description: "its analysis's status",
});

export const InvestigationSchema = Type.Object({
  id: Type.String({ format: "uuid" }),
  name: Type.String(),
  address: Type.String(),
  chain_id: Type.Integer(),
  incremental: Type.Boolean(),
  max_depth: Type.Integer(),
  analysis_id: Type.String({ description: 'the layered analysis it follows; "" until it exists' }),
  status: AnalysisStatus,
  analysis_status: {
    ...AnalysisStatus,
    description: "the same as `status`, under the name clients of the original service read",
  },
  risk_score: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
    description: "the analysis's latest score, provisional until it completes; null before its first layer",
  }),
  created_at: Type.String({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
  closed_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
    description: "when it was closed (POST .../close); an open one counts against the project's cap",
  }),
});

/** An investigation as the API sends it. */
export type Investigation = Static<typeof InvestigationSchema>;

export const CreatedSchema = Type.Intersect([
  InvestigationSchema,
  Type.Object({
    graph: Type.Optional({ ...GraphSchema, description: "standard mode: the complete cumulative graph" }),
  }),
]);

export const InvestigationParams = Type.Object({
  projectId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  id: Type.String({ minLength: 1, maxLength: 100 }),
});
