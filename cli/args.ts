import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isIP } from 'node:net';

/** A mistake in how a command was called: reported in one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** What `parseOptions` asks of `parseArgs`: the options given and `--help`, strictly. */
type StrictConfig<T extends OptionSpec> = {
  args: string[];
  options: T & { help: { type: 'boolean'; short: string } };
  strict: true;
  allowPositionals: false;
};
export type ParsedOptions<T extends OptionSpec> = ReturnType<typeof parseArgs<StrictConfig<T>>>['values'];

/** Parses `argv` strictly: unknown flags, missing values and stray arguments are usage errors. */
export function parseOptions<T extends OptionSpec>(argv: string[], options: T): ParsedOptions<T> {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false })
      .values;
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]!.replace(/\. To specify.*$/, '');
    throw new UsageError(message);
  }
}

export function portValue(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) throw new UsageError(`${name} must be a port number from 0 to 65535, not "${raw}"`);
  return Number(raw);
}

export function slugValue(name: string, raw: string): string {
  if (!/^[a-z0-9][a-z0-9._-]*$/i.test(raw)) throw new UsageError(`${name} must be letters, digits, ".", "_" or "-", not "${raw}"`);
  return raw;
}

export function languageValue(name: string, raw: string): string {
  if (!/^[a-z]{2,3}([_-][a-zA-Z]{2,4})?$/.test(raw)) throw new UsageError(`${name} must be a language code such as "en", not "${raw}"`);
  return raw;
}

/** An address to listen on: an IP literal (`0.0.0.0` or `::` for every interface) or a host name. */
export function addressValue(name: string, raw: string | undefined, fallback: string): string {
  if (raw === undefined) return fallback;
  if (isIP(raw) === 0 && !/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i.test(raw)) {
    throw new UsageError(`${name} must be an IP address or a host name, not "${raw}"`);
  }
  return raw;
}
