// Data written into a wallet report as inert text: nothing in a label may open markdown structure or a link, bare
// ones included (GitHub-flavoured renderers link `https://…`, `www.…` and e-mail addresses found in text).
import { describe, expect, it } from "vitest";
import { inert } from "./markdown.ts";

/** What a GFM renderer would turn into a link in text: a scheme's `://`, `www.`, an e-mail's `@`, unescaped. */
const BARE_LINK = /(?<!\\)(?:[a-z][a-z0-9+.-]*(?<!\\):\/\/|(?<![\w\\])www\.|[\w.+-](?<!\\)@[\w-]+\.)/i;

describe("inert text", () => {
  it("escapes what markdown and HTML act on", () => {
    expect(inert("## Verdict\n<b>x</b> [a](b) `c` *d* |e|")).toBe(
      "\\#\\# Verdict \\<b\\>x\\</b\\> \\[a\\]\\(b\\) \\`c\\` \\*d\\* \\|e\\|",
    );
  });

  it("leaves no bare link: URLs, www. and e-mail addresses in a label are shown, not linked", () => {
    for (const label of [
      "Exchange https://evil.example/claim",
      "HTTP://EVIL.EXAMPLE",
      "see www.evil.example",
      "see WWW.evil.example/x",
      "ftp://evil.example/file",
      "support@evil.example",
    ]) {
      expect(BARE_LINK.test(label), label).toBe(true);
      const text = inert(label);
      expect(BARE_LINK.test(text), text).toBe(false);
      // Unescaped, it reads as it was written.
      expect(text.replace(/\\(.)/g, "$1")).toBe(label);
    }
    expect(inert("Binance: Hot Wallet 6")).toBe("Binance\\: Hot Wallet 6");
  });
});
