// The anvil node is started with a minimal environment: the service's settings and secrets stay in the service.
import fs from "node:fs";
import { afterAll, expect, it } from "vitest";
import { type AnvilProcess, startAnvil } from "../../src/devnet/anvil.ts";

let node: AnvilProcess | undefined;
afterAll(async () => {
  await node?.stop();
});

it("does not pass VIGIA_SECRET, DATABASE_URL or any other VIGIA_ setting to the node", async () => {
  const saved = { secret: process.env.VIGIA_SECRET, url: process.env.DATABASE_URL };
  process.env.VIGIA_SECRET = "must-not-leak-0123456789abcdefghijklmnopqrstuvwxyz";
  process.env.DATABASE_URL = "postgres://secret@127.0.0.1/leak";
  try {
    node = await startAnvil({ chainId: 31337, genesisTime: 1_704_067_200, port: 18645 });
  } finally {
    if (saved.secret === undefined) delete process.env.VIGIA_SECRET;
    else process.env.VIGIA_SECRET = saved.secret;
    if (saved.url === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved.url;
  }
  const environ = fs.readFileSync(`/proc/${node.pid}/environ`, "utf8").split("\0");
  expect(environ.some((e) => e.startsWith("PATH="))).toBe(true);
  expect(environ.filter((e) => e.startsWith("VIGIA_") || e.startsWith("DATABASE_URL="))).toEqual([]);
});
