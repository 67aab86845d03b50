// The check an LLM's report passes before it is served (docs/api.md, "Wallet background report"): every address,
// transaction hash, analysis id, date and figure in it must appear in the facts it was given, and it may carry no
// raw HTML, no image and no link outside the allow-list (the configured chains' explorers). A report that fails is
// not served; the deterministic one is, and the reason is logged. Pure.
//
// Links are found as a renderer finds them, by a CommonMark parser (markdown-it, with linkify for the bare
// `https://…`, `www.…` and e-mail links GitHub-flavoured renderers make): inline links, autolinks, and reference
// definitions whatever their label holds (`[a\]b]: javascript:…` defines a label with an escaped bracket, which
// a pattern over the text misses), after the parser's unescaping and entity decoding (`&#106;avascript:`).
import MarkdownIt, { type Token } from "markdown-it";

export type AnswerCheck = { ok: true } | { ok: false; reason: string };

const MAX_LENGTH = 20_000;
const HTML = /<\/?[A-Za-z!][^>]*>/;
const IMAGE = /!\[/;
const UUID = /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g;
const HEX = /0x[0-9a-fA-F]+/g;
const BECH32 = /\b(bc1|BC1)[0-9A-Za-z]{8,87}\b/g;
const STELLAR = /\bG[A-Z2-7]{55}\b/g;
const BASE58 = /\b[1-9A-HJ-NP-Za-km-z]{25,44}\b/g;
const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
const LIST_MARKER = /^\s*\d+[.)]\s/gm;
const NUMBER = /(?<![A-Za-z0-9_])\d+(?:,\d{3})*(?:\.\d+)?(?![A-Za-z0-9_])/g;

/**
 * The parser. It accepts every destination (markdown-it drops `javascript:` links by default, leaving their text for
 * a less careful renderer to link) and keeps it as written, so that each is checked here, as parsed.
 */
const markdown = new MarkdownIt({ html: true, linkify: true });
markdown.validateLink = () => true;
markdown.normalizeLink = (url) => url;
/**
 * GitHub's extended autolinks (`https://…`, `www.…`, `name@host`), which linkify only finds under a known top-level
 * domain: GitHub links `www.evil.example` too. No bracket is involved, so a pattern over the text finds them.
 */
const BARE_LINKS =
  /((?:https?|ftp):\/\/[^\s)>\]]+)|(?<![\w.@-])(www\.[^\s)>\]]+)|(?<![\w.+-])([\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+)/gi;
/** Schemes refused whatever the allow-list says. */
const UNSAFE_SCHEME = /^\s*(?:javascript|vbscript|data|file):/i;

/** Why the parsed answer can't be served (raw HTML, an image, a link outside the allow-list), or undefined. */
function markupProblem(answer: string, allowedLinkPrefixes: readonly string[]): string | undefined {
  const env: { references?: Record<string, { href: string; title: string }> } = {};
  const destinations: string[] = [];
  const visit = (tokens: readonly Token[]): string | undefined => {
    for (const token of tokens) {
      if (token.type === "html_block" || token.type === "html_inline") return "the answer contains raw HTML";
      if (token.type === "image") return "the answer contains an image";
      if (token.type === "link_open") destinations.push(String(token.attrGet("href") ?? ""));
      const inner = token.children ? visit(token.children) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  const problem = visit(markdown.parse(answer, env));
  if (problem) return problem;
  // Definitions no link uses are checked too: another renderer may resolve a label this one doesn't.
  for (const reference of Object.values(env.references ?? {})) destinations.push(reference.href);
  for (const match of answer.matchAll(BARE_LINKS)) destinations.push(match[1] ?? match[2] ?? match[3] ?? "");
  for (const url of destinations) {
    if (UNSAFE_SCHEME.test(url)) return `the answer links to an unsafe URL: ${url.slice(0, 100)}`;
    if (!allowedLinkPrefixes.some((prefix) => url.startsWith(prefix)))
      return `the answer links outside the allow-list: ${url.slice(0, 100)}`;
  }
  return undefined;
}

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
  const problem = markupProblem(answer, allowedLinkPrefixes);
  if (problem) return { ok: false, reason: problem };
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
