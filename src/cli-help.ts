// The help of the `vigia` command: every command's one-line summary (what `vigia --help` lists, one line each, every
// command at every level) and an example that works on the devnet of `npm start` (run from the checkout, beside the
// running service), shown at the end of the command's own `--help`. test/process/cli-help.test.ts runs the examples
// that change nothing lasting, and fails when a command has no entry here.
import { type Command, Help } from "commander";

interface CommandHelp {
  summary: string;
  example: string;
}

export const COMMAND_HELP: Record<string, CommandHelp> = {
  serve: {
    summary: "the API and the background workers in one process (`npm start`)",
    example: "vigia serve                 # http://127.0.0.1:8080/v1, the devnet and its demo project",
  },
  worker: {
    summary: "background workers only (jobs, chain followers, webhooks, reports), to scale out",
    example:
      "VIGIA_DATA_DIR=./data-2 vigia worker   # on PostgreSQL: beside any number of `serve --no-workers`",
  },
  migrate: {
    summary: "apply the database migrations (serve and worker also do at start)",
    example: "vigia migrate",
  },
  "projects create": {
    summary: "create a project and its first admin key",
    example: 'vigia projects create --name "Acme exchange"',
  },
  "keys create": {
    summary: "create an API key in a project (admin, developer or viewer)",
    example: "vigia keys create --project 1 --label dashboard --role viewer",
  },
  "import etl": {
    summary: "import an ethereum-etl CSV export (transfers, blocks, tokens, contracts)",
    example: "vigia import etl --chain 1 test/fixtures/ethereum-etl",
  },
  "import btc-etl": {
    summary: "import a bitcoin-etl JSON export (blocks, transactions) into a Bitcoin chain",
    example: "vigia import btc-etl --chain 177005167 test/fixtures/bitcoin-etl",
  },
  "import tags": {
    summary: "import address labels from a GraphSense TagPack or a CSV file",
    example: "vigia import tags test/fixtures/graphsense-tagpacks/tornado_cash.yaml",
  },
  "import prices": {
    summary: "import daily USD prices (CSV chain_id,token,date,price_usd)",
    example: "vigia import prices examples/prices.csv",
  },
  "import fx": {
    summary: "import daily exchange rates (CSV date,currency,per_usd)",
    example: "vigia import fx examples/fx.csv",
  },
  "import operations": {
    summary:
      "import the exchange's own operations (buys, sells, swaps, SPEI and Pix, crypto in and out, fees, custody)",
    example: "vigia import operations examples/operations.jsonl --project 1",
  },
  "import uma": {
    summary: "import a year's UMA (Mexico) as INEGI published it in the DOF",
    example:
      "vigia import uma --year 2026 --daily 117.31 --monthly 3566.22 --annual 42794.64 --dof 2026-01-09",
  },
  "sanctions update": {
    summary: "replace the sanctioned addresses with OFAC's SDN list (downloaded, or a local SDN.XML)",
    example: "vigia sanctions update examples/sdn-sample.xml   # without a file: downloads OFAC's list",
  },
  "lists import": {
    summary:
      "import a list of persons clients are screened against (OFAC SDN, UN, SAT 69-B, UIF LPB, OpenSanctions)",
    example: "vigia lists import un examples/un-sample.xml   # docs/person-lists.md: each KIND's format",
  },
  "lists refresh": {
    summary: "download a list of persons from its official URL and import it",
    example: "vigia lists refresh un   # the UN Security Council's consolidated list",
  },
  devnet: {
    summary: "run the local demo chain (anvil, chain 31337) alone and print the addresses to try",
    example: "vigia devnet --no-state",
  },
  "devnet send": {
    summary: "send ETH on the running devnet now, to see monitoring notify a transfer",
    example: "vigia devnet send 0x6cc3d4488af9c412517f8d012386df0e520c5075 0.1",
  },
  "webhooks listen": {
    summary: "receive the service's webhooks on this machine, check their signatures, print them",
    example: 'vigia webhooks listen --port 9000 --secret "$SECRET"   # the project\'s webhook_secret',
  },
  "secret reseal": {
    summary: "re-seal every stored secret with the current server secret (after a rotation)",
    example: "vigia secret reseal",
  },
  "secret rotate": {
    summary:
      "embedded database: replace the generated server secret, keep the old one, re-seal (service stopped)",
    example: "vigia secret rotate          # with `npm start` stopped",
  },
  "users create": {
    summary:
      "create a person's account (officer by default): a one-time link to set the password, or one given or generated",
    example: 'vigia users create --project 1 --email ana@example.mx --name "Ana Pérez" --role officer',
  },
  "users list": {
    summary: "list a project's people: id, e-mail, name, role, disabled",
    example: "vigia users list --project 1",
  },
  "users disable": {
    summary: "disable a person's account; their sessions end at once",
    example: "vigia users disable --project 1 --user 2",
  },
  "users set-role": {
    summary: "change a person's role (viewer, developer, officer, admin); their sessions end at once",
    example: "vigia users set-role --project 1 --user 2 --role viewer",
  },
  "users link": {
    summary: "print a new one-time link (72 h) that sets a person's password",
    example: "vigia users link --project 1 --user 2",
  },
  "audit verify": {
    summary: "check the audit log's hash chains and signed heads; exit 1 naming the first problem",
    example: "vigia audit verify --head /tmp/vigia-audit-head.json",
  },
  "audit head": {
    summary: "print every audit chain's signed head (JSON), for an outside witness to keep",
    example: "vigia audit head > /tmp/vigia-audit-head.json",
  },
  export: {
    summary: "write the whole store (data, report files, secret) to one file",
    example: "vigia export /tmp/vigia-store.json.gz",
  },
  "import-db": {
    summary: "load an export into an empty store (PostgreSQL with DATABASE_URL, else the data dir)",
    example: "VIGIA_DATA_DIR=/tmp/vigia-copy vigia import-db /tmp/vigia-store.json.gz",
  },
};

