// Row types of the exchange's operations (migrations/0043_exchange_operations.sql).
import type { ColumnType, Generated } from "kysely";
import type { Valuation } from "../regulation/index.ts";
import type { OperationItem } from "./schemas.ts";

type Json<T> = ColumnType<T, string, string>;

export interface ExchangeOperationsTable {
  id: Generated<string>;
  project_id: number;
  operation_id: string;
  user_id: string;
  kind: string;
  at: ColumnType<Date, Date | string, Date | string>;
  body: Json<OperationItem>;
  received_at: ColumnType<Date, Date | string, Date | string>;
  checked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  unjudged: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  laws: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  law_unjudged: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  valuations: ColumnType<Record<string, Valuation> | null, string | null | undefined, string | null>;
}

export interface ExchangeOperationSettingsTable {
  project_id: number;
  rules: Json<Record<string, Record<string, number | string | boolean>>>;
}

export interface ExchangeOperationTables {
  exchange_operations: ExchangeOperationsTable;
  exchange_operation_settings: ExchangeOperationSettingsTable;
}
