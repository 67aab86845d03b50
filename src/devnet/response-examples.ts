// The example answer of every operation of the API, from the devnet scenario as a fresh `npm start` and
// docs/quickstart.md leave it: project 1 with Colombia and Mexico enabled, the quickstart's customer `ana` with her
// wallet (0x…a11ce, paid 0.1 ETH by `vigia devnet send`) and, beside it, the scenario's mixing address registered as
// her old wallet, whose risk job raised alert 1; the scenario's addresses, labels (source `vigia-devnet`), chain
// (31337) and times (January and February 2024, its indexer caught up on 4 March 2024). The verdicts' words are the
// risk model's own for those cases. By operation, status and media type (src/platform/http/examples.ts); JSON bodies
// are valid against their route's response schema, which test/contract/openapi-examples.test.ts checks, as it checks
// that every operation has one.

import { DEVNET_CHAIN_ID } from "../chains/index.ts";
import { devnetWorld, TOKEN_CONTRACTS, type World } from "../worlds/index.ts";
import { demoAddresses } from "./addresses.ts";
import { BITCOIN_EXAMPLE } from "./bitcoin-examples.ts";
import { EXAMPLE_TX_HASH, EXAMPLE_WEBHOOK_SECRETS, exampleNotification } from "./webhook-example.ts";

type ByMedia = Record<string, unknown>;
const json = (value: unknown): ByMedia => ({ "application/json": value });
const ok = (data: unknown): ByMedia => json({ success: true, data });
const done = json({ success: true });

/** Ids the request examples use (examples.ts), so that an answer matches its request. */
const INVESTIGATION_ID = "6f1c2a4e-9b3d-4e7a-8c55-2d0f9a1b7e34";
const ANALYSIS_ID = "0b7e9d2c-4a61-4f3e-b8d1-5c2a7e9f1034";
const JOB_ID = "c3a9f2e1-7d4b-4c8a-9e16-8b0d5f2a6c71";
const RISK_JOB_OF_OLD_WALLET = "6a09e46a-39dd-408d-90ea-07e81742dfbb";
const SCAN_IDS = [
  "88d0ba67-8457-4945-a361-ccc8fb269c91",
  "362b7fcf-dc29-4153-a55e-616d5d4208fb",
  "ed6a8980-a1c7-481e-a37a-2175cc736501",
];
const MODEL = "vigia-risk-1.4.0";
const ANA = "0x00000000000000000000000000000000000a11ce";
const SECRET = EXAMPLE_WEBHOOK_SECRETS["standard-webhooks"];
const PUBLIC_URL = "http://127.0.0.1:8080";
const REPORT_PATH = "mx/1/2024-01/ana.xml";
const SIGNED_QUERY =
  "expires=1709251200&signed=1706659200&signature=pZ3q8Jc1xKv7LmN4tYb2Wd6Hf0Gs9Ea5Ui8Rk3Oj1Q";

/** When things were done in the example: the demo started on 4 March 2024, the scenario played and indexed. */
const AT = {
  projectCreated: "2024-03-04T14:58:02.114Z",
  keys: "2024-03-04T14:58:02.131Z",
  indexed: "2024-03-04T15:02:37.000Z",
  configured: "2024-03-04T15:12:40.517Z",
  anaRegistered: "2024-03-04T15:13:05.244Z",
  oldWalletRegistered: "2024-03-04T15:13:31.902Z",
  jobDone: "2024-03-04T15:13:32.388Z",
  sent: "2024-03-04T15:20:12.000Z",
  delivered: "2024-03-04T15:20:13.161Z",
  exported: "2024-03-04T15:41:17.655Z",
  reviewed: "2024-03-04T15:44:52.030Z",
  closed: "2024-03-05T10:03:18.772Z",
  investigation: "2024-03-04T15:30:11.406Z",
  investigationDone: "2024-03-04T15:30:12.019Z",
} as const;

/** What the index held when the verdicts were made. */
const coverage = (transfersRead: number) => ({
  chainId: String(DEVNET_CHAIN_ID),
  source: "index",
  current: true,
  dataFrom: "2024-01-01T00:00:00.000Z",
  dataUntil: AT.indexed,
  block: "233",
  lagBlocks: 0,
  transfersRead,
  note: `Indexed up to block 233 (${AT.indexed}), 0 blocks behind the node's head.`,
});

