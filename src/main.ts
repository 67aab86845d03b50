// The `vigia` command line (README.md, "Commands" and "Configuration").
// Each command exits non-zero with a one-line error on bad input.
import { Command, InvalidArgumentError, Option } from "commander";
import { applyCommandHelp } from "./cli-help.ts";
import { demoAddressLines } from "./devnet/addresses.ts";
import { registerDevnetCommand } from "./devnet/cli.ts";
import { shouldRunDevnet } from "./devnet/when.ts";
import { registerOperationsImportCommand } from "./exchange-operations/index.ts";
import {
  registerImportBtcEtlCommand,
  registerImportEtlCommand,
  registerListsCommand,
  registerRateCommands,
  registerSanctionsCommand,
  registerTagsCommand,
  registerUmaCommand,
} from "./ingest/index.ts";
import { registerWebhooksCommand, type SigningScheme, setSigningScheme } from "./integrator/index.ts";
import { createKey, createProject } from "./keys/index.ts";
import { OperationRefused, registerDumpCommands, registerSecretCommands } from "./operations/index.ts";
import { loadConfig } from "./platform/config.ts";
import { deriveKeys } from "./platform/crypto/secrets.ts";
import { previousSecrets, serverSecret } from "./platform/crypto/server-secret.ts";
import { explainConnectionLost, isConnectionLost } from "./platform/db/connection-lost.ts";
import { migrate } from "./platform/db/migrate.ts";
import { openDatabase } from "./platform/db/open.ts";
import { isRole, ROLES, type Role } from "./platform/http/auth.ts";
import { projectExists, registerAuditCommand, upgradedToAuditHeads, useAuditKeys } from "./projects/index.ts";
import type { DB } from "./schema.ts";
import { registerUsersCommand } from "./users/index.ts";

class UsageError extends Error {}

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a positive integer");
  return n;
};

/** Opens the database for a short command: directly, or through a running `vigia serve` on the same data dir. */
async function withDatabase<T>(
  fn: (ctx: Awaited<ReturnType<typeof openForCommand>>) => Promise<T>,
): Promise<T> {
  let ctx: Awaited<ReturnType<typeof openForCommand>> | undefined;
  // A service or database that goes away mid-command is said in one line, with what to do (connection-lost.ts).
  const explain = (error: unknown) => {
    const { databaseUrl, dataDir } = ctx?.config ?? loadConfig();
    return explainConnectionLost(error, { kind: ctx?.database.kind, databaseUrl, dataDir });
  };
  try {
    ctx = await openForCommand();
    return await fn(ctx);
  } catch (error) {
    throw isConnectionLost(error) ? explain(error) : error;
  } finally {
    // Closing a pool whose server is gone can fail too: that must not hide why the command failed.
    await ctx?.database.close().catch((error: unknown) => {
      if (!isConnectionLost(error)) throw error;
    });
  }
}

