// `vigia users create|list|disable|set-role|link` (docs/operations.md, "People and sign-in"): the first account of a
// project is made here (then an administrator makes the others from the users page or the API). A password is read
// from standard input (`--password-stdin`) or generated and printed once (`--generate-password`); with neither, the
// command prints a one-time link that lets the person choose it.
import crypto from "node:crypto";
import type { Command } from "commander";
import type { Kysely } from "kysely";
import type { Config } from "../platform/config.ts";
import type { ServerKeys } from "../platform/crypto/secrets.ts";
import { isRole, ROLES, type Role } from "../platform/http/auth.ts";
import type { DB } from "../schema.ts";
import { createUser, newPasswordLink, updateUser } from "./accounts.ts";
import { usersContextOf } from "./context.ts";
import { findUser, listUsers } from "./read.ts";

type WithDb = <T>(
  fn: (ctx: { config: Config; database: { db: Kysely<DB> }; keys: { serverKeys: ServerKeys } }) => Promise<T>,
) => Promise<T>;

const CLI = { kind: "cli" } as const;

const contextOf = (config: Config, db: Kysely<DB>, serverKeys: ServerKeys) =>
  usersContextOf(config, db, serverKeys);

const int = (name: string) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new Error(`${name} must be a positive integer`);
  return n;
};

const role = (value: string): Role => {
  if (!isRole(value)) throw new Error(`--role must be one of ${ROLES.join(", ")}`);
  return value;
};

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

/** 20 random bytes as base64url: 27 characters, well past the minimum, never a common password. */
const generatedPassword = () => crypto.randomBytes(20).toString("base64url");

export function registerUsersCommand(program: Command, withDatabase: WithDb): void {
  const users = program.command("users").description("people who sign in to a project");
  users
    .command("create")
    .description("create a person's account in a project")
    .requiredOption("--project <id>", "project id", int("--project"))
    .requiredOption("--email <email>", "the person's e-mail (one account per e-mail across the service)")
    .requiredOption("--name <name>", "the person's name as histories show it")
    .option("--role <role>", `${ROLES.join(" < ")}`, role, "officer")
    .option("--password-stdin", "read the password from standard input")
    .option("--generate-password", "generate a password and print it once")
    .action(
      (opts: {
        project: number;
        email: string;
        name: string;
        role: Role;
        passwordStdin?: boolean;
        generatePassword?: boolean;
      }) => {
        if (opts.passwordStdin && opts.generatePassword)
          throw new Error("give --password-stdin or --generate-password, not both");
        return withDatabase(async ({ config, database, keys }) => {
          const password = opts.passwordStdin
            ? await readStdin()
            : opts.generatePassword
              ? generatedPassword()
              : undefined;
          const ctx = contextOf(config, database.db, keys.serverKeys);
          const { user, setPasswordUrl } = await createUser(
            ctx,
            opts.project,
            { email: opts.email, displayName: opts.name, role: opts.role, ...(password ? { password } : {}) },
            CLI,
          );
          process.stdout.write(
            `${JSON.stringify({
              id: user.id,
              email: user.email,
              role: user.role,
              ...(opts.generatePassword ? { password } : {}),
              ...(setPasswordUrl ? { setPasswordUrl } : {}),
            })}\n`,
          );
        });
      },
    );
  users
    .command("list")
    .description("list a project's people")
    .requiredOption("--project <id>", "project id", int("--project"))
    .action((opts: { project: number }) =>
      withDatabase(async ({ database }) => {
        process.stdout.write(`${JSON.stringify(await listUsers(database.db, opts.project))}\n`);
      }),
    );
  users
    .command("disable")
    .description("disable a person's account (their sessions end at once)")
    .requiredOption("--project <id>", "project id", int("--project"))
    .requiredOption("--user <id>", "the person's id (vigia users list)", int("--user"))
    .action((opts: { project: number; user: number }) =>
      withDatabase(async ({ config, database, keys }) => {
        const ctx = contextOf(config, database.db, keys.serverKeys);
        const user = await updateUser(ctx, opts.project, opts.user, { disabled: true }, CLI);
        process.stdout.write(`${JSON.stringify(user)}\n`);
      }),
    );
  users
    .command("set-role")
    .description("change a person's role (their sessions end at once)")
    .requiredOption("--project <id>", "project id", int("--project"))
    .requiredOption("--user <id>", "the person's id (vigia users list)", int("--user"))
    .requiredOption("--role <role>", `${ROLES.join(" < ")}`, role)
    .action((opts: { project: number; user: number; role: Role }) =>
      withDatabase(async ({ config, database, keys }) => {
        const ctx = contextOf(config, database.db, keys.serverKeys);
        const user = await updateUser(ctx, opts.project, opts.user, { role: opts.role }, CLI);
        process.stdout.write(`${JSON.stringify(user)}\n`);
      }),
    );
  users
    .command("link")
    .description("print a new one-time link (72 h) that sets a person's password")
    .requiredOption("--project <id>", "project id", int("--project"))
    .requiredOption("--user <id>", "the person's id (vigia users list)", int("--user"))
    .action((opts: { project: number; user: number }) =>
      withDatabase(async ({ config, database, keys }) => {
        const ctx = contextOf(config, database.db, keys.serverKeys);
        if (!(await findUser(database.db, opts.project, opts.user)))
          throw new Error(`person ${opts.user} is not one of project ${opts.project}'s (vigia users list)`);
        process.stdout.write(
          `${JSON.stringify({ setPasswordUrl: await newPasswordLink(ctx, opts.user) })}\n`,
        );
      }),
    );
}
