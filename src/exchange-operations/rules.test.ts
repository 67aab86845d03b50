// The operation rules at and around each parameter, with a legitimate counter-example that must not alert: pure,
// on operations built here (valued in USD as the monitor values them).
import { describe, expect, it } from "vitest";
import type { ClientIdentity } from "./client-identity.ts";
import { identityOf } from "./client-identity.ts";
import { type DestinationVerdict, judgeOperations, type RuleInput, type ValuedOperation } from "./rules.ts";
import type { OperationItem } from "./schemas.ts";
import { DEFAULT_RULE_PARAMETERS, type RuleParameters } from "./settings.ts";

const T0 = Date.parse("2026-11-10T15:00:00Z");
const H = 3_600_000;
const at = (hours: number) => new Date(T0 + hours * H).toISOString();
let serial = 0;

function deposit(
  hours: number,
  mxn: number,
  payer: string,
  extra: { taxId?: string; account?: string } = {},
) {
  serial += 1;
  return op(
    {
      operationId: `d${serial}`,
      userId: "u1",
      kind: "fiat_deposit",
      at: at(hours),
      currency: "MXN",
      amount: String(mxn),
      rail: "spei",
      counterparty: { name: payer, ...extra },
      reference: `R${serial}`,
    },
    mxn / 20,
  );
}
function cryptoOut(hours: number, usdt: number, address = "0xdest") {
  serial += 1;
  return op(
    {
      operationId: `w${serial}`,
      userId: "u1",
      kind: "crypto_withdrawal",
      at: at(hours),
      asset: "USDT",
      amount: String(usdt),
      chainId: 1,
      address,
    },
    usdt,
  );
}
function cryptoIn(hours: number, usdt: number) {
  serial += 1;
  return op(
    {
      operationId: `c${serial}`,
      userId: "u1",
      kind: "crypto_deposit",
      at: at(hours),
      asset: "USDT",
      amount: String(usdt),
      chainId: 1,
      address: "0xmine",
    },
    usdt,
  );
}
function fiatOut(hours: number, mxn: number) {
  serial += 1;
  return op(
    {
      operationId: `f${serial}`,
      userId: "u1",
      kind: "fiat_withdrawal",
      at: at(hours),
      currency: "MXN",
      amount: String(mxn),
      rail: "spei",
    },
    mxn / 20,
  );
}
function op(item: OperationItem, usd: number | null): ValuedOperation {
  return { id: item.operationId, item, usd, isNew: true };
}

const CLIENT: ClientIdentity = identityOf({
  givenName: "Ana",
  paternalSurname: "Pérez",
  maternalSurname: "García",
  mexico: { rfc: "PEGA800101AB1", clabeInterbancaria: "012180000000000011" },
});

function judge(
  operations: ValuedOperation[],
  over: Partial<{ [K in keyof RuleParameters]: Partial<RuleParameters[K]> }> = {},
  extra: Partial<RuleInput> = {},
) {
  const parameters = Object.fromEntries(
    Object.entries(DEFAULT_RULE_PARAMETERS).map(([k, v]) => [
      k,
      { ...v, ...(over as Record<string, object>)[k] },
    ]),
  ) as RuleParameters;
  return judgeOperations({
    userId: "u1",
    operations: [...operations].sort((a, b) => Date.parse(a.item.at) - Date.parse(b.item.at)),
    parameters,
    client: CLIENT,
    // MX's aviso threshold of 210 UMA in 2026: MXN 24,635.10.
    thresholds: (currency) => (currency === "MXN" ? [{ name: "MX aviso", amount: 24_635.1 }] : []),
    verdicts: new Map(),
    ...extra,
  }).hits.map((h) => h.rule);
}
const only = (rule: string, rules: string[]) => rules.filter((r) => r === rule);

describe("fan-in", () => {
  const payers = (n: number, spanHours = 10) =>
    Array.from({ length: n }, (_, i) => deposit(-spanHours + i * (spanHours / n), 1_000, `Payer ${i}`));

  it("alerts at minPayers distinct payers before a crypto withdrawal, not one fewer", () => {
    expect(only("fan_in", judge([...payers(5), cryptoOut(0, 200)]))).toEqual(["fan_in"]);
    expect(only("fan_in", judge([...payers(4), cryptoOut(0, 200)]))).toEqual([]);
    expect(only("fan_in", judge([...payers(4), cryptoOut(0, 200)], { fan_in: { minPayers: 4 } }))).toEqual([
      "fan_in",
    ]);
  });

  it("counts only deposits within windowHours before the withdrawal", () => {
    const early = deposit(-72.01, 1_000, "Payer early");
    const edge = deposit(-72, 1_000, "Payer edge");
    expect(only("fan_in", judge([edge, ...payers(4), cryptoOut(0, 200)]))).toEqual(["fan_in"]);
    expect(only("fan_in", judge([early, ...payers(4), cryptoOut(0, 200)]))).toEqual([]);
  });

  it("needs the withdrawal: deposits alone do not alert", () => {
    expect(only("fan_in", judge(payers(12)))).toEqual([]);
  });

  it("a payroll from one employer, many times, is one payer", () => {
    const payroll = Array.from({ length: 8 }, (_, i) => deposit(-60 + i, 9_000, "Grupo Industrial SA de CV"));
    expect(only("fan_in", judge([...payroll, cryptoOut(0, 300)]))).toEqual([]);
  });

  it("the client's own accounts at other banks are not payers", () => {
    const own = [
      deposit(-5, 1_000, "Ana Pérez García"),
      deposit(-4, 1_000, "PEREZ GARCIA ANA"),
      deposit(-3, 1_000, "A. P. G.", { taxId: "PEGA800101AB1" }),
      deposit(-2, 1_000, "Cuenta propia", { account: "012180000000000011" }),
    ];
    expect(only("fan_in", judge([...own, ...payers(2), cryptoOut(0, 200)]))).toEqual([]);
  });
});

