// docs/quickstart.md, run as a newcomer would: `vigia serve` (what `npm start` runs) on a fresh embedded data dir with
// the devnet and section 1's VIGIA_ALLOW_PRIVATE_OUTBOUND=true, the `export` line it prints, then every
// `<!-- step: ... -->` command block of the document, as written, in one bash session (a `(background)` step in its
// own process, as in a third terminal), each answer checked. The receiver's port is the one thing changed (a free
// one instead of 9000). A change that breaks the tour fails here.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoAddresses } from "../../src/devnet/addresses.ts";
import { freePort } from "../indexer/support/anvil.ts";
import { newcomerEnv, runVigia, spawnVigia, type VigiaProcess } from "./vigia-process.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOC = path.join(ROOT, "docs", "quickstart.md");

interface Step {
  name: string;
  background: boolean;
  script: string;
}

/** The document's steps: a `<!-- step: name -->` comment, then its ```sh block. */
function quickstartSteps(markdown: string): Step[] {
  const steps: Step[] = [];
  for (const match of markdown.matchAll(/<!-- step: ([\w-]+)( \(background\))? -->\n```sh\n([\s\S]*?)```/g)) {
    steps.push({ name: match[1] as string, background: Boolean(match[2]), script: match[3] as string });
  }
  return steps;
}

/** One bash session: runs a script, gives back what it printed and its exit status. */
function bashSession(env: NodeJS.ProcessEnv) {
  const bash = spawn("bash", ["--norc", "--noprofile"], { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  bash.stderr.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
  });
  const lines = readline.createInterface({ input: bash.stdout });
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  lines.on("line", (line) => {
    queue.push(line);
    wake?.();
  });
  let n = 0;
  return {
    bash,
    get stderr() {
      return stderr;
    },
    async run(script: string, timeoutMs = 180_000): Promise<{ output: string; status: number }> {
      const marker = `__quickstart_step_${++n}__`;
      // A command's output need not end with a newline (curl's JSON does not): the marker starts a line of its own.
      bash.stdin.write(`${script}\n__status=$?; printf '\\n%s %s\\n' "${marker}" "$__status"\n`);
      const out: string[] = [];
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = queue.shift();
        if (line === undefined) {
          if (Date.now() > deadline)
            throw new Error(`step ${n} did not finish in ${timeoutMs} ms:\n${out.join("\n")}\n${stderr}`);
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, 200);
          });
          continue;
        }
        if (line.startsWith(marker))
          return { output: out.join("\n").trim(), status: Number(line.slice(marker.length + 1)) };
        out.push(line);
      }
    },
  };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-quickstart-"));
let serve: VigiaProcess;
let session: ReturnType<typeof bashSession>;
let receiver: ChildProcess | undefined;
const received: Record<string, unknown>[] = [];
let api = "";

beforeAll(async () => {
  // Section 1's command starts it with VIGIA_ALLOW_PRIVATE_OUTBOUND=true, for the receiver on this machine.
  const [, allowance] =
    / (VIGIA_ALLOW_PRIVATE_OUTBOUND=true) npm start$/m.exec(fs.readFileSync(DOC, "utf8")) ?? [];
  expect(allowance, "section 1 starts the service with VIGIA_ALLOW_PRIVATE_OUTBOUND=true").toBeDefined();
  serve = spawnVigia(
    ["serve"],
    newcomerEnv({
      VIGIA_DATA_DIR: dataDir,
      PORT: "0",
      VIGIA_LOG_LEVEL: "warn",
      VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
    }),
  );
  const [, exported] = (await serve.waitForStdout(
    /^ {2}(export API=\S+ KEY=\S+ PROJECT=\d+)$/m,
    120_000,
  )) as RegExpMatchArray;
  api = /API=(\S+)/.exec(exported as string)?.[1] as string;
  // The scenario is indexed once the demo investigation is made: its link is printed then.
  await serve.waitForStdout(/^Viewer: /m, 300_000);
  // The data dir is the checkout's ./data for a newcomer; here the test's own, for the commands that read it.
  session = bashSession(newcomerEnv({ VIGIA_DATA_DIR: dataDir }));
  const ready = await session.run(exported as string);
  expect(ready.status).toBe(0);
}, 420_000);

