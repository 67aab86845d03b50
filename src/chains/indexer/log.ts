// What the indexer logs through: pino's (object, message) calls, so the service's logger or a test's sink fits.
import pino from "pino";

export interface IndexerLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export function defaultIndexerLog(level: string): IndexerLog {
  return pino({ level, name: "indexer" });
}

export const silentLog: IndexerLog = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
