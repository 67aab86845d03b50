// The one error an import reports for bad input: which file, which line, and why. The command prints its message
// as the single line on stderr (`transactions.csv:17: from_address "0xzz" is not an EVM address`).
import path from "node:path";

export class EtlInputError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly reason: string,
  ) {
    super(`${path.basename(file)}${line === undefined ? "" : `:${line}`}: ${reason}`);
    this.name = "EtlInputError";
  }
}

/** A value as shown in an error message: quoted, and cut short when long. */
export function shown(value: string): string {
  const cut = value.length > 80 ? `${value.slice(0, 77)}...` : value;
  return JSON.stringify(cut);
}
