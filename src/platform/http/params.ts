// Path and query schemas that many routes share.
import { Type } from "@sinclair/typebox";

export const ProjectParams = Type.Object({ projectId: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

export const DEFAULT_PAGE = { limit: 10, offset: 0 } as const;

/** Optional in the request; Ajv fills the defaults in, and `page()` gives verbs plain numbers. */
export const Pagination = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_PAGE.limit })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: DEFAULT_PAGE.offset })),
});

export const page = (query: { limit?: number; offset?: number }) => ({
  limit: query.limit ?? DEFAULT_PAGE.limit,
  offset: query.offset ?? DEFAULT_PAGE.offset,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Resource ids that are UUIDs: a path value that is not one names nothing (404), whatever it is. */
export const isUuid = (value: string) => UUID.test(value);
