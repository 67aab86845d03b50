// The shapes the pages read from the service (docs/api.md): the session's user, alerts, cases, match reviews,
// reports, lists. Only the fields the pages show; the service may send more.
import type { Lang } from "../../src/messages/define.ts";

export type Role = "viewer" | "developer" | "officer" | "admin";
export const ROLES: readonly Role[] = ["viewer", "developer", "officer", "admin"];
export const atLeast = (role: Role, needed: Role) => ROLES.indexOf(role) >= ROLES.indexOf(needed);

export interface SessionUser {
  id: number;
  projectId: number;
  email: string;
  displayName: string;
  role: Role;
  lang: Lang;
  timeZone: string;
  totpEnabled: boolean;
}
export interface Session {
  user: SessionUser;
  csrfToken: string;
}

export interface Person {
  id: number;
  email: string;
  displayName: string;
  role: Role;
  disabledAt: string | null;
}

export type AlertStatus = "open" | "in_review" | "escalated" | "closed";
export const STATUSES: readonly AlertStatus[] = ["open", "in_review", "escalated", "closed"];
export const RESOLUTIONS = ["false_positive", "no_action", "reported"] as const;
export const CAUSES = ["law", "analysis", "rescreen", "person_match", "attempt"] as const;
export const LEVELS = [
  "illegal",
  "warn",
  "critical",
  "high",
  "medium",
  "low",
  "match",
  "pep",
  "review",
] as const;

export interface Alert {
  id: string;
  subject: { chainId: number; address: string; userId: string | null; addressId: string | null };
  cause: string;
  causeKey: string;
  level: string;
  /** the English reason stored when it was raised (what integrators read) */
  reason: string;
  /** the reason in the reader's language: what the pages show */
  reasonText: string;
  evidence: {
    transfers: {
      txHash: string;
      at: string;
      usd: number | null;
      direction: string;
      counterparty: string | null;
    }[];
    laws: { id: string; name: string; source: string }[];
    analyses?: { riskScore: number; riskLevel: string; reasonText: string; at: string }[];
    persons?: { subject: string; list: string; matchedName: string; score: number; verdict: string }[];
    operations?: {
      operationId: string;
      kind: string;
      at: string;
      amount: string;
      unit: string;
      usd: number | null;
      counterparty?: string;
      account?: string;
      reference?: string;
      address?: string;
    }[];
  };
  deadline: { at: string; filing: string; source: string; overdue: boolean; timeZone?: string } | null;
  status: AlertStatus;
  transitions: AlertStatus[];
  resolution: string | null;
  reference: string | null;
  /** `user:<id>` for a person (an older alert may hold a key's label) */
  assignee: string | null;
  assigneeUser?: { id: number; displayName: string } | null;
  linkedAlertIds?: string[];
  createdAt: string;
}
export interface HistoryEntry {
  at: string;
  actor: string;
  change: Record<string, unknown>;
  text?: string;
}
export interface AlertWithHistory extends Alert {
  history: HistoryEntry[];
}

export interface TimelineEntry {
  at: string;
  messageId?: string;
  text: string;
}
export interface CasePerson {
  role?: string;
  person?: CasePerson;
  name?: string;
  names?: string[];
  birthdate?: string;
  dates?: string[];
  nationality?: string;
  identifiers?: { kind?: string; value?: string; country?: string }[];
}
export interface ClientCase {
  clientId: string;
  profile: { readAt: string; persons: CasePerson[] } | null;
  screening: {
    verdict: string;
    screenedAt: string;
    candidates: { subject?: string; list?: string; matchedName?: string; score?: number; verdict?: string }[];
  } | null;
  alerts: { total: number; overdue: number; groups: { alertIds: string[]; alerts: Alert[] }[] };
  addresses: {
    id: string;
    chainId: number | null;
    address: string;
    risk: { score: number | null; level: string | null; levelText: string | null; at: string } | null;
  }[];
  avisos: { id: string; reference: string; basis: string; deadline: string; settledAt: string | null }[];
  filings: {
    path: string;
    name: string;
    period: string;
    kind: string;
    status: string;
    folio: string | null;
  }[];
  timeline: TimelineEntry[];
}

export interface Identifier {
  kind: string;
  value: string;
  country?: string | null;
}
export interface MatchReview {
  alertId: string;
  status: string;
  level: string;
  client: {
    userId: string;
    role: string;
    roleText: string;
    names: string[];
    nameAsRead: string | null;
    birthDate: string | null;
    incorporationDate: string | null;
    nationality: string | null;
    identifiers: Identifier[];
    profileChanged: boolean;
  };
  entry: {
    list: string;
    listVersion: string;
    entryId: string;
    names: string[];
    matchedName: string;
    birthDates: string[];
    nationalities: string[];
    nationality: string | null;
    identifiers: Identifier[];
    programme: string | null;
    remarks: string | null;
  };
  score: number;
  why: string[];
  review?: {
    decision: "confirm" | "discard";
    decisionText: string;
    reason: string;
    byName: string;
    at: string;
  };
  earlierReview?: { text: string };
}

export interface Filing {
  countryCode: string;
  period: string;
  filing: string;
  name: string;
  deadline: string;
  deadlineLocal: string;
  timeZone: string;
  source: string;
  state: "pending" | "generated" | "filed" | "overdue";
  folio: string | null;
  files: { path: string; status: "draft" | "filed"; folio: string | null }[];
}
export interface Report {
  id: string;
  name: string;
  path: string;
  countryCode: string;
  period: string;
  kind: string;
  version: number;
  status: "draft" | "filed" | "failed";
  folio: string | null;
  reason: string | null;
  /** why a failed file could not be written, as a code the catalog words (desk.reports.failure.<code>) */
  code: string | null;
  field: string | null;
  filedAt: string | null;
}
export interface ListVersion {
  kind: string;
  version: string;
  listDate: string | null;
  entries: number;
  importedAt: string;
}
export interface ScreenResult {
  name: string;
  verdict: string;
  candidates: {
    list: string;
    listVersion: string;
    entryId: string;
    score: number;
    verdict: string;
    matchedName: string;
    entry: { programs: string[]; countries: string[]; dates: string[] };
  }[];
}
export interface Aviso {
  id: string;
  reference: string;
  userId: string;
  basis: string;
  deadline: string;
  state: string;
}