export function devnetResponseExamples(
  world: World = devnetWorld(),
): Record<string, Record<string, ByMedia>> {
  const addresses = demoAddresses(world);
  const of = (pattern: string, n = 0) => {
    const found = addresses.filter((a) => a.pattern === pattern)[n];
    if (!found) throw new Error(`the devnet scenario has no ${pattern} case #${n}`);
    return found.address;
  };
  const labelled = (category: string) => {
    const found = world.labelled().find((a) => a.label?.category === category);
    if (!found?.label) throw new Error(`the devnet scenario labels no ${category}`);
    return { address: found.address, label: found.label.label };
  };
  const chain = DEVNET_CHAIN_ID;
  const mixer = labelled("mixer");
  const sanctioned = labelled("sanctioned");
  const oldWallet = of("mixing");
  const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

  // The mixing case: ana's old wallet sent 2 ETH to the scenario's mixer pool.
  const mixingTxs = [
    "0x650d28563f4595ea9dcfac5341b40f691b2c0ca3e2ab2a863a4658bd0b88ca0d",
    "0x74b709940757147fd9662692241f48bb3e699fb6dcb4d057c2184dcec99b86bd",
  ];
  const mixingMessage = `Sent 2 ETH (USD 4,815) in 2 transfers directly to ${mixer.label}, each exactly a fixed pool denomination.`;
  const mixingReason = `Mixing: ${mixingMessage}`;
  const mixingFinding = {
    pattern: "mixing",
    message: mixingMessage,
    wallets: [oldWallet, mixer.address],
    txs: mixingTxs,
    usd: 4815.24,
  };
  const mixingExposure = {
    category: "mixer",
    direction: "outgoing",
    hops: 1,
    usd: 4815.24,
    share: 1,
    counterparties: [mixer.address],
    via: [],
    txs: mixingTxs,
  };
  const mixerLabel = {
    address: mixer.address,
    label: mixer.label,
    category: "mixer",
    source: "vigia-devnet",
  };
  const oldWalletRisk = {
    analysisId: RISK_JOB_OF_OLD_WALLET,
    address: oldWallet,
    chainId: String(chain),
    riskScore: 85,
    riskLevel: "critical",
    riskReason: mixingReason,
    suspiciousActivity: true,
    patternsDetected: 1,
    patterns: ["mixing"],
    transactionsAnalyzed: 3,
    completedAt: AT.jobDone,
    maxDepth: 3,
    source: "job",
    fromDate: null,
    toDate: null,
  };

  // The sanctions exposures at 1, 2 and 3 hops, as a scan finds them.
  const exposureReasons = [
    `Received USD 18,608 (100% of its incoming funds) directly from a sanctioned address (${sanctioned.label}).`,
    `Received USD 16,747 (100% of its incoming funds) from a sanctioned address 2 hops away (${sanctioned.label}) via ${short(of("sanctions_exposure", 0))}.`,
    `Received USD 14,887 (100% of its incoming funds) from a sanctioned address 3 hops away (${sanctioned.label}) via ${short(of("sanctions_exposure", 1))}, ${short(of("sanctions_exposure", 0))}.`,
  ];
  const scanResult = (n: number, status = "completed") => ({
    address: of("sanctions_exposure", n),
    chainId: String(chain),
    status,
    analysisId: SCAN_IDS[n],
    riskScore: [100, 92, 86][n],
    riskLevel: "critical",
    riskReason: exposureReasons[n],
    suspiciousActivity: true,
    patterns: [],
    transactionGraph: { rootAddress: of("sanctions_exposure", n), totalNodes: 4, totalEdges: 3, maxDepth: 3 },
    analysisEvidence: { transactionsAnalyzed: 3, uniqueAddressesFound: 3, analysisDuration: 20 },
    modelVersion: MODEL,
    truncated: false,
    coverage: coverage(3),
  });

  // The round trip the investigation follows, layer by layer.
  const roundTrip = of("round_tripping");
  const loop = world.cases.find((c) => c.pattern === "round_tripping" && c.positive)?.involved ?? [];
  const [, hop1 = roundTrip, hop2 = roundTrip, hop3 = roundTrip] = loop;
  const usdv = TOKEN_CONTRACTS.USDV.address;
  const roundTripDescription = `USD 30,596 left ${short(roundTrip)} and 94% of it (USD 28,714) came back after 4 hops through 3 addresses in 11.4 days.`;
  const roundTripTxs = [
    "0x84512dc8d6ea64587c9f90d2f773d928cf2cfcea64e5b43f70450369c05d29e3",
    "0xaeea232e8805b4d26f4b88650e61164a20bf52f40d7cb175c67123364e9dc104",
    "0xb25fbca71616b5446ec891795a5a6e8cb1b071a4bac065ac1a8d8211f96f8b9f",
    "0xf38d96405e5ec2bf1175029363ec7c748567dd06a3142168a4a666d435717288",
  ];
  const roundTripPattern = {
    patternType: "round_tripping",
    confidence: 0.829,
    severity: "medium",
    description: roundTripDescription,
    id: `round_tripping:${roundTrip}`,
    subject: roundTrip,
    evidence: {
      wallets: [roundTrip, hop2, hop3, hop1],
      txHashes: roundTripTxs,
      usdAmount: 30596.01,
      thresholds: {
        hops: 4,
        minHops: 2,
        maxHops: 6,
        windowDays: 30,
        minReturnFraction: 0.7,
        returned: 0.938,
      },
    },
  };
  const edge = (txHash: string, from: string, to: string, value: string, usd: number, timestamp: string) => ({
    id: `${txHash}:0`,
    from,
    to,
    value,
    token: usdv,
    symbol: "USDV",
    decimals: 6,
    usd,
    txHash,
    timestamp,
  });
  const node = (address: string, depth: number) => ({ address, type: "eoa", depth });
  const layerEdges = [
    edge(roundTripTxs[1] as string, roundTrip, hop1, "30596008525", 30596.01, "2024-01-24T00:52:24.000Z"),
    edge(roundTripTxs[0] as string, hop1, hop2, "29998776655", 29998.78, "2024-01-27T19:49:12.000Z"),
    edge(roundTripTxs[2] as string, hop2, hop3, "29159185778", 29159.19, "2024-01-31T15:20:24.000Z"),
    edge(roundTripTxs[3] as string, hop3, roundTrip, "28713632877", 28713.63, "2024-02-04T10:45:34.000Z"),
  ];
  const investigation = (status: string, score: number | null, updated: string, closed: string | null) => ({
    id: INVESTIGATION_ID,
    name: "Round trip",
    address: roundTrip,
    chain_id: chain,
    incremental: true,
    max_depth: 4,
    analysis_id: ANALYSIS_ID,
    status,
    analysis_status: status,
    risk_score: score,
    created_at: AT.investigation,
    updated_at: updated,
    closed_at: closed,
  });
  const investigationVerdict = {
    analysisId: ANALYSIS_ID,
    kind: "investigation",
    at: AT.investigationDone,
    riskScore: 41,
    riskLevel: "medium",
    riskReason: `Round tripping: ${roundTripDescription}`,
    modelVersion: MODEL,
    findings: [
      {
        pattern: "round_tripping",
        message: roundTripDescription,
        wallets: roundTripPattern.evidence.wallets,
        txs: roundTripTxs,
        usd: 30596.01,
      },
    ],
    exposure: [],
    coverage: coverage(5),
  };

  // The project as the quickstart configures it.
  const project = {
    id: 1,
    name: "Demo project",
    jurisdictions: ["CO", "MX"],
    jurisdiction_settings: {
      MX: { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" },
      CO: { codigo_sirel: "PSAV-0042" },
    },
    client_jurisdiction: null,
    mx_reporting_entity: { clave_sujeto_obligado: "VIG150101AB1", dominio_plataforma: "VIGIA-EXAMPLE-MX" },
    created_at: AT.projectCreated,
    updated_at: AT.configured,
    integration_url: "http://127.0.0.1:9000",
    signing_scheme: "standard-webhooks",
    webhook_secret: SECRET,
    previous_webhook_secret_until: null,
    integration_status: { failing_since: null, last_failure: null, delivery_paused_until: null },
    alert_warn_rules: [],
    alert_level: "high",
    screening_thresholds: Object.fromEntries(
      ["ofac-sdn", "un", "sat-69b", "mx-lpb", "ftm"].map((list) => [list, { review: 0.7, match: 0.9 }]),
    ),
    operation_rules: {
      fan_in: { enabled: true, minPayers: 5, windowHours: 72 },
      pass_through: { enabled: true, windowHours: 24, minRatio: 0.8, minUsd: 1000 },
      fiat_structuring: { enabled: true, band: 0.1, minCount: 3, windowDays: 7 },
      third_party_funding: { enabled: true },
      withdrawal_to_risk: { enabled: true, minLevel: "high", fundingHours: 72 },
    },
  };

  // Alert 1: the risk job of ana's old wallet, run when it was registered.
  const alertReason = `The risk job of ${oldWallet} (user ana) scored 85, critical: ${mixingReason}`;
  const alert = (status: string, updatedAt: string) => ({
    id: "1",
    subject: { chainId: chain, address: oldWallet, userId: "ana", addressId: "2" },
    cause: "analysis",
    causeKey: "risk",
    level: "critical",
    reason: alertReason,
    reasonText: `The risk job of ${oldWallet} (user ana) scored 85, critical. ${mixingReason}`,
    evidence: {
      transfers: [],
      laws: [],
      wallets: [oldWallet, mixer.address],
      labels: [mixerLabel],
      analyses: [
        {
          analysisId: RISK_JOB_OF_OLD_WALLET,
          kind: "risk_job",
          at: AT.jobDone,
          riskScore: 85,
          riskLevel: "critical",
          riskReason: mixingReason,
          modelVersion: MODEL,
          findings: [mixingFinding],
          exposure: [mixingExposure],
          reasonText: mixingReason,
          coverage: coverage(3),
        },
      ],
    },
    deadline: null,
    links: {
      notificationId: null,
      analysisId: RISK_JOB_OF_OLD_WALLET,
      address: "/v1/projects/1/addresses/2",
    },
    status,
    transitions: status === "closed" ? [] : ["in_review", "escalated", "closed"].filter((s) => s !== status),
    resolution: status === "closed" ? "reported" : null,
    reference: status === "closed" ? "UIF-24H-2024-0001" : null,
    assignee: "1",
    assigneeUser: { id: 1, displayName: "Ana Pérez" },
    linkedAlertIds: [],
    approval: null,
    createdAt: AT.jobDone,
    updatedAt,
  });
  const raised = {
    at: AT.jobDone,
    actor: "system",
    change: { event: "raised", analysisId: RISK_JOB_OF_OLD_WALLET },
    text: "Vigía (the service) raised the alert.",
  };
  const taken = {
    at: AT.exported,
    actor: "user:1",
    change: { assignee: { from: null, to: "1" }, status: { from: "open", to: "in_review" } },
    text: "Ana Pérez moved the alert to In review; assigned it to Ana Pérez.",
  };
  const filed = {
    at: AT.closed,
    actor: "user:1",
    change: {
      status: { from: "in_review", to: "closed" },
      resolution: "reported",
      reference: "UIF-24H-2024-0001",
      note: "Aviso filed.",
    },
    text: "Ana Pérez closed the alert as reported; with the reference UIF-24H-2024-0001; note: “Aviso filed.”.",
  };
  const alertDetail = (status: string, history: object[], updatedAt: string) => ({
    ...alert(status, updatedAt),
    history,
    historyAudit: { verified: true, beforeAudit: 0, differences: [] },
  });

  const registered = (id: number, address: string, description: string, created: string, risk: unknown) => ({
    id,
    address,
    chain_id: chain,
    chains: [chain],
    foreign_user_id: "ana",
    description,
    created_at: created,
    risk,
    stopped_at: null,
    jurisdiction: null,
  });
  const anaWallet = registered(1, ANA, "Ana's main wallet", AT.anaRegistered, null);
  const anaOldWallet = registered(2, oldWallet, "Ana's old wallet", AT.oldWalletRegistered, oldWalletRisk);

  const people = {
    ana: { id: 1, email: "ana@example.mx", displayName: "Ana Pérez", role: "officer", disabledAt: null },
    luis: { id: 2, email: "luis@example.mx", displayName: "Luis Gómez", role: "viewer", disabledAt: null },
  };
  const sessionUser = {
    id: 1,
    projectId: 1,
    email: "ana@example.mx",
    displayName: "Ana Pérez",
    role: "officer",
    lang: "es",
    timeZone: "America/Mexico_City",
    totpEnabled: true,
  };

  const unList = {
    kind: "un",
    version: "2020-03-20T19:09:21.822-04:00",
    listDate: "2020-03-20",
    entries: 22,
    importedAt: "2024-03-04T15:05:44.726Z",
  };
  const clearPerson = (name: string) => ({
    name,
    verdict: "clear",
    candidates: [],
    ruledOut: [],
    lists: [unList],
  });

  const reportFile = (status: "draft" | "filed") => ({
    id: REPORT_PATH,
    name: "ana.xml",
    created_at: "2024-02-01T06:00:41.020Z",
    updated_at: status === "filed" ? "2024-02-12T17:31:09.448Z" : "2024-02-01T06:00:41.020Z",
    path: REPORT_PATH,
    countryCode: "MX",
    period: "2024-01",
    userId: "ana",
    kind: "monthly",
    version: 1,
    status,
    size: 2187,
    sha256: "5b9e0f6c1d3a8e7b2c4f9a0d6e1b3c5a7f8d2e4b6c9a1f3e5d7b0c2a4e6f8d1b",
    filedAt: status === "filed" ? "2024-02-12T17:31:09.448Z" : null,
    folio: status === "filed" ? "2024-1234" : null,
    reason: null,
    code: null,
    field: null,
  });
  const filing = (state: string, folio: string | null) => ({
    countryCode: "CO",
    period: "2024-02",
    filing: "CO-ROS-ABSENCE",
    name: "Report of absence of suspicious operations (ROS) of the month",
    deadline: "2024-03-11T04:59:59.999Z",
    deadlineLocal: "2024-03-10 23:59 America/Bogota",
    timeZone: "America/Bogota",
    source: "Resolución UIAF 314 de 2021 Art. 8",
    verified: false,
    state,
    folio,
    files: [],
    failures: [],
  });
  const aviso = {
    id: "1",
    countryCode: "MX",
    userId: "ana",
    basis: "behaviour",
    source:
      "RCG de la LFPIORPI (DOF 23-08-2013, reforma DOF 24-07-2014) Art. 27 párrafo primero; LFPIORPI (fracción XVI adicionada DOF 09-03-2018, aplicable desde 10-09-2019) Art. 18 fracción VI",
    origin: "officer",
    reference: "9E076EA8607053",
    period: "2024-03",
    knownAt: AT.reviewed,
    deadline: "2024-03-05T15:44:52.030Z",
    narrative:
      "La clienta recibio tres depositos apenas inferiores al umbral de aviso en una semana y los retiro el mismo dia.",
    alertIds: ["1"],
    txHashes: [],
    operationIds: [],
    createdBy: "user:1",
    state: "pending",
  };
  const operationRecords = {
    operations: [
      {
        operation: {
          operationId: "dep-2024-0001",
          userId: "ana",
          kind: "fiat_deposit",
          at: "2024-01-15T15:12:00.000Z",
          currency: "MXN",
          amount: "15000",
          rail: "spei",
          counterparty: { name: "Ana Pérez García", bank: "BBVA México", account: "012180001183597198" },
          reference: "BBVA20240115091200001",
        },
        receivedAt: "2024-03-04T15:16:20.770Z",
        checkedAt: "2024-03-04T15:16:21.102Z",
        unjudged: [],
      },
      {
        operation: {
          operationId: "buy-2024-0001",
          userId: "ana",
          kind: "buy",
          at: "2024-01-15T15:20:00.000Z",
          asset: "USDT",
          amount: "880.5",
          currency: "MXN",
          fiatAmount: "15000",
          price: "17.0358",
        },
        receivedAt: "2024-03-04T15:16:20.770Z",
        checkedAt: "2024-03-04T15:16:21.102Z",
        unjudged: [],
      },
    ],
  };
  const call = (method: string, url: string, status: number, latency: number) => ({
    method,
    url,
    status,
    ok: true,
    latency_ms: latency,
    error: null,
    message_id: "msg_0e8d2b7c-6a41-4c9f-b3e5-7d1a9f2c4b60",
  });
  const notification = exampleNotification();

  const alertMarkdown = [
    "# Evidence of alert 1",
    "",
    "Pack vigia-alert-evidence/1, in English. Its SHA-256 is given with each download (header `x-evidence-sha256`) and kept in the alert's history. Times are in UTC.",
    "",
    "## Subject",
    "",
    "| Field | Value |",
    "| --- | --- |",
    "| Project | 1 |",
    `| Chain | ${chain} |`,
    `| Address | \`${oldWallet}\` |`,
    "| Client (user id) | ana |",
    "| Cause | analysis (risk) |",
    "| Level | Critical (critical) |",
    "| Status | In review |",
    "",
    "## Reason",
    "",
    `The risk job of ${oldWallet} (user ana) scored 85, critical. ${mixingReason}`,
    "",
    `## Verdict ${RISK_JOB_OF_OLD_WALLET} (risk_job)`,
    "",
    `Score 85, level critical, model ${MODEL}, recorded ${AT.jobDone}.`,
    "",
    "### Findings",
    "",
    "| Pattern | What | USD | Wallets | Transactions |",
    "| --- | --- | --- | --- | --- |",
    `| mixing | ${mixingMessage} | 4815.24 | ${oldWallet}, ${mixer.address} | ${mixingTxs.join(", ")} |`,
    "",
    "## Labels used",
    "",
    "| Address | Label | Category | Source |",
    "| --- | --- | --- | --- |",
    `| \`${mixer.address}\` | ${mixer.label} | mixer | vigia-devnet |`,
    "",
  ].join("\n");
  const investigationMarkdown = [
    `# Evidence of investigation ${INVESTIGATION_ID}`,
    "",
    "Pack vigia-investigation-evidence/1. Its SHA-256 is given with each download (header `x-evidence-sha256`).",
    "",
    "| Field | Value |",
    "| --- | --- |",
    "| Name | Round trip |",
    `| Address | \`${roundTrip}\` |`,
    `| Chain | ${chain} |`,
    "| Depth | 4 |",
    `| Opened | ${AT.investigation} |`,
    "| Closed | — |",
    "",
    `## Verdict ${ANALYSIS_ID} (investigation)`,
    "",
    `Score 41, level medium, model ${MODEL}, recorded ${AT.investigationDone}.`,
    "",
    `Round tripping: ${roundTripDescription}`,
    "",
    "### Findings",
    "",
    "| Pattern | What | USD | Wallets | Transactions |",
    "| --- | --- | --- | --- | --- |",
    `| round\\_tripping | ${roundTripDescription} | 30596.01 | ${roundTripPattern.evidence.wallets.join(", ")} | ${roundTripTxs.join(", ")} |`,
    "",
    "### Exposure",
    "",
    "None.",
    "",
  ].join("\n");
  const wash = of("wash_trading");
  const walletReport = [
    `# Wallet background report: \`${wash}\``,
    "",
    `*EVM · on Vigía devnet only · facts as of 2024-03-04, from the data Vigía holds*`,
    "",
    "## Summary",
    "",
    "- Labels: none known.",
    "- Sanctions: not on any sanctions list the service holds.",
    "- Risk: **62/100 (high)**, from a quick check of 2024-03-04 on Vigía devnet. It rests on indexed data up to block 233, 8 transfers read.",
    "- Activity: 8 transfers on Vigía devnet between 2024-02-05 and 2024-02-16.",
    "",
    "## What to do",
    "",
    "Review the activity and the counterparties before the next operation, and document the decision.",
    "",
    "## Risk and why",
    "",
    "| Pattern | Severity | Confidence | Amount | What was found |",
    "| --- | --- | --- | --- | --- |",
    "| wash\\_trading | high | 0.9 | USD 40,816.00 | 4 round trips of about USD 5,102 in TKN with one counterparty. |",
    "",
    "## Limits of the data",
    "",
    "- Vigía devnet: indexed up to block 233, 8 transfers of this address.",
    "",
  ].join("\n");
  const zeroInforme = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<archivo xmlns="http://www.uif.shcp.gob.mx/recepcion/avi" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.uif.shcp.gob.mx/recepcion/avi avi.xsd">',
    "  <informe>",
    "    <mes_reportado>202401</mes_reportado>",
    "    <sujeto_obligado>",
    "      <clave_sujeto_obligado>VIG150101AB1</clave_sujeto_obligado>",
    "      <clave_actividad>AVI</clave_actividad>",
    "      <dominio_plataforma>VIGIA-EXAMPLE-MX</dominio_plataforma>",
    "    </sujeto_obligado>",
    "  </informe>",
    "</archivo>",
    "",
  ].join("\n");
  // Colombia's monthly transactions file (docs/reports/co.md): header, one transaction, trailer; CRLF.
  const colombianFile = [
    "0|PSAV-0042|20240331|1",
    `1|1|20240304|102012|CC|1020304050|ana|Ana Pérez García|11001|20230815|-1|R|ETH|0.1|238.78|935018.96|3915.82|${ANA}|0xa0ee7a142d267c1f36714e4a8f75612f20a79720|${EXAMPLE_TX_HASH}|I`,
    "2|1|238.78|935018.96",
    "",
  ].join("\r\n");

  return {
    "GET /v1/projects/{projectId}": { "200": ok(project) },
    "PATCH /v1/projects/{projectId}": { "200": ok(project) },
    "GET /v1/projects/{projectId}/audit": {
      "200": ok([
        {
          id: "14",
          actor: "user:1",
          actorName: "Ana Pérez",
          action: "alert.status_changed",
          target: "alert:1",
          details: { at: AT.exported, change: taken.change, history: "2" },
          created_at: AT.exported,
        },
        {
          id: "9",
          actor: "key:1",
          actorName: "admin",
          action: "project.updated",
          target: "project:1",
          details: {
            integration_url: "http://127.0.0.1:9000",
            jurisdictions: ["CO", "MX"],
            jurisdiction_settings: project.jurisdiction_settings,
          },
          created_at: AT.configured,
        },
      ]),
    },
    "GET /v1/projects/{projectId}/alerts": {
      "200": json({ success: true, data: [alert("in_review", AT.exported)], total: 1, overdue: 0 }),
    },
    "GET /v1/projects/{projectId}/alerts/{alertId}": {
      "200": ok(alertDetail("in_review", [raised, taken], AT.exported)),
    },
    "PATCH /v1/projects/{projectId}/alerts/{alertId}": {
      "200": ok(alertDetail("closed", [raised, taken, filed], AT.closed)),
    },
    "GET /v1/projects/{projectId}/alerts/{alertId}/evidence": {
      "200": {
        "application/json": {
          pack: "vigia-alert-evidence/1",
          lang: "en",
          alert: {
            id: "1",
            projectId: 1,
            chainId: chain,
            address: oldWallet,
            userId: "ana",
            cause: "analysis",
            causeKey: "risk",
            level: "critical",
            reason: alertReason,
            status: "in_review",
            resolution: null,
            reference: null,
            assignee: "1",
            createdAt: AT.jobDone,
            updatedAt: AT.exported,
            deadline: null,
            notificationId: null,
          },
          verdicts: [
            {
              analysisId: RISK_JOB_OF_OLD_WALLET,
              kind: "risk_job",
              at: AT.jobDone,
              riskScore: 85,
              riskLevel: "critical",
              riskReason: mixingReason,
              modelVersion: MODEL,
              findings: [mixingFinding],
              exposure: [mixingExposure],
              coverage: coverage(3),
            },
          ],
          transfers: [],
          laws: [],
          labels: [mixerLabel],
          wallets: [oldWallet, mixer.address],
          history: [{ ...raised, by: "Vigía (the service)" }],
        },
        "text/markdown": alertMarkdown,
      },
    },
    "GET /v1/projects/{projectId}/clients/{clientId}/case": {
      "200": ok({
        clientId: "ana",
        profile: null,
        screening: { verdict: "clear", screenedAt: AT.anaRegistered, candidates: [] },
        alerts: {
          total: 1,
          overdue: 0,
          groups: [{ alertIds: ["1"], alerts: [alert("in_review", AT.exported)] }],
        },
        addresses: [
          {
            id: "1",
            chainId: chain,
            address: ANA,
            description: "Ana's main wallet",
            jurisdiction: null,
            registeredAt: AT.anaRegistered,
            risk: null,
          },
          {
            id: "2",
            chainId: chain,
            address: oldWallet,
            description: "Ana's old wallet",
            jurisdiction: null,
            registeredAt: AT.oldWalletRegistered,
            risk: {
              score: 85,
              level: "critical",
              levelText: "Critical",
              source: "job",
              analysisId: RISK_JOB_OF_OLD_WALLET,
              at: AT.jobDone,
            },
          },
        ],
        avisos: [
          {
            id: aviso.id,
            countryCode: aviso.countryCode,
            reference: aviso.reference,
            basis: aviso.basis,
            origin: aviso.origin,
            period: aviso.period,
            knownAt: aviso.knownAt,
            deadline: aviso.deadline,
            settledAt: null,
            alertIds: aviso.alertIds,
            txHashes: [],
          },
        ],
        filings: [],
        timeline: [
          {
            at: AT.oldWalletRegistered,
            messageId: "case.timeline.address",
            params: { address: oldWallet },
            text: `The address ${oldWallet} was registered for monitoring`,
          },
          {
            at: AT.jobDone,
            messageId: "case.timeline.alert",
            params: { id: "1", cause: "a risk analysis", sentence: raised.text },
            text: `Alert 1 (a risk analysis): ${raised.text}`,
          },
        ],
      }),
    },
    "GET /v1/projects/{projectId}/clients/{clientId}": {
      "200": ok({
        clientId: "ana",
        risk: {
          level: "critical",
          levelText: "Critical",
          drivers: [
            {
              kind: "wallet",
              level: "critical",
              levelText: "Critical",
              ref: `${chain}:${oldWallet}`,
              text: mixingReason,
            },
          ],
        },
        wallets: [
          {
            chainId: chain,
            address: oldWallet,
            level: "critical",
            score: 85,
            reason: mixingReason,
            source: "job",
            analysisId: RISK_JOB_OF_OLD_WALLET,
            at: AT.jobDone,
          },
          {
            chainId: chain,
            address: ANA,
            level: null,
            score: null,
            reason: null,
            source: null,
            analysisId: null,
            at: null,
          },
        ],
        operationAlerts: [],
        operations: {
          since: "2023-12-05T15:44:52.030Z",
          count: 2,
          truncated: false,
          first: "2024-01-15T15:12:00.000Z",
          last: "2024-01-15T15:20:00.000Z",
          byKind: [
            { kind: "buy", count: 1, usd: 880.5, unvalued: 0 },
            { kind: "fiat_deposit", count: 1, usd: 877.42, unvalued: 0 },
          ],
          payers: 1,
          destinations: 0,
          custody: null,
        },
        otherOpenAlerts: 1,
      }),
    },
    "POST /v1/projects/{projectId}/operations": { "200": ok({ received: 2, created: 2, unchanged: 0 }) },
    "GET /v1/projects/{projectId}/operations": { "200": ok(operationRecords) },
    "POST /v1/projects/{projectId}/keys": { "201": ok(3) },
    "GET /v1/projects/{projectId}/keys": {
      "200": ok([
        {
          id: 1,
          created_at: AT.keys,
          label: "admin",
          key: "vigia_Qm7Tz2LwX9pK4vRb8NcY1sDf6Hj3Ga0Ue5Wo2Ix7Rk4Vn9Pq1",
          role: "admin",
          last_used_at: AT.configured,
          revoked_at: null,
        },
        {
          id: 3,
          created_at: "2024-03-04T15:09:49.784Z",
          label: "backend",
          key: "vigia_Ht3Jw8Yc1Qn6Lr0Vk5Bx2Ms9Fd4Pz7Ga3Te8Ku1Ro6Wi0Ny5",
          role: "developer",
          last_used_at: null,
          revoked_at: null,
        },
      ]),
    },
    "DELETE /v1/projects/{projectId}/keys/{keyId}": { "200": done },
    "GET /v1/projects/{projectId}/users": { "200": ok([people.ana, people.luis]) },
    "POST /v1/projects/{projectId}/users": {
      "201": ok({
        user: people.ana,
        setPasswordUrl: `${PUBLIC_URL}/app/login#set-password=d1AmsQeTB7woSMBjdHz9X4P8zqHOBfs2efEr4u6I06E`,
      }),
    },
    "PATCH /v1/projects/{projectId}/users/{userId}": { "200": ok({ ...people.ana, role: "viewer" }) },
    "GET /v1/chains": {
      "200": ok([
        {
          id: chain,
          name: "Vigía devnet",
          explorer_url: null,
          currency_symbol: "ETH",
          currency_decimals: 18,
        },
        {
          id: 728131337,
          name: "Vigía Tron devnet",
          explorer_url: null,
          currency_symbol: "TRX",
          currency_decimals: 6,
        },
      ]),
    },
    "GET /v1/chains/{chainId}": {
      "200": ok({
        name: "Vigía devnet",
        chain_id: chain,
        currency_symbol: "ETH",
        market_cap: null,
        coin_price: null,
        coin_image: null,
        total_addresses: "135",
        total_blocks: "233",
        total_transactions: "251",
        tvl: null,
        stats_updated_at: null,
        stats_source: "index",
      }),
    },
    "GET /v1/clusters/{address}": { "200": ok(BITCOIN_EXAMPLE.cluster) },
    "GET /v1/risk/quick": {
      "200": ok({
        risk: 85,
        reason: mixingReason,
        patterns: [
          {
            name: "mixing",
            severity: "critical",
            involvedWallets: [oldWallet, mixer.address],
            involvedTxs: mixingTxs,
            usdAmount: 4815.24,
            message: mixingMessage,
          },
        ],
        level: "critical",
        suspiciousActivity: true,
        modelVersion: MODEL,
        coverage: coverage(3),
      }),
    },
    "POST /v1/projects/{projectId}/addresses/scan-risk": {
      "200": ok({
        summary: { total: 3, completed: 3, skipped: 0, failed: 0, duration: 66 },
        results: [0, 1, 2].map((n) => scanResult(n)),
      }),
    },
    "GET /v1/projects/{projectId}/addresses/scan-risk": {
      "200": ok({
        total: 3,
        missing: 2,
        pending: 0,
        results: [oldWalletRisk],
        missingAddresses: [of("peel_chain"), of("structuring")],
        pendingAddresses: [],
      }),
    },
    "POST /v1/risk": { "202": ok({ jobId: JOB_ID }) },
    "GET /v1/risk/{jobId}": {
      "200": ok({
        jobId: JOB_ID,
        status: "completed",
        createdAt: "2024-03-04T15:25:42.783Z",
        updatedAt: "2024-03-04T15:25:42.980Z",
        result: {
          address: of("peel_chain"),
          chainId: String(chain),
          status: "completed",
          analysisId: JOB_ID,
          riskScore: 49,
          riskLevel: "medium",
          riskReason: `Peel chain of 3 hops over 10.4 days starting at ${short(of("peel_chain"))}: USD 92,538 entered, each hop forwarded 84–93% to a fresh address and peeled 7–16% (USD 27,896 in total), at most 4.2 days per hop.`,
          suspiciousActivity: true,
          patterns: ["peel_chain"],
          transactionGraph: { rootAddress: of("peel_chain"), totalNodes: 8, totalEdges: 7, maxDepth: 3 },
          analysisEvidence: { transactionsAnalyzed: 7, uniqueAddressesFound: 7, analysisDuration: 33 },
          fromDate: "2024-01-01T00:00:00.000Z",
          toDate: "2024-02-29T23:59:59.999Z",
          modelVersion: MODEL,
          truncated: false,
          coverage: coverage(7),
        },
      }),
    },
    "GET /v1/analysis/{analysisId}/progress": {
      "200": ok({
        analysisId: ANALYSIS_ID,
        status: "completed",
        completedLayers: 4,
        maxDepth: 4,
        incremental: true,
        riskScore: 41,
        patternsDetected: 1,
        startedAt: "2024-03-04T15:30:11.495Z",
      }),
    },
    "GET /v1/analysis/{analysisId}/layers/{layer}": {
      "200": ok({
        analysisId: ANALYSIS_ID,
        layer: 1,
        status: "completed",
        totalLayers: 4,
        riskScore: 41,
        riskLevel: "medium",
        riskReason: `Round tripping: ${roundTripDescription}`,
        coverage: coverage(5),
        exposure: [],
        isProvisional: true,
        detectedPatterns: [roundTripPattern],
        newPatterns: [roundTripPattern],
        removedPatterns: [],
        cumulativeGraph: {
          rootAddress: roundTrip,
          nodes: Object.fromEntries(
            [node(roundTrip, 0), node(hop1, 1), node(hop3, 1), node(hop2, 2)].map((n) => [n.address, n]),
          ),
          edges: layerEdges,
          metadata: {
            totalNodes: 4,
            totalEdges: 4,
            truncated: { nodes: false, edges: false, time: false, degree: false },
          },
        },
        newNodes: { [hop2]: node(hop2, 2) },
        newEdges: layerEdges.slice(1, 3),
        layerMetadata: {
          processingTimeMs: 5,
          nodeCount: 4,
          edgeCount: 4,
          newNodeCount: 1,
          newEdgeCount: 2,
          errorCount: 0,
          patternDetectionTimeMs: 1,
          timestamp: "2024-03-04T15:30:11.546Z",
        },
      }),
    },
    "POST /v1/projects/{projectId}/investigations": {
      "201": ok(investigation("pending", null, AT.investigation, null)),
    },
    "GET /v1/projects/{projectId}/investigations": {
      "200": ok([investigation("completed", 41, AT.investigationDone, null)]),
    },
    "GET /v1/projects/{projectId}/investigations/{id}": {
      "200": ok(investigation("completed", 41, AT.investigationDone, null)),
    },
    "GET /v1/projects/{projectId}/investigations/{id}/evidence": {
      "200": {
        "application/json": {
          pack: "vigia-investigation-evidence/1",
          investigation: {
            id: INVESTIGATION_ID,
            name: "Round trip",
            address: roundTrip,
            chainId: chain,
            maxDepth: 4,
            incremental: true,
            createdAt: AT.investigation,
            closedAt: null,
          },
          verdict: investigationVerdict,
          labels: [],
        },
        "text/markdown": investigationMarkdown,
      },
    },
    "POST /v1/projects/{projectId}/investigations/{id}/close": {
      "200": ok(investigation("completed", 41, AT.closed, AT.closed)),
    },
    "POST /v1/projects/{projectId}/addresses": { "201": ok(anaWallet) },
    "GET /v1/projects/{projectId}/addresses": { "200": ok([anaWallet, anaOldWallet]) },
    "GET /v1/projects/{projectId}/addresses/{id}": {
      "200": ok({
        ...anaWallet,
        balance: [
          {
            token: "native",
            symbol: "ETH",
            decimals: 18,
            raw: "100000000000000000",
            balance: 0.1,
            usd: 238.78,
            chain_id: chain,
          },
        ],
      }),
    },
    "PATCH /v1/projects/{projectId}/addresses/{id}": { "200": ok(anaWallet) },
    "DELETE /v1/projects/{projectId}/addresses/{id}": { "200": ok({ ...anaWallet, stopped_at: AT.closed }) },
    "GET /v1/wallets/{wallet}/status": {
      "200": ok({
        status: "dirty",
        tags: [],
        lastTxs: [
          {
            txHash: mixingTxs[1],
            timestamp: "2024-01-06T01:00:00.000Z",
            direction: "out",
            counterparty: mixer.address,
            token: "native",
            value: "1000000000000000000",
          },
          {
            txHash: mixingTxs[0],
            timestamp: "2024-01-06T00:00:00.000Z",
            direction: "out",
            counterparty: mixer.address,
            token: "native",
            value: "1000000000000000000",
          },
        ],
        lastDapps: [{ address: mixer.address, label: mixer.label, lastSeen: "2024-01-06T01:00:00.000Z" }],
        coverage: coverage(3),
      }),
    },
    "GET /v1/wallets/{wallet}/balance": {
      "200": ok({
        total_balance: 7186.76,
        assets: [
          {
            token: "native",
            symbol: "ETH",
            decimals: 18,
            raw: "3002396981887000000",
            balance: 3.002396981887,
            usd: 7186.76,
          },
        ],
      }),
    },
    "GET /v1/projects/{projectId}/alerts/{alertId}/match": {
      "200": ok(personMatch(false)),
    },
    "POST /v1/projects/{projectId}/alerts/{alertId}/match/review": {
      "200": ok(personMatch(true)),
    },
    "POST /v1/screening/persons": {
      "200": ok({
        results: [
          clearPerson("Ana María Pérez Gómez"),
          clearPerson("Comercializadora del Norte S.A. de C.V."),
        ],
      }),
    },
    "POST /v1/screening": {
      "200": ok({
        verdict: "match",
        reasons: [
          `wallet ${of("sanctions_exposure")} on chain ${chain}: critical (100): ${exposureReasons[0]}`,
        ],
        person: clearPerson("Ana María Pérez Gómez"),
        wallets: {
          summary: { total: 1, completed: 0, skipped: 1, failed: 0, duration: 2 },
          results: [scanResult(0, "skipped")],
        },
      }),
    },
    "GET /v1/screening/lists": {
      "200": ok({
        lists: [{ ...unList, ageSeconds: 2348, stale: false }],
        refreshes: [
          {
            kind: "un",
            ageSeconds: 2348,
            stale: false,
            lastRefresh: { at: unList.importedAt, outcome: "imported", error: null, failures: 0 },
          },
          {
            kind: "sanctions",
            ageSeconds: 2391,
            stale: false,
            lastRefresh: { at: "2024-03-04T15:05:01.338Z", outcome: "imported", error: null, failures: 0 },
          },
        ],
      }),
    },
    "POST /v1/projects/{projectId}/screening/run": { "202": ok({ queued: 1 }) },
    "GET /v1/projects/{projectId}/notifications": {
      "200": ok([
        {
          id: 1,
          message_id: "msg_5d0c6f0e-3a7b-4f61-9a8e-2c4b7d9e1f35",
          type: "notification",
          status: "delivered",
          address_id: 1,
          chain_id: chain,
          tx_hash: EXAMPLE_TX_HASH,
          attempts: 1,
          next_attempt_at: null,
          delivered_at: AT.delivered,
          last_error: null,
          created_at: "2024-03-04T15:20:12.871Z",
          body: notification,
          attempt_log: [
            {
              attempt: 1,
              started_at: "2024-03-04T15:20:13.000Z",
              status_code: 200,
              error: null,
              duration_ms: 161,
            },
          ],
        },
      ]),
    },
    "POST /v1/projects/{projectId}/notifications/{id}/redeliver": { "202": ok({ id: 1 }) },
    "POST /v1/projects/{projectId}/integration/test": {
      "200": ok({
        profile: call("GET", "http://127.0.0.1:9000/users/ana", 200, 12),
        webhook: call("POST", "http://127.0.0.1:9000/webhook", 200, 9),
      }),
    },
    "POST /v1/projects/{projectId}/webhook-secret": {
      "200": ok({
        webhook_secret: `whsec_${Buffer.from("vigia-devnet-example-rotated").toString("base64")}`,
      }),
    },
    "GET /v1/reports": { "200": ok([reportFile("draft")]) },
    "GET /v1/reports/generations": {
      "200": ok([
        {
          id: 1,
          countryCode: "MX",
          period: "2024-01",
          trigger: "api",
          actor: "user:1",
          status: "completed",
          written: 1,
          unchanged: 0,
          removed: 0,
          problems: [],
          txHash: null,
          startedAt: "2024-02-01T06:00:40.512Z",
          finishedAt: "2024-02-01T06:00:41.020Z",
        },
      ]),
    },
    "GET /v1/reports/calendar": { "200": ok([filing("pending", null)]) },
    "POST /v1/reports/calendar/filed": { "200": ok(filing("filed", "SIREL-77")) },
    "GET /v1/reports/download": {
      "200": ok({
        name: "ana.xml",
        signedUrl: `${PUBLIC_URL}/v1/files/${REPORT_PATH}?${SIGNED_QUERY}`,
        period: "2024-01",
        expiresAt: "2024-03-01T00:00:00.000Z",
        url: `${PUBLIC_URL}/v1/files/${REPORT_PATH}?${SIGNED_QUERY}`,
        filename: "ana.xml",
      }),
    },
    "POST /v1/reports/generate": {
      "200": ok({
        id: 1,
        status: "completed",
        files: [{ path: REPORT_PATH, name: "ana.xml", version: 1, outcome: "written" }],
        removed: [],
        problems: [],
        elsewhere: [],
      }),
    },
    "GET /v1/reports/{reportId}": {
      "200": ok({
        name: "ana.xml",
        signedUrl: `${PUBLIC_URL}/v1/files/${REPORT_PATH}?${SIGNED_QUERY}`,
        period: "2024-01",
        expiresAt: "2024-03-01T00:00:00.000Z",
        url: `${PUBLIC_URL}/v1/files/${REPORT_PATH}?${SIGNED_QUERY}`,
        filename: "ana.xml",
      }),
    },
    "POST /v1/reports/{reportId}/filed": { "200": ok(reportFile("filed")) },
    "POST /v1/projects/{projectId}/avisos": { "201": ok(aviso) },
    "GET /v1/projects/{projectId}/avisos": { "200": ok([aviso]) },
    "GET /v1/files/{*}": { "200": { "application/xml": zeroInforme, "text/plain": colombianFile } },
    "GET /v1/wallets/{wallet}/report": { "200": ok(walletReport) },
    "POST /auth/login": { "200": json({ user: sessionUser, csrfToken: "Jq3vT0b9yXcM2kP7sW1nR4dL8fH6gZ5a" }) },
    "POST /auth/logout": { "200": done },
    "GET /auth/session": {
      "200": json({ user: sessionUser, csrfToken: "Jq3vT0b9yXcM2kP7sW1nR4dL8fH6gZ5a" }),
    },
    "PATCH /auth/session/settings": { "200": json({ user: sessionUser }) },
    "POST /auth/totp/setup": {
      "200": json({
        secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
        uri: "otpauth://totp/Vig%C3%ADa:ana%40example.mx?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Vig%C3%ADa",
      }),
    },
    "POST /auth/totp/enable": { "200": done },
    "POST /auth/password": { "200": done },
    "POST /auth/password/set": { "200": done },
    "GET /auth/oidc": { "200": json({ enabled: false, name: null }) },
    // GET /auth/oidc/start and /auth/oidc/callback answer 302 redirects with no body: nothing to exemplify.
  };
}

