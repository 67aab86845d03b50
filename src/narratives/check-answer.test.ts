// The check of an LLM's report against its facts: faithful text passes; an invented address, hash, date or figure,
// raw HTML, an image or a link outside the allow-list is refused with the reason.
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

  it("refuses an empty or oversized answer", () => {
    expect(check("  ")).toMatchObject({ ok: false });
    expect(check("a".repeat(20_001))).toMatchObject({ ok: false });
  });
});
