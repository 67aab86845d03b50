// Each operation of a request checked against its kind's schema and the rules of its rail, and put in the one form
// it is kept in (an address as its chain stores it, a CLABE or tax id without punctuation, symbols in capitals).
// A request with any wrong item is refused whole, naming every wrong item's index and field: nothing of it is
// written. Pure but for the chain registry's address parsing.
import { Value } from "@sinclair/typebox/value";
import { foreignUserIdProblem } from "../integrator/index.ts";
import { type ErrorDetail, invalid, MESSAGES } from "../platform/errors.ts";
import { brazilianTaxIdProblem, clabeProblem, pixKeyProblem } from "./identifiers.ts";
import { KIND_SCHEMAS, type OperationItem, type OperationKind } from "./schemas.ts";

/** What the items' checks need of the chains: an address in the form the chain stores it, or why it is none. */
export type ParseAddress = (chainId: number, raw: string) => { address: string } | { error: string };

/** SPEI's clave de rastreo: up to 30 letters and digits (Banxico's SPEI rules). */
const CLAVE_DE_RASTREO = /^[A-Za-z0-9]{1,30}$/;
/** Pix's end-to-end id: "E", the payer's ISPB (8 digits), yyyyMMddHHmm and 11 letters or digits (Banco Central). */
const PIX_END_TO_END = /^E\d{8}\d{12}[A-Za-z0-9]{11}$/;

const stripped = (v: string) => v.replace(/[\s./-]/g, "");

/**
 * A transaction hash as the chain data stores it: lower case with its 0x (Tron's and EVM's 64 hex digits alike),
 * so that an exchange's record of a crypto movement meets the transfer the chain monitoring recorded.
 */
export function transactionHash(raw: string): string {
  const hex = raw.trim().replace(/^0x/i, "");
  return /^[0-9a-fA-F]{64}$/.test(hex) ? `0x${hex.toLowerCase()}` : raw.trim();
}

/** The item's problems beyond its schema: the rail's identifiers, a fee's one denomination, the crypto address. */
function railProblems(item: OperationItem, parse: ParseAddress): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const at = (path: string, message: string) => out.push({ path, message });
  if (item.kind === "fiat_deposit" || item.kind === "fiat_withdrawal") {
    const c = item.counterparty;
    if (item.rail === "spei") {
      if (!c?.account) at("/counterparty/account", "is required for SPEI: the counterparty's CLABE");
      else {
        const p = clabeProblem(stripped(c.account));
        if (p) at("/counterparty/account", p);
      }
      if (!item.reference) at("/reference", "is required for SPEI: the clave de rastreo");
      else if (!CLAVE_DE_RASTREO.test(item.reference))
        at("/reference", "must be SPEI's clave de rastreo: 1 to 30 letters and digits");
      if (!c?.name) at("/counterparty/name", "is required for SPEI: the ordenante's or beneficiario's name");
    }
    if (item.rail === "pix") {
      if (!c?.taxId) at("/counterparty/taxId", "is required for Pix: the payer's or payee's CPF or CNPJ");
      else {
        const p = brazilianTaxIdProblem(c.taxId);
        if (p) at("/counterparty/taxId", p);
      }
      if (c?.pixKey) {
        const p = pixKeyProblem(c.pixKey);
        if (p) at("/counterparty/pixKey", p);
      }
      if (!item.reference) at("/reference", "is required for Pix: the end-to-end id");
      else if (!PIX_END_TO_END.test(item.reference))
        at(
          "/reference",
          "must be Pix's end-to-end id: E, 8 digits of the ISPB, yyyyMMddHHmm and 11 characters",
        );
    }
  }
  if (item.kind === "crypto_deposit" || item.kind === "crypto_withdrawal") {
    const parsed = parse(item.chainId, item.address);
    if ("error" in parsed) at("/address", parsed.error);
  }
  if (item.kind === "fee" && (item.currency === undefined) === (item.asset === undefined))
    at("/currency", "send either `currency` (a fee in fiat) or `asset` (a fee in a virtual asset), not both");
  if (item.kind === "custody_snapshot")
    for (const [i, b] of item.balances.entries()) {
      if (b.address !== undefined && b.chainId === undefined)
        at(`/balances/${i}/chainId`, "is required with `address`: the chain the wallet is on");
      if (b.address !== undefined && b.chainId !== undefined) {
        const parsed = parse(b.chainId, b.address);
        if ("error" in parsed) at(`/balances/${i}/address`, parsed.error);
      }
      if (b.since !== undefined && Number.isNaN(Date.parse(b.since)))
        at(`/balances/${i}/since`, "must be a date and time (ISO 8601)");
    }
  return out;
}

