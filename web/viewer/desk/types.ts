// What the desk reads of the alerts API (docs/api.md, "Alerts").
export type AlertStatus = "open" | "in_review" | "escalated" | "closed";

export interface Alert {
  id: string;
  subject: { chainId: number; address: string; userId: string | null; addressId: string | null };
  cause: string;
  causeKey: string;
  level: string;
  reason: string;
  evidence: {
    transfers: {
      txHash: string;
      logIndex: number;
      at: string;
      usd: number | null;
      direction: string;
      counterparty: string | null;
    }[];
    laws: { id: string; name: string; source: string; risk: string; countryCode: string }[];
    wallets: string[];
    analyses?: {
      analysisId: string;
      kind: string;
      at: string;
      riskScore: number;
      riskLevel: string;
      riskReason: string;
      modelVersion: string | null;
      findings: { pattern: string; message: string; txs: string[] }[];
      exposure: { category: string; direction: string; hops: number; usd: number; txs: string[] }[];
    }[];
    labels?: { address: string; label: string; category: string; source: string | null }[];
  };
  deadline: { at: string; filing: string; source: string; overdue: boolean } | null;
  links: { notificationId: string | null; analysisId: string | null; address: string | null };
  status: AlertStatus;
  /** the states it may move to now (the service's rule) */
  transitions: AlertStatus[];
  resolution: string | null;
  reference: string | null;
  assignee: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AlertWithHistory extends Alert {
  history: { at: string; actor: string; change: Record<string, unknown> }[];
}
