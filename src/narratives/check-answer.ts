// The check an LLM's report passes before it is served (docs/api.md, "Wallet background report"): every address,
// transaction hash, analysis id, date and figure in it must appear in the facts it was given, and it may carry no
// raw HTML, no image and no link outside the allow-list (the configured chains' explorers). A report that fails is
// not served; the deterministic one is, and the reason is logged. Pure.

export type AnswerCheck = { ok: true } | { ok: false; reason: string };

const MAX_LENGTH = 20_000;
const HTML = /<\/?[A-Za-z!][^>]*>/;
const IMAGE = /!\[/;
/**
 * Every form a markdown renderer (CommonMark with GitHub's extensions) turns into a link, with its target: inline
 * `[t](url)` (relative and `//host` targets included), autolinks `<scheme:...>`, reference definitions
 * `[e]: url` (which `[t][e]`, `[t][]` and `[e]` use; inside a quote or list item too), bare `http(s)://` and `www.` links, and bare e-mail
 * addresses (mailto). Schemes in any case.
 */
const LINKS =
  /\]\(\s*<?([^)\s>]*)|<([a-z][a-z0-9+.-]{1,31}:[^>\s]*)>|^[ \t>*+\-\d.)]*\[[^\]]+\]:\s*<?([^\s>]*)|((?:https?|ftp):\/\/[^\s)>\]]+)|(?<![\w.@-])(www\.[^\s)>\]]+)|(?<![\w.+-])([\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+)/gim;
const UUID = /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g;
const HEX = /0x[0-9a-fA-F]+/g;
const BECH32 = /\b(bc1|BC1)[0-9A-Za-z]{8,87}\b/g;
const STELLAR = /\bG[A-Z2-7]{55}\b/g;
const BASE58 = /\b[1-9A-HJ-NP-Za-km-z]{25,44}\b/g;
const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
const LIST_MARKER = /^\s*\d+[.)]\s/gm;
const NUMBER = /(?<![A-Za-z0-9_])\d+(?:,\d{3})*(?:\.\d+)?(?![A-Za-z0-9_])/g;

const toNumber = (text: string) => Number(text.replaceAll(",", ""));

/** Every string and number in the facts. */
function walk(value: unknown, strings: string[], numbers: number[]): void {
  if (typeof value === "string") strings.push(value);
  else if (typeof value === "number") numbers.push(value);
  else if (Array.isArray(value)) for (const v of value) walk(v, strings, numbers);
  else if (value && typeof value === "object")
    for (const v of Object.values(value)) walk(v, strings, numbers);
}

/** Whether `n`, as written in a report, is one of the facts' figures (or its rounding, or a share as a percent). */
function isFactFigure(n: number, facts: number[]): boolean {
  return facts.some((f) => {
    if (Math.abs(n - f) < 0.005) return true;
    if (n === Math.round(f) || n === Math.round(f * 10) / 10) return true;
    return f > 0 && f <= 1 && (n === Math.round(f * 100) || Math.abs(n - f * 100) < 0.05);
  });
}

export function checkAnswer(
  answer: string,
  facts: unknown,
  allowedLinkPrefixes: readonly string[],
): AnswerCheck {
  if (answer.trim().length === 0) return { ok: false, reason: "the answer is empty" };
  if (answer.length > MAX_LENGTH)
    return { ok: false, reason: `the answer is longer than ${MAX_LENGTH} characters` };
  if (HTML.test(answer)) return { ok: false, reason: "the answer contains raw HTML" };
  if (IMAGE.test(answer)) return { ok: false, reason: "the answer contains an image" };
  for (const match of answer.matchAll(LINKS)) {
    const url = match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5] ?? match[6] ?? "";
    if (!allowedLinkPrefixes.some((prefix) => url.startsWith(prefix)))
      return { ok: false, reason: `the answer links outside the allow-list: ${url.slice(0, 100)}` };
  }
  const strings: string[] = [];
  const numbers: number[] = [];
  walk(facts, strings, numbers);
  const factText = strings.join("\n");
  const factTextLower = factText.toLowerCase();
  // Identifiers: each must be one the facts hold.
  let rest = answer;
  for (const pattern of [UUID, HEX, BECH32, STELLAR, BASE58]) {
    for (const [token] of rest.matchAll(pattern)) {
      const known =
        pattern === UUID || pattern === HEX || pattern === BECH32
          ? factTextLower.includes(token.toLowerCase())
          : factText.includes(token);
      if (!known)
        return { ok: false, reason: `the answer names ${token.slice(0, 80)}, which is not in the facts` };
    }
    rest = rest.replace(pattern, " ");
  }
  for (const [date] of rest.matchAll(DATE))
    if (!factText.includes(date))
      return { ok: false, reason: `the answer gives the date ${date}, which is not in the facts` };
  rest = rest.replace(DATE, " ").replace(LIST_MARKER, " ");
  // Figures written inside the facts' own strings (a finding's message) count as facts too.
  const factFigures = [
    ...numbers,
    ...[...factText.replace(HEX, " ").matchAll(NUMBER)].map(([n]) => toNumber(n)),
  ];
  for (const [written] of rest.matchAll(NUMBER)) {
    if (!isFactFigure(toNumber(written), factFigures))
      return { ok: false, reason: `the answer gives the figure ${written}, which is not in the facts` };
  }
  return { ok: true };
}
