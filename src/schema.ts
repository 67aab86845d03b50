// The database as Kysely sees it: every feature's tables, joined in one interface.
import type { AlertTables } from "./alerts/tables.ts";
import type { AnalysisTables } from "./analysis/tables.ts";
import type { AvisoTables } from "./avisos/tables.ts";
import type { ChainsTables } from "./chains/tables.ts";
import type { ExchangeOperationTables } from "./exchange-operations/tables.ts";
import type { IngestTables } from "./ingest/tables.ts";
import type { IntegratorTables } from "./integrator/tables.ts";
import type { InvestigationTables } from "./investigations/tables.ts";
import type { JurisdictionTables } from "./jurisdictions/tables.ts";
import type { KeysTables } from "./keys/tables.ts";
import type { LedgerTables } from "./ledger/tables.ts";
import type { MonitoringTables } from "./monitoring/tables.ts";
import type { NarrativeTables } from "./narratives/tables.ts";
import type { StorageTables } from "./platform/storage/tables.ts";
import type { ProjectTables } from "./projects/tables.ts";
import type { ReportTables } from "./reports/tables.ts";
import type { RescreenTables } from "./rescreen/tables.ts";
import type { ScreeningTables } from "./screening/tables.ts";
import type { UserTables } from "./users/tables.ts";

export interface DB
  extends ProjectTables,
    KeysTables,
    ChainsTables,
    LedgerTables,
    IngestTables,
    AnalysisTables,
    InvestigationTables,
    MonitoringTables,
    IntegratorTables,
    ReportTables,
    NarrativeTables,
    StorageTables,
    AlertTables,
    ExchangeOperationTables,
    RescreenTables,
    ScreeningTables,
    AvisoTables,
    JurisdictionTables,
    UserTables {}