afterAll(async () => {
  try {
    if (receiver?.pid) process.kill(-receiver.pid, "SIGTERM");
  } catch {} // the group has ended already
  session?.bash.kill("SIGKILL");
  serve?.child.kill("SIGTERM");
  await serve?.exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const json = (text: string) => JSON.parse(text.trim().split("\n").at(-1) as string);

describe("docs/quickstart.md", () => {
  const steps = quickstartSteps(fs.readFileSync(DOC, "utf8"));

  it("`npm start` printed the scenario's addresses and the demo investigation's viewer link", () => {
    for (const { pattern, address } of demoAddresses())
      expect(serve.stdout).toMatch(new RegExp(`^ {4}${pattern} +${address} `, "m"));
    expect(serve.stdout).toMatch(
      /^ {2}http:\/\/127\.0\.0\.1:\d+\/app\/investigations\/[0-9a-f-]{36}\?project=1$/m,
    );
  });

  it("`vigia devnet send` says what is wrong instead of sending", async () => {
    const none = await runVigia(
      ["devnet", "send", "0x00000000000000000000000000000000000a11ce", "0.1"],
      newcomerEnv({ VIGIA_DATA_DIR: os.tmpdir() }),
    );
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no devnet runs on the data dir/);
    const bad = await runVigia(["devnet", "send", "0x1234", "0.1"], newcomerEnv({ VIGIA_DATA_DIR: dataDir }));
    expect(bad.stderr).toMatch(/"0x1234" is not an EVM address/);
    const amount = await runVigia(
      ["devnet", "send", "0x00000000000000000000000000000000000a11ce", "lots"],
      newcomerEnv({ VIGIA_DATA_DIR: dataDir }),
    );
    expect(amount.stderr).toMatch(/"lots" is not an amount of ETH/);
  }, 60_000);

  it("has the steps of the whole tour", () => {
    expect(steps.map((s) => s.name)).toEqual([
      "quick",
      "scan",
      "risk-job",
      "investigation",
      "progress",
      "secret",
      "receiver",
      "configure",
      "send",
      "notifications",
      "report",
      "calendar",
      "wallet-report",
    ]);
  });

  it("runs every command as written, and each answers as the document says", async () => {
    const port = String(await freePort());
    const step = async (name: string) => {
      const found = steps.find((s) => s.name === name) as Step;
      const result = await session.run(found.script.replaceAll("9000", port));
      expect(result.status, `${name}:\n${result.output}\n${session.stderr}`).toBe(0);
      return result.output;
    };

    const quick = json(await step("quick")).data;
    expect(quick.risk).toBeGreaterThanOrEqual(75);
    expect(quick.patterns.map((p: { name: string }) => p.name)).toContain("mixing");

    const scan = json(await step("scan")).data.results as { status: string; riskScore: number }[];
    expect(scan.map((r) => r.status)).toEqual(["completed", "completed", "completed"]);
    const [one, two, three] = scan.map((r) => r.riskScore) as [number, number, number];
    expect(one).toBeGreaterThan(two);
    expect(two).toBeGreaterThan(three);

    const job = json(await step("risk-job")).data;
    expect(job).toMatchObject({ status: "completed" });
    expect(job.result.riskScore).toBeGreaterThan(0);

    const open = await step("investigation");
    const link = /^Open (http:\/\/\S+\/app\/investigations\/[0-9a-f-]{36}\?project=\d+)$/.exec(
      open.trim(),
    )?.[1];
    expect(link, open).toBeDefined();
    const page = await fetch(link as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);

    expect(json(await step("progress")).data).toMatchObject({ status: "completed", completedLayers: 4 });

    await step("secret");
    const secretStep = steps.find((s) => s.name === "receiver") as Step;
    const secret = (await session.run('printf "%s\\n" "$SECRET"')).output.trim();
    expect(secret).toMatch(/^whsec_/);
    // Its own process group (npx starts node under it): the group is stopped at the end.
    receiver = spawn("bash", ["-c", secretStep.script.replaceAll("9000", port)], {
      cwd: ROOT,
      env: newcomerEnv({ SECRET: secret }),
      stdio: ["ignore", "pipe", "inherit"],
      detached: true,
    });
    readline.createInterface({ input: receiver.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      try {
        received.push(JSON.parse(line));
      } catch {}
    });
    const until = async (what: string, found: () => boolean, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (!found()) {
        if (Date.now() > deadline) throw new Error(`no ${what}: ${JSON.stringify(received)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    await until("receiver", () => received.some((r) => r.listening), 60_000);

    const registered = json(await step("configure"));
    expect(registered).toMatchObject({ success: true });

    const sent = json(await step("send"));
    expect(sent.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    await until("signed notification", () => received.some((r) => r.received === "webhook"), 120_000);
    const webhook = received.find((r) => r.received === "webhook") as Record<string, unknown>;
    expect(webhook).toMatchObject({ verified: true, type: "notification", txHash: sent.txHash });
    expect(webhook.laws).toContain("CO-TX-150");
    expect(received.some((r) => r.received === "profile request" && r.user === "ana")).toBe(true);

    const notifications = json(await step("notifications")).data as { tx_hash: string; status: string }[];
    expect(notifications.find((n) => n.tx_hash === sent.txHash)).toMatchObject({ status: "delivered" });

    const report = await step("report");
    expect(report).toMatch(/"success":true/);
    expect(report).toMatch(/<\?xml[\s\S]*<\/archivo>/);

    // The coming weeks: this month's filings (the project's first month), pending, soonest first; none of last month,
    // before the project existed.
    const calendar = json(await step("calendar")).data as {
      filing: string;
      period: string;
      state: string;
      deadline: string;
    }[];
    // This month as each jurisdiction counts it, in its own zone.
    const monthIn = (timeZone: string) =>
      new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit" }).format(new Date());
    const thisMonth = (filing: string) =>
      monthIn(filing.startsWith("MX") ? "America/Mexico_City" : "America/Bogota");
    const mine = calendar.filter((f) => f.period === thisMonth(f.filing));
    expect(mine.map((f) => f.filing).sort()).toEqual(["CO-ROS-ABSENCE", "CO-TRANSACTIONS", "MX-AVI-MONTHLY"]);
    for (const f of mine) expect(f.state).toBe("pending");
    expect(calendar.every((f) => f.period >= thisMonth(f.filing))).toBe(true);
    expect(calendar.map((f) => f.deadline)).toEqual([...calendar.map((f) => f.deadline)].sort());

    const walletReport = await step("wallet-report");
    expect(walletReport).toMatch(/^# /m);
    expect(walletReport).toContain("0x4fd6e8c07de81cdd7777d8c5faa9f0cde184ac86");
    expect(api).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  }, 600_000);
});
