// The real `vigia` commands (child processes on an embedded database in a temporary data dir): a JSON summary on
// stdout and nothing on stderr when it works; exit 1 and exactly one line on stderr on bad input.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newcomerEnv, spawnVigia } from "../process/vigia-process.ts";
import { fixture } from "../support/fixtures.ts";

const LABELS = `${fixture("labels")}/`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-labels-cli-"));
const env = newcomerEnv({ VIGIA_DATA_DIR: path.join(dir, "data") });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]) {
  const child = spawnVigia(args, env);
  const { code } = await child.waitForExit(120_000);
  return { code, stdout: child.stdout, stderr: child.stderr };
}

describe("vigia import / sanctions commands", () => {
  it("imports a label file and prints one JSON line", async () => {
    const file = `${LABELS}tornado_cash_contracts.csv`;
    const { code, stdout, stderr } = await run(["import", "tags", file]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout.endsWith("\n") && stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(stdout)).toMatchObject({ import: "tags", file, rows: 54, labels: 54, inserted: 54 });
  }, 180_000);

  it("fails on bad input with exit 1 and one line on stderr", async () => {
    const file = path.join(dir, "prices.csv");
    fs.writeFileSync(file, "chain_id,token,date,price_usd\n1,native,2024-01-01,1\n1,native,2024-13-01,1\n");
    const { code, stdout, stderr } = await run(["import", "prices", file]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(`vigia: ${file}:3: date "2024-13-01" is not a YYYY-MM-DD date\n`);
  }, 180_000);

  it("documents OFAC's SDN list URL in the help of sanctions update", async () => {
    const { code, stdout } = await run(["sanctions", "update", "--help"]);
    expect(code).toBe(0);
    // The Sanctions List Service's own address: the older treasury.gov one redirects there, to another host.
    expect(stdout).toContain(
      "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.XML",
    );
  }, 60_000);
});
