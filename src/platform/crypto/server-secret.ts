// Where the server secret comes from: VIGIA_SECRET, or on the embedded database a random one generated once
// into the data dir (so a newcomer needs no setup). PostgreSQL deployments run several processes that must
// agree on it, so there it has to be given; so does an in-memory database (tests), which has no data dir to
// keep one in. `vigia serve`, `vigia worker` and every other command resolve it here, by the same rule.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config.ts";

export function serverSecret(config: Pick<Config, "secret" | "dataDir" | "databaseUrl">): string {
  if (config.secret) {
    if (config.secret.length < 16) throw new Error("VIGIA_SECRET must be at least 16 characters");
    return config.secret;
  }
  if (config.databaseUrl) throw new Error("VIGIA_SECRET is required when DATABASE_URL is set");
  if (config.dataDir === "memory://") throw new Error("VIGIA_SECRET is required with an in-memory database");
  const file = path.join(config.dataDir, "secret");
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return fs.readFileSync(file, "utf8").trim();
}
