// What an import found wrong with its input, row by row: rejected rows (named file:line and why) and skipped rows
// (valid but for a chain or kind of record Vigía keeps nothing for, counted by reason). In strict mode (the
// default) any rejected row fails the whole import; with --skip-invalid the rejected rows are left out.

/** Bad input: the message names the file, the line and the reason. The command exits non-zero with it. */
export class InputError extends Error {}

/**
 * An import refused because it would remove more than the allowed share of a list (VIGIA_LIST_MAX_SHRINK_PERCENT):
 * nothing was changed, and `--allow-shrink` takes it anyway. A scheduled refresh counts it apart from a failure.
 */
export class ShrinkRefused extends InputError {
  constructor(
    message: string,
    readonly current: number,
    readonly read: number,
  ) {
    super(message);
  }
}

/** One row's verdict from a reader: a value to import, a reason to skip it, or a reason to reject it. */
export type RowOutcome<T> = { row: T } | { skip: string } | { error: string };

const KEPT_MESSAGES = 20;

export class RowProblems {
  readonly messages: string[] = [];
  rejected = 0;
  skipped = 0;
  readonly skippedReasons = new Map<string, number>();

  constructor(
    readonly file: string,
    readonly skipInvalid = false,
  ) {}

  reject(line: number | undefined, reason: string) {
    this.rejected += 1;
    if (this.messages.length < KEPT_MESSAGES) this.messages.push(this.at(line, reason));
  }

  skip(reason: string) {
    this.skipped += 1;
    this.skippedReasons.set(reason, (this.skippedReasons.get(reason) ?? 0) + 1);
  }

  /** True once the import can no longer succeed (strict mode and a rejected row). */
  get failed(): boolean {
    return !this.skipInvalid && this.rejected > 0;
  }

  at(line: number | undefined, reason: string): string {
    return line === undefined ? `${this.file}: ${reason}` : `${this.file}:${line}: ${reason}`;
  }

  /** In strict mode, the first rejected row (and how many more there were) as an InputError. */
  throwIfFailed() {
    if (!this.failed) return;
    const more = this.rejected - 1;
    throw new InputError(`${this.messages[0]}${more > 0 ? ` (and ${more} more rejected rows)` : ""}`);
  }

  /** The summary fields: counts, and the skip reasons (at most 20, most frequent first). */
  summary(): { rejected: number; skipped: number; skipped_reasons?: Record<string, number> } {
    if (this.skipped === 0) return { rejected: this.rejected, skipped: 0 };
    const reasons = [...this.skippedReasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, KEPT_MESSAGES);
    return { rejected: this.rejected, skipped: this.skipped, skipped_reasons: Object.fromEntries(reasons) };
  }
}
