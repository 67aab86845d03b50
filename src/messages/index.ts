// The messages: one catalog, in Spanish (es-MX) and English, for everything a person reads (the pages, the API's
// reasons, levels, causes, rule titles and errors), with the language chosen per user or per request.
export type { MessageId } from "./catalog.ts";
export { CATALOG } from "./catalog.ts";
export { defineMessages, LANGS, type Lang, LOCALE } from "./define.ts";
export { errorDetail, errorMessage } from "./errors.ts";
export { THRESHOLD_NAME_IDS } from "./thresholds.ts";
export { isLang, negotiateLang, type Params, requestLang, translate } from "./translate.ts";
