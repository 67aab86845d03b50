// Path and query schemas that many routes share.
import { Type } from "@sinclair/typebox";

export const ProjectParams = Type.Object({ projectId: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

export const Pagination = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
});
