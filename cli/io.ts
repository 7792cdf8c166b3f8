import type { DestinationStream } from 'pino';

/**
 * Where a command writes and what environment it reads: the process's own when run as `doclens`,
 * strings a test reads when run in-process through `main(argv, io)`.
 */
export interface CommandIO {
  stdout: { write(text: string): unknown };
  /** A terminal (`isTTY`) gets progress lines; a log gets summaries alone. */
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Where the proxy's JSON lines go; without it, the process's stdout through pino's own writer. */
  log?: DestinationStream;
}

export const processIO: CommandIO = { stdout: process.stdout, stderr: process.stderr, env: process.env };
