import type { ReactiveControllerHost } from 'lit';
import { stepIndex } from './results.ts';

/** Recent searches kept per project searched. */
export const RECENT_LIMIT = 8;

/** The storage key of a project's recent searches (`all` when the proxy's configured projects are searched). */
export function recentKey(project: string | undefined): string {
  return `doclens:recent:${project ?? 'all'}`;
}

/** The stored list, whatever was stored: only strings, at most RECENT_LIMIT, nothing for what does not parse. */
export function parseRecent(stored: string | null): string[] {
  try {
    const value: unknown = JSON.parse(stored ?? '[]');
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string').slice(0, RECENT_LIMIT) : [];
  } catch {
    return [];
  }
}

/** `query` first, without its earlier place in the list, and the oldest dropped beyond the limit. */
export function withRecent(recent: readonly string[], query: string): string[] {
  return [query, ...recent.filter((item) => item !== query)].slice(0, RECENT_LIMIT);
}

export function withoutRecent(recent: readonly string[], query: string): string[] {
  return recent.filter((item) => item !== query);
}

export function loadRecent(key: string): string[] {
  try {
    return parseRecent(localStorage.getItem(key));
  } catch {
    // Storage blocked (private mode, sandboxed frames).
    return [];
  }
}

export function storeRecent(key: string, recent: readonly string[]): void {
  try {
    localStorage.setItem(key, JSON.stringify(recent));
  } catch {
    // Storage may be full or blocked; recent searches are a convenience.
  }
}

/** The recent searches of the open dialog, and the one the arrows reached (-1 for none). */
export class RecentSearches {
  items: string[] = [];
  index = -1;

  constructor(
    private readonly host: ReactiveControllerHost,
    /** The storage key of the project searched. */
    private readonly key: () => string,
  ) {}

  /** The list as stored now (another tab may have added to it). */
  load(): void {
    this.items = loadRecent(this.key());
    this.index = -1;
  }

  add(query: string): void {
    this.set(withRecent(loadRecent(this.key()), query));
  }

  set(items: string[]): void {
    this.items = items;
    this.index = -1;
    storeRecent(this.key(), items);
    this.host.requestUpdate();
  }

  /** Moves to the next (`1`) or previous (`-1`) search, going round. */
  step(step: 1 | -1): void {
    this.index = stepIndex(this.index, step, this.items.length);
    this.host.requestUpdate();
  }

  unselect(): void {
    this.index = -1;
    this.host.requestUpdate();
  }

  get selected(): string | undefined {
    return this.items[this.index];
  }
}