describe("pass-through", () => {
  it("alerts when crypto out is within minRatio of the fiat in, not below", () => {
    // MXN 30,000 = USD 1,500 in; out USD 1,200 is 80 %.
    expect(
      only("pass_through", judge([deposit(-3, 30_000, "Ana Pérez García"), cryptoOut(0, 1_200)])),
    ).toEqual(["pass_through"]);
    expect(
      only("pass_through", judge([deposit(-3, 30_000, "Ana Pérez García"), cryptoOut(0, 1_199)])),
    ).toEqual([]);
  });

  it("alerts within windowHours only", () => {
    expect(
      only("pass_through", judge([deposit(-24, 20_000, "Ana Pérez García"), cryptoOut(0, 1_000)])),
    ).toEqual(["pass_through"]);
    expect(
      only("pass_through", judge([deposit(-24.01, 20_000, "Ana Pérez García"), cryptoOut(0, 1_000)])),
    ).toEqual([]);
  });

  it("from minUsd: small amounts passed through are not alerted", () => {
    expect(only("pass_through", judge([deposit(-1, 19_980, "Ana Pérez García"), cryptoOut(0, 999)]))).toEqual(
      [],
    );
  });

  it("also crypto in and fiat out", () => {
    expect(only("pass_through", judge([cryptoIn(-2, 5_000), fiatOut(0, 100_000)]))).toEqual(["pass_through"]);
  });

  it("a client who buys and keeps most of it is no pass-through", () => {
    expect(
      only("pass_through", judge([deposit(-3, 100_000, "Ana Pérez García"), cryptoOut(0, 1_500)])),
    ).toEqual([]);
  });
});

describe("fiat structuring", () => {
  it("alerts at minCount deposits within band under the threshold, within windowDays", () => {
    const three = [
      deposit(-100, 24_000, "Ana Pérez García"),
      deposit(-50, 23_500, "Ana Pérez García"),
      deposit(0, 22_171.59, "Ana Pérez García"),
    ];
    expect(only("fiat_structuring", judge(three))).toEqual(["fiat_structuring"]);
    expect(only("fiat_structuring", judge(three.slice(0, 2)))).toEqual([]);
  });

  it("a deposit at the threshold or beyond the band is not structuring", () => {
    const atThreshold = [
      deposit(-10, 24_635.1, "Ana Pérez García"),
      deposit(-5, 24_000, "Ana Pérez García"),
      deposit(0, 24_000, "Ana Pérez García"),
    ];
    expect(only("fiat_structuring", judge(atThreshold))).toEqual([]);
    const belowBand = [
      deposit(-10, 22_171.58, "Ana Pérez García"),
      deposit(-5, 24_000, "Ana Pérez García"),
      deposit(0, 24_000, "Ana Pérez García"),
    ];
    expect(only("fiat_structuring", judge(belowBand))).toEqual([]);
  });

  it("only within windowDays", () => {
    const spread = [
      deposit(-24 * 7 - 0.01, 24_000, "Ana Pérez García"),
      deposit(-5, 24_000, "Ana Pérez García"),
      deposit(0, 24_000, "Ana Pérez García"),
    ];
    expect(only("fiat_structuring", judge(spread))).toEqual([]);
    const inside = [
      deposit(-24 * 7, 24_000, "Ana Pérez García"),
      deposit(-5, 24_000, "Ana Pérez García"),
      deposit(0, 24_000, "Ana Pérez García"),
    ];
    expect(only("fiat_structuring", judge(inside))).toEqual(["fiat_structuring"]);
  });

  it("a salary that happens to be near the threshold once a month is not repeated within the window", () => {
    const monthly = [
      deposit(-24 * 60, 24_000, "Empleador SA"),
      deposit(-24 * 30, 24_000, "Empleador SA"),
      deposit(0, 24_000, "Empleador SA"),
    ];
    expect(only("fiat_structuring", judge(monthly))).toEqual([]);
  });
});