async function openForCommand() {
  const config = loadConfig();
  const database = await openDatabase<DB>({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrate(database);
  const serverKeys = deriveKeys(serverSecret(config), previousSecrets(config));
  // Every audit entry a command writes moves its chain's signed head (src/projects/audit-head.ts).
  useAuditKeys(serverKeys);
  if (upgradedToAuditHeads(applied)) {
    // The service (HTTP, workers and every room they wire) loads only for the commands that use it.
    const { upgradeAuditLog } = await import("./service.ts");
    await upgradeAuditLog(database.db);
  }
  return { config, database, keys: { db: database.db, serverKeys } };
}

function printJson(value: unknown) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function serve(opts: { workers: boolean }) {
  const config = loadConfig();
  // A fresh embedded setup gets the demo devnet, indexed by this process (src/devnet/when.ts).
  const devnet = shouldRunDevnet(config, opts.workers);
  const { startService } = await import("./service.ts");
  const service = await startService(config, { http: true, workers: opts.workers, devnet });
  const url = await service.listen();
  const lines = [
    `Vigía API listening on ${url}/v1`,
    `Docs: ${url}/v1/docs  (OpenAPI: ${url}/v1/openapi.json)`,
  ];
  if (service.demo) {
    lines.push(
      `Created the demo project ${service.demo.projectId}. Its admin API key (shown once):`,
      `  ${service.demo.key}`,
      `Try: curl -H 'x-api-key: ApiKey ${service.demo.key}' ${url}/v1/chains`,
      "To follow docs/quickstart.md, paste in another terminal:",
      `  export API=${url}/v1 KEY=${service.demo.key} PROJECT=${service.demo.projectId}`,
    );
  }
  lines.push(
    service.database.kind === "postgres"
      ? "Database: PostgreSQL"
      : `Database: embedded (PGlite) in ${config.dataDir}`,
    // Which chains ask which explorer about the addresses analysed (docs/decisions/0025).
    service.history.describeSources(service.registry.enabled()),
  );
  if (service.devnet) {
    lines.push(
      `Devnet: chain 31337 at ${service.devnet.rpcUrl}${service.devnet.sharedFrom ? ` (run by process ${service.devnet.sharedFrom})` : ""}, demo scenario indexed into the store (no VIGIA_CHAINS set)`,
      "Addresses of the demo scenario to analyse (chain 31337; README.md lists them too):",
      ...demoAddressLines(service.devnet.addresses),
    );
    const tron = service.devnet.tron;
    if (tron)
      lines.push(
        `Tron devnet: chain ${tron.chainId} at ${tron.rpcUrl}${tron.sharedFrom ? ` (run by process ${tron.sharedFrom})` : ""}, a Tron-kind chain: its addresses in base58`,
        `Addresses of the Tron demo scenario to analyse (chain ${tron.chainId}; README.md lists them too):`,
        ...demoAddressLines(tron.addresses),
      );
    const bitcoin = service.devnet.bitcoin;
    if (bitcoin)
      lines.push(
        `Bitcoin devnet: chain ${bitcoin.chainId}, no node: a seeded demo world imported into the store (regtest addresses, bcrt1…)`,
        `Addresses of the Bitcoin demo scenario to analyse (chain ${bitcoin.chainId}; README.md lists them too):`,
        ...demoAddressLines(bitcoin.addresses),
      );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  service.devnet?.bitcoin?.ready.then((ready) => {
    if (ready)
      process.stdout.write(
        `Bitcoin devnet ready: ${ready.transactions} transactions in the store, ${ready.coinjoins} CoinJoin read as a mix\n`,
      );
  });
  service.devnet?.tron?.ready.then((ready) => {
    if (ready) process.stdout.write(`Tron devnet ready: ${ready.transfers} USDT transfers on the chain\n`);
  });
  service.devnet?.ready.then((ready) => {
    if (ready) {
      process.stdout.write(
        `Devnet ready: ${ready.transfers} transfers on the chain, ${ready.data.labels.labels} labels and ${ready.data.prices.rows} daily prices in the store\n`,
      );
    }
  });
  service.demoInvestigation?.then((demo) => {
    if (demo) {
      process.stdout.write(
        `Viewer: the demo investigation of the mixing case, layer by layer (sign in with an API key of project ${demo.projectId}):\n  ${url}/app/investigations/${demo.investigationId}?project=${demo.projectId}\n`,
      );
    }
  });
  stopOnSignals(() => service.close());
}

async function worker() {
  const config = loadConfig();
  // With VIGIA_METRICS_PORT the worker serves /healthz, /readyz and /metrics there (docs/operations.md).
  const probes = config.metricsPort !== undefined;
  const { startService } = await import("./service.ts");
  const service = await startService(config, { http: probes ? "probes" : false, workers: true });
  const url = probes ? await service.listen(config.metricsPort) : undefined;
  process.stdout.write(
    `Vigía worker running on ${service.database.kind === "postgres" ? "PostgreSQL" : config.dataDir}${url ? `; probes and metrics at ${url}` : ""}\n${service.history.describeSources(service.registry.enabled())}\n`,
  );
  stopOnSignals(() => service.close());
}

function stopOnSignals(close: () => Promise<void>) {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    process.stderr.write(`${signal}: finishing in-flight work, then stopping\n`);
    close().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`error while stopping: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

export function buildProgram(): Command {
  const program = new Command("vigia")
    .description("Vigía: compliance and risk analysis API")
    .configureOutput({
      outputError: (str, write) => write(str.split("\n")[0] ? `${str.split("\n")[0]}\n` : str),
    });

  program
    .command("serve")
    .description("API and background workers in one process")
    .option("--no-workers", "API only, for scaling out")
    .action(serve);
  program.command("worker").description("background workers only").action(worker);
  program
    .command("migrate")
    .description("apply database migrations")
    .action(() =>
      withDatabase(async ({ database }) => {
        const applied = await migrate(database);
        printJson({ applied });
      }),
    );

  const projects = program.command("projects").description("manage projects");
  projects
    .command("create")
    .description("create a project and its first admin key")
    .requiredOption("--name <name>", "project name")
    .addOption(
      new Option(
        "--signing-scheme <scheme>",
        "how calls to the integrator are signed (hmac-canonical: as the original service signs them); prints the webhook secret",
      ).choices(["standard-webhooks", "hmac-canonical"]),
    )
    .action((opts: { name: string; signingScheme?: SigningScheme }) =>
      withDatabase(async ({ keys }) => {
        if (!opts.name.trim()) throw new UsageError("--name must not be empty");
        const scheme = opts.signingScheme;
        const created = await createProject(
          keys,
          { name: opts.name.trim() },
          { kind: "cli" },
          scheme === undefined
            ? undefined
            : (trx, projectId) => setSigningScheme(trx, keys.serverKeys, projectId, scheme),
        );
        printJson({
          projectId: created.projectId,
          key: created.key,
          ...(scheme === undefined ? {} : { signing_scheme: scheme, webhook_secret: created.setup }),
        });
      }),
    );

  const keys = program.command("keys").description("manage API keys");
  keys
    .command("create")
    .description("create an API key in a project")
    .requiredOption("--project <id>", "project id", positiveInt)
    .requiredOption("--label <label>", "label of the key")
    .addOption(
      new Option("--role <role>", "role of the key").choices([...ROLES].reverse()).default("developer"),
    )
    .action((opts: { project: number; label: string; role: string }) =>
      withDatabase(async ({ keys: ctx }) => {
        if (!isRole(opts.role)) throw new UsageError(`unknown role ${opts.role}`);
        if (!(await projectExists(ctx.db, opts.project)))
          throw new UsageError(`project ${opts.project} not found`);
        const created = await createKey(
          ctx,
          opts.project,
          { label: opts.label, role: opts.role as Role },
          { kind: "cli" },
        );
        printJson({ id: created.id, key: created.key });
      }),
    );
  registerImportEtlCommand(program, withDatabase);
  registerImportBtcEtlCommand(program, withDatabase);
  registerTagsCommand(program, withDatabase);
  registerRateCommands(program, withDatabase);
  registerUmaCommand(program, withDatabase);
  registerOperationsImportCommand(program, withDatabase);
  registerSanctionsCommand(program, withDatabase);
  registerListsCommand(program, withDatabase);
  registerDevnetCommand(program, withDatabase, () => loadConfig());
  registerSecretCommands(program, withDatabase);
  registerAuditCommand(program, withDatabase);
  registerUsersCommand(program, withDatabase);
  registerWebhooksCommand(program);
  registerDumpCommands(program, withDatabase, () => loadConfig());
  applyCommandHelp(program);
  return program;
}

export async function main(argv = process.argv): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    process.stderr.write(`vigia: ${(error as Error).message.split("\n")[0]}\n`);
    process.exit(error instanceof UsageError || error instanceof OperationRefused ? 2 : 1);
  }
}