/** The command's name from below the program: "import etl", "devnet send". */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** Every command that runs something (has an action of its own), at every level, in the program's order. */
export function runnableCommands(program: Command): Command[] {
  const out: Command[] = [];
  const walk = (command: Command) => {
    for (const sub of command.commands) {
      if (sub.name() === "help") continue;
      // commander keeps a command's action handler private; a command with no subcommands always has one.
      const hasAction =
        sub.commands.length === 0 || (sub as unknown as { _actionHandler?: unknown })._actionHandler;
      if (hasAction) out.push(sub);
      walk(sub);
    }
  };
  walk(program);
  return out;
}

/**
 * Gives every runnable command its summary and example, and makes `vigia --help` list them all, by their full
 * names. Throws when one has no entry in COMMAND_HELP (a test runs this).
 */
export function applyCommandHelp(program: Command): void {
  const runnable = runnableCommands(program);
  for (const command of runnable) {
    const path = commandPath(command);
    const help = COMMAND_HELP[path];
    if (!help) throw new Error(`the command "${path}" has no summary and example in src/cli-help.ts`);
    command.summary(help.summary);
    command.addHelpText("after", `\nExample:\n  ${help.example}\n`);
  }
  // A group (`import`, `secret`, ...) ends with the example of its first command.
  const groups: Command[] = [];
  const collect = (command: Command) => {
    for (const sub of command.commands) {
      if (sub.commands.length > 0 && !runnable.includes(sub)) groups.push(sub);
      collect(sub);
    }
  };
  collect(program);
  for (const group of groups) {
    const first = runnable.find((c) => c.parent === group);
    const help = first ? COMMAND_HELP[commandPath(first)] : undefined;
    if (help) group.addHelpText("after", `\nExample:\n  ${help.example}\n`);
  }
  program.configureHelp({
    visibleCommands: (command) => (command === program ? runnable : new Help().visibleCommands(command)),
    subcommandTerm: (command) => {
      const usage = command.usage().replace(/^\[options\] ?/, "");
      return `${commandPath(command)}${usage ? ` ${usage}` : ""}`;
    },
    helpWidth: 160,
  });
}