describe("third-party funding", () => {
  it("alerts a payer that is not the client, never the client's own account", () => {
    expect(only("third_party_funding", judge([deposit(0, 5_000, "Carlos Ruiz")]))).toEqual([
      "third_party_funding",
    ]);
    expect(only("third_party_funding", judge([deposit(0, 5_000, "Ana Pérez García")]))).toEqual([]);
    expect(only("third_party_funding", judge([deposit(0, 5_000, "ANA PEREZ")]))).toEqual([
      "third_party_funding",
    ]);
    expect(
      only("third_party_funding", judge([deposit(0, 5_000, "Mi cuenta", { account: "012180000000000011" })])),
    ).toEqual([]);
  });

  it("leaves out the payers the profile declares (an employer), by account, tax id or name; not a near name", () => {
    const declared = identityOf({
      givenName: "Ana",
      paternalSurname: "Pérez",
      knownPayers: [
        { name: "Grupo Industrial del Norte SA de CV", account: "012180000000000501", relation: "employer" },
        { taxId: "GIN-010101-AB1" },
      ],
    });
    const hits = (d: ValuedOperation) => only("third_party_funding", judge([d], {}, { client: declared }));
    expect(hits(deposit(0, 9_000, "Nómina", { account: "012180000000000501" }))).toEqual([]);
    expect(hits(deposit(0, 9_000, "Otro nombre", { taxId: "GIN010101AB1" }))).toEqual([]);
    expect(hits(deposit(0, 9_000, "Grupo Industrial del Norte, S.A. de C.V."))).toEqual([]);
    expect(hits(deposit(0, 9_000, "Grupo Industrial del Sur SA de CV"))).toEqual(["third_party_funding"]);
  });

  it("is not judged, and says so, while the client's profile cannot be read", () => {
    const out = judgeOperations({
      userId: "u1",
      operations: [deposit(0, 5_000, "Carlos Ruiz")],
      parameters: DEFAULT_RULE_PARAMETERS,
      client: null,
      thresholds: () => [],
      verdicts: new Map(),
    });
    expect(out.hits).toEqual([]);
    expect(out.unjudged).toEqual(["third_party_funding"]);
  });

  it("can be turned off by the project", () => {
    expect(
      only(
        "third_party_funding",
        judge([deposit(0, 5_000, "Carlos Ruiz")], { third_party_funding: { enabled: false } }),
      ),
    ).toEqual([]);
  });
});

describe("withdrawal to risk", () => {
  const verdict = (level: DestinationVerdict["level"]) => (w: ValuedOperation) =>
    new Map([[w.item.operationId, { level, score: 80, reason: "Direct exposure to a sanctioned entity." }]]);

  it("alerts at minLevel and above, naming the fiat of the fundingHours before", () => {
    const funding = deposit(-71, 20_000, "Ana Pérez García");
    const older = deposit(-73, 20_000, "Ana Pérez García");
    const w = cryptoOut(0, 50);
    const input = { verdicts: verdict("high")(w) };
    const raw = judgeOperations({
      userId: "u1",
      operations: [older, funding, w],
      parameters: DEFAULT_RULE_PARAMETERS,
      client: CLIENT,
      thresholds: () => [],
      ...input,
    }).hits.find((h) => h.rule === "withdrawal_to_risk");
    expect(raw?.operations.map((o) => o.id)).toEqual([funding.id, w.id]);
    expect(only("withdrawal_to_risk", judge([w], {}, { verdicts: verdict("medium")(w) }))).toEqual([]);
    expect(
      only(
        "withdrawal_to_risk",
        judge([w], { withdrawal_to_risk: { minLevel: "medium" } }, { verdicts: verdict("medium")(w) }),
      ),
    ).toEqual(["withdrawal_to_risk"]);
    expect(only("withdrawal_to_risk", judge([w], {}, { verdicts: verdict("critical")(w) }))).toEqual([
      "withdrawal_to_risk",
    ]);
  });

  it("a destination that could not be analysed is recorded unjudged, not passed as clean", () => {
    const out = judgeOperations({
      userId: "u1",
      operations: [cryptoOut(0, 50)],
      parameters: DEFAULT_RULE_PARAMETERS,
      client: CLIENT,
      thresholds: () => [],
      verdicts: new Map(),
    });
    expect(out.unjudged).toEqual(["withdrawal_to_risk"]);
  });
});

describe("news only", () => {
  it("operations judged before are context: they raise nothing by themselves", () => {
    const ops = [...Array.from({ length: 6 }, (_, i) => deposit(-10 + i, 1_000, `P${i}`)), cryptoOut(0, 200)];
    for (const o of ops) o.isNew = false;
    expect(judge(ops)).toEqual([]);
  });
});

describe("sums that leave out what could not be valued say so", () => {
  it("names the deposits without a rate of their day", () => {
    const ops = [...Array.from({ length: 5 }, (_, i) => deposit(-10 + i, 1_000, `Q${i}`)), cryptoOut(0, 200)];
    (ops[0] as ValuedOperation).usd = null;
    const hit = judgeOperations({
      userId: "u1",
      operations: ops,
      parameters: DEFAULT_RULE_PARAMETERS,
      client: CLIENT,
      thresholds: () => [],
      verdicts: new Map(),
    }).hits.find((h) => h.rule === "fan_in");
    expect(hit?.facts).toMatchObject({ depositsUsd: 200, unvalued: 1 });
    expect(hit?.reason).toMatch(/USD 200 in all, 1 not valued \(no rate or price on their day\)/);
  });
});