/** The item in the form it is kept in. */
function normalised(item: OperationItem, parse: ParseAddress): OperationItem {
  const at = new Date(item.at).toISOString();
  switch (item.kind) {
    case "buy":
    case "sell":
      return { ...item, at, asset: item.asset.toUpperCase() };
    case "swap":
      return {
        ...item,
        at,
        asset: item.asset.toUpperCase(),
        assetReceived: item.assetReceived.toUpperCase(),
      };
    case "fiat_deposit":
    case "fiat_withdrawal": {
      const c = item.counterparty;
      return {
        ...item,
        at,
        ...(c
          ? {
              counterparty: {
                ...c,
                ...(c.account && item.rail === "spei" ? { account: stripped(c.account) } : {}),
                ...(c.taxId ? { taxId: stripped(c.taxId).toUpperCase() } : {}),
              },
            }
          : {}),
      };
    }
    case "crypto_deposit":
    case "crypto_withdrawal": {
      const parsed = parse(item.chainId, item.address);
      return {
        ...item,
        at,
        asset: item.asset.toUpperCase(),
        address: "address" in parsed ? parsed.address : item.address,
        ...(item.txHash ? { txHash: transactionHash(item.txHash) } : {}),
      };
    }
    case "fee":
      return { ...item, at, ...(item.asset ? { asset: item.asset.toUpperCase() } : {}) };
    case "custody_snapshot":
      return {
        ...item,
        at,
        balances: item.balances.map((b) => {
          const parsed =
            b.address !== undefined && b.chainId !== undefined ? parse(b.chainId, b.address) : null;
          return {
            ...b,
            asset: b.asset.toUpperCase(),
            ...(parsed && "address" in parsed ? { address: parsed.address } : {}),
            ...(b.since ? { since: new Date(b.since).toISOString() } : {}),
          };
        }),
      };
  }
}

/** The request's items checked and normalised; throws a 400 naming each wrong item's index and field. */
/** An instant as ISO 8601 writes it, with its offset (or Z). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
/** No operation with a virtual asset is older than Bitcoin's first block. */
const EARLIEST = Date.parse("2009-01-03T00:00:00Z");
/** A clock a little ahead is tolerated; an operation a day ahead is a mistake. */
const LATEST_AHEAD_MS = 86_400_000;

export function checkedItems(
  items: readonly unknown[],
  parse: ParseAddress,
  now: number = Date.now(),
): OperationItem[] {
  const details: ErrorDetail[] = [];
  const out: OperationItem[] = [];
  const seen = new Map<string, { index: number; body: string }>();
  for (const [i, raw] of items.entries()) {
    const kind = (raw as { kind: OperationKind }).kind;
    const schema = KIND_SCHEMAS[kind];
    const base = `/operations/${i}`;
    // The API's envelope checked these already; a file's line did not (vigia import operations).
    if (!schema) {
      details.push({
        path: `${base}/kind`,
        message: `must be one of ${Object.keys(KIND_SCHEMAS).join(", ")}`,
      });
      continue;
    }
    if (JSON.stringify(raw).includes("\\u0000")) {
      details.push({ path: base, message: "holds a NUL character, which no field may contain" });
      continue;
    }
    if (!Value.Check(schema, raw)) {
      for (const e of Value.Errors(schema, raw))
        details.push({ path: `${base}${e.path}`, message: e.message.toLowerCase() });
      continue;
    }
    const item = raw as OperationItem;
    const at = Date.parse(item.at);
    if (!ISO_INSTANT.test(item.at) || Number.isNaN(at)) {
      details.push({
        path: `${base}/at`,
        message: "must be a date and time with its offset (ISO 8601: 2026-11-03T09:12:00-06:00)",
      });
      continue;
    }
    if (at < EARLIEST || at > now + LATEST_AHEAD_MS) {
      details.push({
        path: `${base}/at`,
        message: `must be between 2009-01-03 and a day from now: ${item.at} cannot be when an operation was concluded`,
      });
      continue;
    }
    const idProblem = foreignUserIdProblem(item.userId);
    const problems = [
      ...(idProblem ? [{ path: "/userId", message: idProblem }] : []),
      ...railProblems(item, parse),
    ];
    if (problems.length > 0) {
      for (const p of problems) details.push({ path: `${base}${p.path}`, message: p.message });
      continue;
    }
    const kept = normalised(item, parse);
    const body = canonicalJson(kept);
    const earlier = seen.get(item.operationId);
    if (earlier && earlier.body !== body) {
      details.push({
        path: `${base}/operationId`,
        message: `repeats operation ${item.operationId} of item ${earlier.index} with a different content: send each operation once`,
      });
      continue;
    }
    if (!earlier) {
      seen.set(item.operationId, { index: i, body });
      out.push(kept);
    }
  }
  if (details.length > 0) throw invalid(MESSAGES.invalidBody, details.slice(0, 100));
  return out;
}

/** JSON with object keys in order, so two equal operations compare equal as text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** The fields in which two versions of an operation differ, as paths with the old and new values. */
export function differences(
  before: unknown,
  after: unknown,
  path = "",
): { path: string; was: unknown; now: unknown }[] {
  if (canonicalJson(before) === canonicalJson(after)) return [];
  const isObject = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!isObject(before) || !isObject(after)) return [{ path: path || "/", was: before, now: after }];
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .sort()
    .flatMap((k) => differences(a[k], b[k], `${path}/${k}`));
}

/** Where each operation id first is in a request or a file's batch (a repeated identical item is kept once). */
export function firstIndexOf(items: readonly unknown[]): (operationId: string) => number {
  const first = new Map<string, number>();
  for (const [i, raw] of items.entries()) {
    const id = (raw as { operationId?: unknown })?.operationId;
    if (typeof id === "string" && !first.has(id)) first.set(id, i);
  }
  return (id) => first.get(id) ?? -1;
}
