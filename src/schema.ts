// The database as Kysely sees it: every feature's tables, joined in one interface.
import type { AnalysisTables } from "./analysis/tables.ts";
import type { AttributionTables } from "./attribution/tables.ts";
import type { ChainsTables } from "./chains/tables.ts";
import type { InvestigationTables } from "./investigations/tables.ts";
import type { KeysTables } from "./keys/tables.ts";
import type { MonitoringTables } from "./monitoring/tables.ts";
import type { NarrativeTables } from "./narratives/tables.ts";
import type { NotificationTables } from "./notifications/tables.ts";
import type { ReportTables } from "./reports/tables.ts";

export interface DB
  extends KeysTables,
    ChainsTables,
    AnalysisTables,
    InvestigationTables,
    AttributionTables,
    MonitoringTables,
    NotificationTables,
    ReportTables,
    NarrativeTables {}
