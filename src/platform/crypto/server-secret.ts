// Where the server secret comes from: VIGIA_SECRET, or on the embedded database a random one generated once
// into the data dir (so a newcomer needs no setup). PostgreSQL deployments run several processes that must
// agree on it, so there it has to be given.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export function resolveServerSecret(opts: {
  secret: string | undefined;
  dataDir: string;
  embedded: boolean;
}): string {
  if (opts.secret) {
    if (opts.secret.length < 16) throw new Error("VIGIA_SECRET must be at least 16 characters");
    return opts.secret;
  }
  if (!opts.embedded) throw new Error("VIGIA_SECRET is required when DATABASE_URL is set");
  const file = path.join(opts.dataDir, "secret");
  fs.mkdirSync(opts.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return fs.readFileSync(file, "utf8").trim();
}
