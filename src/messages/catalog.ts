// The whole catalog: every area's part, merged. An area adds its file under catalog/ and one line here.
import { caseMessages } from "./catalog/case.ts";
import { common } from "./catalog/common.ts";
import { desk } from "./catalog/desk.ts";
import { errorDetails } from "./catalog/error-details.ts";
import { errors } from "./catalog/errors.ts";
import { evidence } from "./catalog/evidence.ts";
import { law } from "./catalog/law.ts";
import { match } from "./catalog/match.ts";
import { reasons } from "./catalog/reasons.ts";
import { risk } from "./catalog/risk.ts";
import { users } from "./catalog/users.ts";
import { viewer } from "./catalog/viewer.ts";
import type { Lang } from "./define.ts";

const PARTS = [
  common,
  desk,
  errors,
  errorDetails,
  risk,
  law,
  caseMessages,
  users,
  match,
  evidence,
  viewer,
  reasons,
] as const;

type KeysOf<P> = P extends { en: Record<infer K, string> } ? K : never;
export type MessageId = KeysOf<(typeof PARTS)[number]>;

export const CATALOG: Record<Lang, Record<MessageId, string>> = {
  en: Object.assign({}, ...PARTS.map((p) => p.en)),
  es: Object.assign({}, ...PARTS.map((p) => p.es)),
};
