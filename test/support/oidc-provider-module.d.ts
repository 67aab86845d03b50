// The little of oidc-provider's API the sign-in tests use (the package ships no types of its own).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface Account {
    accountId: string;
    claims: () => Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: {
        clients: Record<string, unknown>[];
        claims?: Record<string, string[]>;
        findAccount: (ctx: unknown, id: string) => Promise<Account | undefined>;
        cookies?: { keys: string[] };
        pkce?: { required: () => boolean };
      },
    );
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
