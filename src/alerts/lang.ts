// The language an answer's texts are written in: the one the HTTP layer chose for the request (the person's own
// setting, else Accept-Language), else negotiated here from the header, for a request that went around that layer.
import { isLang, type Lang, negotiateLang } from "../messages/index.ts";

export function langOf(req: { headers: Record<string, string | string[] | undefined> }): Lang {
  const chosen = (req as { lang?: unknown }).lang;
  if (isLang(chosen)) return chosen;
  const header = req.headers["accept-language"];
  return negotiateLang(null, Array.isArray(header) ? header.join(",") : header);
}
