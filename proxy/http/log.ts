/** One structured log line. Values are chosen by the proxy; no request header is ever copied in. */
export type LogEntry = Record<string, string | number | boolean | undefined>;

export type LogSink = (entry: LogEntry) => void;

/** JSON lines on stdout: what log collectors read. */
export const stdoutLog: LogSink = (entry) => {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
};
