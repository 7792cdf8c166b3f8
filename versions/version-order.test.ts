import { describe, expect, it } from 'vitest';
import { compareReleases, compareVersions, parseVersion, versionStatus, type VersionName } from './version-order.ts';

const version = (slug: string, type = 'tag'): VersionName => ({ slug, type });
const ordered = (...slugs: string[]) => slugs.map((slug) => version(slug, /^\d/.test(slug) || slug.startsWith('v') ? 'tag' : 'branch'));

describe('version order', () => {
  it('reads release numbers and pre-release stages', () => {
    expect(parseVersion('v2.10')).toEqual({ release: [2, 10], stage: 4, stageNumber: 0 });
    expect(parseVersion('1.0a1')?.stage).toBeLessThan(parseVersion('1.0rc1')?.stage ?? 0);
    expect(parseVersion('2.0rc1')).toMatchObject({ release: [2, 0], stageNumber: 1 });
    expect(parseVersion('2.0.0-beta.2')).toMatchObject({ release: [2, 0, 0], stageNumber: 2 });
    expect(parseVersion('main')).toBeUndefined();
  });

  it('compares numbers as numbers and puts each pre-release just below its release', () => {
    expect(compareReleases('2.10', '2.9')).toBeGreaterThan(0);
    expect(compareReleases('2.0rc1', '2.0')).toBeLessThan(0);
    expect(compareReleases('2.0rc1', '1.9')).toBeGreaterThan(0);
    expect(compareReleases('2.0a1', '2.0b1')).toBeLessThan(0);
    expect(compareReleases('2.0b2', '2.0rc1')).toBeLessThan(0);
    expect(compareReleases('3.1.dev0', '3.1a1')).toBeLessThan(0);
    expect(compareReleases('2.0rc2', '2.0rc10')).toBeLessThan(0);
    expect(compareReleases('latest', '2.0')).toBeUndefined();
  });

  it('lists latest and stable first, then tags newest first, then branches', () => {
    const versions = ordered('1.0', 'main', '2.0rc1', '2.0', 'stable', '2.10', '2.9', 'latest', '2.0.1', '2.0b1');
    expect(versions.sort(compareVersions).map((entry) => entry.slug)).toEqual([
      'latest',
      'stable',
      '2.10',
      '2.9',
      '2.0.1',
      '2.0',
      '2.0rc1',
      '2.0b1',
      '1.0',
      'main',
    ]);
  });
});

describe('version status', () => {
  const stable = { slug: 'stable', release: '2.0' };

  it('flags releases older than stable, including its own release candidates', () => {
    expect(versionStatus({ slug: '1.0', type: 'tag' }, stable)).toBe('old');
    expect(versionStatus({ slug: '2.0rc1', type: 'tag' }, stable)).toBe('old');
  });

  it('does not flag a release candidate of a newer release, nor stable itself', () => {
    expect(versionStatus({ slug: '2.1rc1', type: 'tag' }, stable)).toBeNull();
    expect(versionStatus({ slug: '3.0.0-beta.1', type: 'tag' }, stable)).toBeNull();
    expect(versionStatus({ slug: '2.0', type: 'tag' }, stable)).toBeNull();
  });

  it('calls latest and branches development versions', () => {
    expect(versionStatus({ slug: 'latest', type: 'branch' }, stable)).toBe('dev');
    expect(versionStatus({ slug: 'feature-x', type: 'branch' }, stable)).toBe('dev');
  });
});
