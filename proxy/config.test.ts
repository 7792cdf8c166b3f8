import { describe, expect, it } from 'vitest';
import { configSchema, parseConfig, SETTINGS, settingDefault, settingValue, type ProxyConfig } from './config.ts';

/** The least a valid configuration needs: every other setting takes its default. */
const MINIMAL = { upstream: 'https://docs-host.example', projects: ['aurora'], token: 'token-123456' };

describe('the proxy settings', () => {
  it('has a setting, with flag and variable, for every key of the schema but the secrets and the embedding-only one', () => {
    const keys = Object.keys(configSchema.shape).filter((key) => !['token', 'redisPassword', 'widgetDir'].includes(key));
    expect(SETTINGS.map((setting) => setting.key).sort()).toEqual(keys.sort());
  });

  it.each(SETTINGS.filter((setting) => setting.defaultText === undefined))(
    "documents $flag's default as the value the proxy takes without it",
    (setting) => {
      const applied: unknown = parseConfig(MINIMAL)[setting.key as keyof ProxyConfig];
      expect(settingValue(setting, settingDefault(setting))).toEqual(applied);
    },
  );

  it.each(SETTINGS.filter((setting) => setting.defaultText !== undefined))(
    "says $flag's default in words only where the schema has no plain value to show",
    (setting) => {
      const parsed = configSchema.shape[setting.key as keyof typeof configSchema.shape].safeParse(undefined);
      expect(!parsed.success || parsed.data === undefined || (Array.isArray(parsed.data) && parsed.data.length === 0)).toBe(true);
    },
  );
});
