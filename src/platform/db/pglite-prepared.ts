// Named prepared statements on the embedded PGlite, for statements marked PREPARED (prepared.ts).
//
// PGlite's own query() sends every statement as an unnamed one, in five separate calls into its WebAssembly
// engine (parse, describe, bind, describe, execute, then sync), and PostgreSQL plans it again each time. For the
// risk expansion's layer read, planning alone took ~1.5 ms of the ~3 ms a quick check's read costs on a 5-million-
// transfer store. Here a marked statement is parsed and described once per PGlite instance, under a name derived
// from its text, and each call then binds and executes it in one round trip.
//
// The rows are built here from the protocol messages rather than by PGlite's parseResults, which copies its table
// of ~300 type parsers on every call (0.2 ms for a 9-row answer, a fifth of what binding and executing it took).
//
// Locking is PGlite's own: the transaction lock, then the query lock, as query() takes them, so a marked
// statement never runs inside another caller's open transaction. Inside a transaction the driver uses query().
import { type messages, type PGlite, protocol, type Results } from "@electric-sql/pglite";
import { statementName } from "./prepared.ts";

type BackendMessage = messages.BackendMessage;

/** The parts of a PGlite instance query() itself uses that its types do not declare. */
interface PGliteInternals {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  serializers: Record<number, ((value: unknown) => string) | undefined>;
  parsers: Record<number, ((value: string, typeId: number) => unknown) | undefined>;
}

interface Statement {
  name: string;
  /** the type oid of each parameter, as PostgreSQL inferred them */
  paramTypes: number[];
}

/** SQLSTATE invalid_sql_statement_name: the session lost the statement (e.g. a DISCARD ALL from a socket client). */
const NO_SUCH_STATEMENT = "26000";

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export class PGlitePreparedStatements {
  readonly #pglite: PGlite;
  readonly #internals: PGliteInternals;
  readonly #statements = new Map<string, Statement>();

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
    this.#internals = pglite as unknown as PGliteInternals;
  }

  /** Runs a statement with its parameters as a named prepared statement (prepared on first use). */
  query<R>(text: string, params: readonly unknown[]): Promise<Results<R>> {
    return this.#internals._runExclusiveTransaction(() =>
      this.#pglite.runExclusive(async () => {
        try {
          return await this.#execute<R>(await this.#statement(text), params);
        } catch (error) {
          if ((error as { code?: string }).code !== NO_SUCH_STATEMENT) throw error;
          this.#statements.delete(text);
          return await this.#execute<R>(await this.#statement(text), params);
        }
      }),
    );
  }

  async #statement(text: string): Promise<Statement> {
    const known = this.#statements.get(text);
    if (known) return known;
    const name = statementName(text);
    const { serialize } = protocol;
    // A statement of that name may be left from before (another instance of this class on the same PGlite).
    const answer = await this.#exchange(
      concat([
        serialize.close({ type: "S", name }),
        serialize.parse({ name, text }),
        serialize.describe({ type: "S", name }),
        serialize.sync(),
      ]),
    );
    const description = answer.find((m) => m.name === "parameterDescription") as
      | messages.ParameterDescriptionMessage
      | undefined;
    const statement = { name, paramTypes: description?.dataTypeIDs ?? [] };
    this.#statements.set(text, statement);
    return statement;
  }

  async #execute<R>(statement: Statement, params: readonly unknown[]): Promise<Results<R>> {
    const values = params.map((value, k) => {
      if (value === null || value === undefined) return null;
      const serializer = this.#internals.serializers[statement.paramTypes[k] as number];
      return serializer ? serializer(value) : String(value);
    });
    const { serialize } = protocol;
    const answer = await this.#exchange(
      concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    return this.#result<R>(answer);
  }

  /** Sends protocol messages (ending with Sync) and returns the backend's messages; an ErrorResponse is thrown. */
  async #exchange(message: Uint8Array): Promise<BackendMessage[]> {
    return (await this.#pglite.execProtocol(message)).messages; // throws a DatabaseError, with its SQLSTATE `code`
  }

  /** The rows (objects keyed by column name, values parsed by type as PGlite's query() does) and affected rows. */
  #result<R>(backend: BackendMessage[]): Results<R> {
    const { parsers } = this.#internals;
    let fields: { name: string; dataTypeID: number }[] = [];
    let columnParsers: (((value: string, typeId: number) => unknown) | undefined)[] = [];
    const rows: Record<string, unknown>[] = [];
    let affectedRows = 0;
    for (const message of backend) {
      if (message.name === "rowDescription") {
        fields = (message as messages.RowDescriptionMessage).fields.map((f) => ({
          name: f.name,
          dataTypeID: f.dataTypeID,
        }));
        columnParsers = fields.map((f) => parsers[f.dataTypeID]);
      } else if (message.name === "dataRow") {
        const values = (message as messages.DataRowMessage).fields;
        const row: Record<string, unknown> = {};
        for (let k = 0; k < fields.length; k++) {
          const value = values[k];
          const field = fields[k] as { name: string; dataTypeID: number };
          const parser = columnParsers[k];
          row[field.name] =
            value === null || value === undefined ? null : parser ? parser(value, field.dataTypeID) : value;
        }
        rows.push(row);
      } else if (message.name === "commandComplete") {
        const [verb, a, b] = (message as messages.CommandCompleteMessage).text.split(" ");
        const count =
          verb === "INSERT" ? b : ["UPDATE", "DELETE", "COPY", "MERGE"].includes(verb as string) ? a : "0";
        affectedRows += Number.parseInt(count ?? "0", 10);
      }
    }
    return { rows: rows as R[], fields, affectedRows };
  }
}
