/**
 * Orders version names as readers expect (numbers compared as numbers, pre-releases just before their release)
 * and tells old and development versions.
 */

import type { VersionStatus } from '../contract/index.ts';

/** Pre-release markers, oldest first; a final release ranks above all of them. */
const PRE_RELEASE_RANKS: Record<string, number> = { dev: 0, alpha: 1, a: 1, beta: 2, b: 2, preview: 3, pre: 3, rc: 3, c: 3 };
const FINAL = Math.max(...Object.values(PRE_RELEASE_RANKS)) + 1;

/** A version name split into its release numbers and its pre-release stage (`2.0rc1` → [2, 0], rc, 1). */
export interface ParsedVersion {
  release: number[];
  /** Rank of the pre-release marker, `FINAL` for a release. */
  stage: number;
  stageNumber: number;
}

/** Reads `v2.10`, `2.0rc1`, `2.0.0-beta.2`, `1.0a1`, `3.1.dev0`; undefined when the name has no number. */
export function parseVersion(slug: string): ParsedVersion | undefined {
  const match = /^\D*?(\d+(?:[._-]\d+)*)(?:[._-]?([a-z]+)[._-]?(\d*))?/i.exec(slug);
  if (!match?.[1]) return undefined;
  const release = match[1].split(/[._-]/).map(Number);
  const marker = match[2]?.toLowerCase();
  const stage = marker !== undefined && marker in PRE_RELEASE_RANKS ? (PRE_RELEASE_RANKS[marker] ?? FINAL) : FINAL;
  return { release, stage, stageNumber: stage === FINAL ? 0 : Number(match[3] || 0) };
}

/** Negative when `a` is older than `b`: `2.9` < `2.10`, `2.0rc1` < `2.0` < `2.0.1`; undefined when either has no number. */
export function compareReleases(a: string, b: string): number | undefined {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  if (!x || !y) return undefined;
  for (let i = 0; i < Math.max(x.release.length, y.release.length); i++) {
    const difference = (x.release[i] ?? 0) - (y.release[i] ?? 0);
    if (difference) return difference;
  }
  return x.stage - y.stage || x.stageNumber - y.stageNumber || x.release.length - y.release.length;
}

/** What ordering and status read of a version. */
export interface VersionName {
  slug: string;
  /** `tag` for releases, `branch` for the others. */
  type: string;
}

const NAMED_FIRST = ['latest', 'stable'];

/** `latest` and `stable` first, then tags newest first, then branches by name. */
export function compareVersions(a: VersionName, b: VersionName): number {
  const rank = (version: VersionName) => {
    const named = NAMED_FIRST.indexOf(version.slug);
    if (named !== -1) return named;
    return version.type === 'tag' ? 2 : 3;
  };
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  // Tags newest first, each pre-release right below its release (`2.0`, `2.0rc1`, `1.0`).
  const byNumbers = a.type === 'tag' && b.type === 'tag' ? (compareReleases(b.slug, a.slug) ?? 0) : 0;
  return byNumbers || a.slug.localeCompare(b.slug);
}

/**
 * `old` for a release older than the stable one (a release candidate of a newer one is not), `dev` for `latest`
 * and branches, else null.
 */
export function versionStatus(current: VersionName, stable: { slug: string; release: string } | null): VersionStatus {
  if (!stable || stable.slug === current.slug || stable.release === current.slug) return null;
  if (current.type === 'tag' && (compareReleases(current.slug, stable.release) ?? 0) < 0) return 'old';
  if (current.slug === 'latest' || current.type === 'branch') return 'dev';
  return null;
}
