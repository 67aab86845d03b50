// The check of an LLM's report against its facts: faithful text passes; an invented address, hash, date or figure,
// raw HTML, an image or a link outside the allow-list (found as CommonMark parses links, escaped labels too) is
// refused with the reason.
import { describe, expect, it } from "vitest";
import { checkAnswer } from "./check-answer.ts";

const ADDRESS = `0x${"ab".repeat(20)}`;
const TX = `0x${"cd".repeat(32)}`;
const ANALYSIS = "0f1e2d3c-4b5a-4697-8899-aabbccddeeff";
const FACTS = {
  address: ADDRESS,
  asOf: "2026-11-20",
  scoreScale: 100,
  labels: [{ label: "Tornado Cash pool", category: "mixer" }],
  activity: [
    { chain: "Ethereum", firstSeen: "2024-01-05", transfersIn: 12, receivedUsd: 12345.678, share: 0.375 },
  ],
  risk: {
    score: 85,
    analysisId: ANALYSIS,
    patterns: [{ txs: [TX], message: "3 deposits of USD 10,000 within 7 days" }],
  },
  bitcoin: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
};
const check = (answer: string, allowed: string[] = []) => checkAnswer(answer, FACTS, allowed);

describe("checking an LLM's report", () => {
  it("passes text that only repeats the facts", () => {
    const answer = [
      `# Report: \`${ADDRESS}\``,
      "",
      "1. Score **85/100**.",
      "2. First seen on 2024-01-05, 12 transfers received, USD 12,345.68 (about 12,346; 37.5% of it).",
      `3. Evidence: ${TX}; it made 3 deposits of USD 10,000 within 7 days.`,
      "Bitcoin: BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ.",
      `From investigation \`${ANALYSIS}\`.`,
    ].join("\n");
    expect(check(answer)).toEqual({ ok: true });
  });

  it("refuses invented identifiers, dates and figures", () => {
    expect(check(`It paid 0x${"12".repeat(20)}.`)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("0x1212"),
    });
    expect(check(`See 0x${"ef".repeat(32)}.`)).toMatchObject({ ok: false });
    expect(check("From investigation 11111111-2222-4333-8444-555555555555.")).toMatchObject({
      ok: false,
      reason: expect.stringContaining("11111111-2222"),
    });
    expect(check("It paid 1BoatSLRHtKNngkdXEeobR76b53LETtpyT.")).toMatchObject({ ok: false });
    expect(check("Last seen on 2025-02-03.")).toMatchObject({
      ok: false,
      reason: expect.stringContaining("2025-02-03"),
    });
    expect(check("It moved USD 987,654.32.")).toMatchObject({
      ok: false,
      reason: expect.stringContaining("987,654.32"),
    });
    expect(check("It received 13 transfers.")).toMatchObject({
      ok: false,
      reason: expect.stringContaining("13"),
    });
  });

  it("refuses raw HTML, images and links outside the allow-list", () => {
    expect(check("Fine <b>bold</b>")).toMatchObject({ ok: false, reason: "the answer contains raw HTML" });
    expect(check("![x](https://etherscan.io/x.png)", ["https://etherscan.io/"])).toMatchObject({ ok: false });
    expect(check("[more](https://evil.example/a)", ["https://etherscan.io/"])).toMatchObject({ ok: false });
    expect(check("see https://evil.example/a")).toMatchObject({ ok: false });
    expect(
      check(`[on the explorer](https://etherscan.io/address/${ADDRESS})`, ["https://etherscan.io/"]),
    ).toEqual({
      ok: true,
    });
  });

  it("refuses every other link form outside the allow-list: reference-style, //host, www., e-mail, any case", () => {
    const allowed = ["https://etherscan.io/"];
    for (const answer of [
      "See [the source][e].\n\n[e]: javascript:alert(1)",
      "See [e].\n\n[e]: <javascript:alert(1)>",
      "See [e][].\n\n  [e]:\n  https://evil.example/a",
      "> quoted [e]\n>\n> [e]: https://evil.example/a",
      "- an item [e]\n- [e]: //evil.example/a",
      "[more](//evil.example/a)",
      "[more]( <//evil.example/a> )",
      "[more](/relative)",
      "see www.evil.example/a",
      "see (www.evil.example)",
      "see HTTPS://evil.example/a",
      "see ftp://evil.example/a",
      "write to someone@evil.example",
    ]) {
      expect(check(answer, allowed), answer).toMatchObject({ ok: false });
    }
    expect(check("<javascript:alert(1)>", allowed)).toMatchObject({ ok: false });
    // The same forms pointing inside the allow-list pass.
    expect(check(`See [the explorer][e].\n\n[e]: https://etherscan.io/address/${ADDRESS}`, allowed)).toEqual({
      ok: true,
    });
    expect(check(`see https://etherscan.io/address/${ADDRESS}`, allowed)).toEqual({ ok: true });
    // Text that only looks close to a link is not one.
    expect(check("the swww.x prefix and a@b are not links", allowed)).toEqual({ ok: true });
  });

  it("finds links as CommonMark parses them: labels with escaped brackets, entities, unused definitions", () => {
    const allowed = ["https://etherscan.io/"];
    for (const answer of [
      // The finding: a reference label holding an escaped bracket, which a pattern over the text missed.
      "See [x][a\\]b].\n\n[a\\]b]: javascript:alert(1)",
      "See [a\\]b].\n\n[a\\]b]: javascript:alert(1)",
      "See [x][a\\[b].\n\n[a\\[b]: <javascript:alert(1)>",
      "See [x][ a\\]\\]b ].\n\n[ A\\]\\]B ]:\n   JavaScript:alert(1)",
      // Unused, or defined with a title: still checked.
      'Nothing links here.\n\n[a\\]b]: javascript:alert(1) "title"',
      // Entities and escapes in the destination are read as a renderer reads them.
      "[x](&#106;avascript:alert(1))",
      "[x](java\\script:alert(1))",
      "[x](<javascript:alert(1)>)",
      "[x][r]\n\n[r]: &#x6A;avascript&#58;alert(1)",
      "<JAVASCRIPT:alert(1)>",
      "[x](data:text/html;base64,PHNjcmlwdD4=)",
      "[x](vbscript:msgbox)",
      // A link inside a link's text, a list and a quote.
      "- [a [nested](javascript:alert(1))](https://etherscan.io/)",
      "> [x][a\\]b]\n>\n> [a\\]b]: https://evil.example/",
    ]) {
      expect(check(answer, allowed), answer).toMatchObject({ ok: false });
    }
    expect(check("See [x][a\\]b].\n\n[a\\]b]: javascript:alert(1)", allowed)).toMatchObject({
      reason: expect.stringContaining("unsafe URL: javascript:alert(1)"),
    });
    // An allowed destination under an escaped label passes; a link in a code span is no link.
    expect(check(`See [x][a\\]b].\n\n[a\\]b]: https://etherscan.io/address/${ADDRESS}`, allowed)).toEqual({
      ok: true,
    });
    expect(check("Written as `[x](javascript:alert(1))`, in code.", allowed)).toEqual({ ok: true });
  });

  it("refuses an empty or oversized answer", () => {
    expect(check("  ")).toMatchObject({ ok: false });
    expect(check("a".repeat(20_001))).toMatchObject({ ok: false });
  });
});
