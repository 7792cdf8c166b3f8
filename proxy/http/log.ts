import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/** One structured log line as a test or a collector reads it back. */
export type LogEntry = Record<string, string | number | boolean | undefined>;

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

/**
 * Headers that carry credentials, wherever a log call puts them: the logger blanks them itself, so
 * that no caller can leak the upstream token or a reader's session by logging a request or its headers.
 */
const SECRET_PATHS = [
  'authorization',
  'cookie',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/**
 * The proxy's logger: one JSON line per event with an ISO time and the level's name (what log
 * collectors read), on stdout unless `destination` says otherwise.
 */
export function createLogger(level: LogLevel = 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    redact: { paths: SECRET_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** A destination that hands each line to `collect` as an object: what tests read the log from. */
export function collectedLog(collect: (entry: LogEntry) => void): DestinationStream {
  return { write: (line: string) => collect(JSON.parse(line) as LogEntry) };
}