/**
 * A person match under review (alert 2, raised when `ana`'s profile was screened against the UIF's list of blocked
 * persons): her data and the entry side by side; `reviewed` adds the officer's decision.
 */
function personMatch(reviewed: boolean) {
  const identifiers = [{ kind: "rfc", value: "PEGA900412AB1", country: "MX" }];
  return {
    alertId: "2",
    status: reviewed ? "closed" : "open",
    level: "match",
    client: {
      userId: "ana",
      role: "client",
      roleText: "the client",
      type: "person",
      names: ["Ana María Pérez Gómez"],
      nameAsRead: null,
      birthDate: "1990-04-12",
      incorporationDate: null,
      nationality: "MX",
      identifiers,
      profileChanged: false,
    },
    entry: {
      list: "mx-lpb",
      listVersion: "LPB-2024-02-26",
      listDate: "2024-02-26",
      alertedVersion: "LPB-2024-02-26",
      source: "alerted",
      entryId: "LPB-0418",
      type: "person",
      names: ["Ana Maria Perez Gomez", "Ana Pérez"],
      matchedName: "Ana Maria Perez Gomez",
      birthDate: "1979-11-03",
      birthDates: ["1979-11-03"],
      nationality: "GT",
      nationalities: ["GT"],
      identifiers: [{ kind: "passport", value: "G99990418", country: "GT" }],
      programme: "Art. 115 LIC",
      programmes: ["Art. 115 LIC"],
      remarks: null,
    },
    score: 0.93,
    matchedFields: ["name"],
    why: ["the names match once accents are set aside (0.93)", "the birth dates and nationalities differ"],
    notes: ["birthdate 1990-04-12 differs from the entry's 1979-11-03"],
    ...(reviewed
      ? {
          review: {
            decision: "discard",
            decisionText: "Discarded: a namesake, not the listed person",
            reason: "Fecha de nacimiento y nacionalidad distintas de las de la entrada de la lista.",
            by: "user:1",
            byName: "Ana Pérez",
            at: AT.reviewed,
          },
        }
      : {}),
  };
}
