import { describe, expect, it } from 'vitest';
import { collectedLog, createLogger, type LogEntry } from './log.ts';

function logged(level: Parameters<typeof createLogger>[0] = 'info') {
  const lines: LogEntry[] = [];
  return {
    lines,
    logger: createLogger(
      level,
      collectedLog((entry) => lines.push(entry)),
    ),
  };
}

describe('the logger', () => {
  it('writes JSON lines with the level by name and an ISO time', () => {
    const { lines, logger } = logged();
    logger.info({ route: '/x' }, 'request');
    expect(lines).toEqual([{ level: 'info', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), route: '/x', msg: 'request' }]);
  });

  it('blanks credentials wherever a caller puts them', () => {
    const { lines, logger } = logged();
    const secrets = { authorization: 'Token top-secret-1', cookie: 'sessionid=top-secret-2' };
    logger.info(
      { ...secrets, headers: secrets, req: { headers: secrets }, res: { headers: { 'set-cookie': 'top-secret-3' } } },
      'careless',
    );
    expect(JSON.stringify(lines)).not.toMatch(/top-secret/);
    expect(lines[0]!.authorization).toBe('[redacted]');
  });

  it('keeps to its level', () => {
    const { lines, logger } = logged('warn');
    logger.info('quiet');
    logger.warn('said');
    logger.error('said too');
    expect(lines.map((line) => line.msg)).toEqual(['said', 'said too']);
    const silent = logged('silent');
    silent.logger.fatal('nothing');
    expect(silent.lines).toEqual([]);
  });
});
