// The command line's help (src/cli-help.ts): `vigia --help` lists every command, one line each, by its full name;
// every command's `--help` ends with an example (read in this process from the program `vigia` builds, one of them
// also from the command itself: each start of the command loads the whole service, seconds on a busy machine); and
// the examples that change nothing lasting run as written, in this checkout, on a fresh embedded data dir.
// Why it is slow: each example runs as its own `vigia` process (loading the whole service, migrating a fresh
// embedded database), one after the other, as a newcomer would type them; about a minute on a busy 2-core machine.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { applyCommandHelp, COMMAND_HELP, commandPath, runnableCommands } from "../../src/cli-help.ts";
import { buildProgram } from "../../src/main.ts";
import { newcomerEnv } from "./vigia-process.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin", "vigia.js");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-help-"));
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync("/tmp/vigia-copy", { recursive: true, force: true });
  fs.rmSync("/tmp/vigia-store.json.gz", { force: true });
  fs.rmSync("/tmp/vigia-audit-head.json", { force: true });
});

const help = (args: string[]) =>
  execFileSync(process.execPath, [BIN, ...args, "--help"], {
    cwd: ROOT,
    encoding: "utf8",
    env: newcomerEnv({}),
  });

describe("vigia --help", () => {
  const program = buildProgram();
  const commands = runnableCommands(program).map(commandPath);

  it("lists every command by its full name, one line each", () => {
    const text = help([]);
    const listed = text
      .split("Commands:\n")[1]
      ?.split("\n")
      .filter((line) => line.trim() !== "") as string[];
    expect(listed.every((line) => /^ {2}\S/.test(line))).toBe(true); // no line wrapped onto the next
    // Each line names the longest command it starts with ("devnet send" before "devnet").
    const longestFirst = [...commands].sort((a, b) => b.length - a.length);
    const named = listed.map((line) => longestFirst.find((name) => line.startsWith(`  ${name} `)));
    for (const name of commands) expect(named.filter((n) => n === name).length, name).toBe(1);
    expect(commands).toEqual(
      expect.arrayContaining(["import etl", "devnet send", "webhooks listen", "import-db"]),
    );
  });

  it("has a summary and an example for every command, and no entry for a command that does not exist", () => {
    expect(commands.sort()).toEqual(Object.keys(COMMAND_HELP).sort());
    const extra = new Command("x");
    extra.command("orphan").action(() => {});
    expect(() => applyCommandHelp(extra)).toThrow(/"orphan" has no summary and example/);
  });

  /** What `vigia <name> --help` prints, from the program in this process. */
  const helpOf = (name: string) => {
    const command = runnableCommands(program).find((c) => commandPath(c) === name);
    if (!command) throw new Error(`no command ${name}`);
    let text = "";
    command.configureOutput({ writeOut: (s) => (text += s) });
    command.outputHelp();
    return text;
  };

  it.each(Object.entries(COMMAND_HELP))("`vigia %s --help` ends with its example", (name, entry) => {
    expect(helpOf(name).trimEnd().endsWith(`Example:\n  ${entry.example}`)).toBe(true);
    expect(entry.example).toMatch(/^(\w+=\S+ )*vigia /);
  });

  it("a command's --help prints what the program holds", () => {
    expect(help(["users", "create"])).toBe(helpOf("users create"));
  });
});

/** The examples that change nothing outside this test's data dir and /tmp, in an order where each can run. */
const RUNNABLE = [
  "migrate",
  "projects create",
  "keys create",
  "users create",
  "users list",
  "audit head",
  "audit verify",
  "import etl",
  "import btc-etl",
  "import tags",
  "import prices",
  "import fx",
  "import operations",
  "sanctions update",
  "lists import",
  "secret reseal",
  "export",
  "import-db",
];

describe("the examples", () => {
  it("run as written on a fresh embedded data dir", () => {
    fs.rmSync("/tmp/vigia-copy", { recursive: true, force: true });
    fs.rmSync("/tmp/vigia-store.json.gz", { force: true });
    for (const name of RUNNABLE) {
      const example = (COMMAND_HELP[name]?.example ?? "").replace(/\s+#.*$/, "");
      const line = example.replace(/^((?:\w+=\S+ )*)vigia /, `$1node ${BIN} `);
      const run = spawnSync("bash", ["-c", line], {
        cwd: ROOT,
        env: newcomerEnv({ VIGIA_DATA_DIR: dataDir, VIGIA_LOG_LEVEL: "silent", SECRET: "unused" }),
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(run.status, `${example}\n${run.stderr}`).toBe(0);
    }
  }, 600_000);
});
