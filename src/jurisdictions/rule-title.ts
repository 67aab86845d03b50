// A rule's title in the reader's language, from the message catalog (src/messages/catalog/law.ts); a rule the
// catalog does not name keeps the name its data gives.
import { CATALOG, type Lang, type MessageId, translate } from "../messages/index.ts";

export function ruleTitle(lang: Lang, ruleId: string, name: string): string {
  const id = `rule.${ruleId}`;
  return Object.hasOwn(CATALOG.en, id) ? translate(lang, id as MessageId) : name;
}
