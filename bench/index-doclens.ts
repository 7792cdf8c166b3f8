/**
 * One doclens round of the index bench: the `doclens host` command as an installed package runs it
 * (the JavaScript compiled into lib/, without tsx), in a process of its own, measured from outside
 * as Pagefind's is: its time, processor time and peak resident memory from the kernel's accounting.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { SearchIndex } from '../search/index.ts';
import { SUITE_QUERIES } from './suite-queries.ts';

export interface DoclensIndexFigures {
  pages: number;
  sections: number;
  /** From the command's start until it says search is complete. */
  indexMs: number;
  /** Processor time of every thread of the process until then. */
  cpuMs: number;
  bytesOnDisk: number;
  /** Resident memory at rest after indexing and searching, minus that of the same command serving a one-page site. */
  residentBytes: number;
  /** Peak resident memory until the command says search is complete: indexing alone. */
  peakIndexingBytes: number;
  /** Peak resident memory over the whole run: indexing and the searches. */
  peakResidentBytes: number;
  /**
   * Search latencies over HTTP, sorted, in milliseconds: every suite query from "search complete" on
   * (the first answer included), then again.
   */
  searchMs: number[];
  /** The first of those: the first search after "search complete". */
  firstSearchMs: number;
  /** A restart: from the command's start until the index is loaded from the cache. */
  reloadMs: number;
  /**
   * A restart's first search, asked as soon as the command says where its API is: milliseconds from
   * then until its answer, and whether that answer was complete (as many results as before the restart).
   */
  restartAnswerMs: number;
  restartAnswerComplete: boolean;
}

const cli = fileURLToPath(new URL('../lib/cli/main.js', import.meta.url));
const token = 'bench-token-0123456789';
/** Clock ticks of `/proc/PID/stat` times: 100 a second on Linux. */
const TICKS_PER_SECOND = 100;

/** A running `doclens host`, with what it printed so far. */
class HostProcess {
  readonly child: ChildProcess;
  readonly started = performance.now();
  private readonly lines: string[] = [];
  private waiting: (() => void) | undefined;
  private readonly exited: Promise<void>;

  constructor(docs: string, cacheDir: string) {
    this.child = spawn(process.execPath, [cli, 'host', '--docs', docs, '--project', 'bench', '--port', '0', '--index-cache', cacheDir], {
      env: { ...process.env, DOCLENS_HOST_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stderr: string[] = [];
    this.child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', () => resolve()));
    this.child.on('exit', (code, signal) => {
      if (signal !== 'SIGTERM') this.lines.push(`exited (${code ?? signal}): ${stderr.join('')}`);
      this.waiting?.();
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      this.lines.push(line);
      this.waiting?.();
    });
  }

  /** The first line printed that matches `pattern`, waiting for it. */
  async line(pattern: RegExp): Promise<RegExpExecArray> {
    for (;;) {
      for (const line of this.lines) {
        const match = pattern.exec(line);
        if (match) return match;
        if (line.startsWith('exited')) throw new Error(`doclens host ${line}`);
      }
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  /** A field of `/proc/PID/status`, in bytes (`VmRSS`, `VmHWM`). */
  memory(field: 'VmRSS' | 'VmHWM'): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  }

  /** Processor time of all its threads so far, in milliseconds. */
  cpuMs(): number {
    const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime: fields 14 and 15 of the line, 12 and 13 after the command's name and state.
    return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
  }

  /** Resident memory once it is at rest: V8 gives back what indexing grew a few seconds after the last allocations. */
  async residentAtRest(): Promise<number> {
    let resident = Number.POSITIVE_INFINITY;
    for (let second = 0; second < 15; second++) {
      await delay(1000);
      const now = this.memory('VmRSS');
      if (now >= resident - 1024 * 1024 && second >= 5) return Math.min(now, resident);
      resident = Math.min(now, resident);
    }
    return resident;
  }

  async stop(): Promise<void> {
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

/** One search over HTTP, as the proxy asks the host: milliseconds until the whole answer is read, and how many results it counts. */
async function timedSearch(apiUrl: string, query: string): Promise<{ ms: number; count: number }> {
  const begin = performance.now();
  const params = new URLSearchParams({ q: `project:bench/latest ${query}`, page_size: '10' });
  const response = await fetch(`${apiUrl}search/?${params}`, { headers: { authorization: `Token ${token}` } });
  if (!response.ok) throw new Error(`search "${query}" answered ${response.status}`);
  const { count } = (await response.json()) as { count: number };
  return { ms: performance.now() - begin, count };
}

const SEARCH_COMPLETE = /search complete in/;
const API_URL = /API at (\S+) /;

/** What the command takes at rest serving a site of one page: what the index's figure is measured from. */
async function baselineResident(): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), 'doclens-index-bench-site-'));
  writeFileSync(join(folder, 'index.html'), '<!doctype html><title>One page</title><main><h1>One page</h1><p>Its text.</p></main>');
  const host = new HostProcess(folder, join(folder, '.cache'));
  try {
    await host.line(SEARCH_COMPLETE);
    return await host.residentAtRest();
  } finally {
    await host.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** One round on `docs`: the command indexes it, answers every suite query twice, then starts again from the cache it wrote. */
export async function doclensRound(docs: string): Promise<DoclensIndexFigures> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'doclens-index-bench-'));
  try {
    const host = new HostProcess(docs, cacheDir);
    let figures: Omit<
      DoclensIndexFigures,
      'pages' | 'sections' | 'bytesOnDisk' | 'residentBytes' | 'reloadMs' | 'restartAnswerMs' | 'restartAnswerComplete'
    >;
    let firstCount: number;
    let resident: number;
    try {
      const apiUrl = (await host.line(API_URL))[1]!;
      await host.line(SEARCH_COMPLETE);
      const indexMs = performance.now() - host.started;
      const cpuMs = host.cpuMs();
      const peakIndexingBytes = host.memory('VmHWM');
      // Every query of the suite right after "search complete", the first answer included: no warm-up round.
      const searchMs: number[] = [];
      const counts: number[] = [];
      for (let round = 0; round < 2; round++)
        for (const query of SUITE_QUERIES) {
          const { ms, count } = await timedSearch(apiUrl, query);
          searchMs.push(ms);
          counts.push(count);
        }
      firstCount = counts[0]!;
      resident = await host.residentAtRest();
      const firstSearchMs = searchMs[0]!;
      const peakResidentBytes = host.memory('VmHWM');
      figures = { indexMs, cpuMs, peakIndexingBytes, peakResidentBytes, searchMs: searchMs.sort((a, b) => a - b), firstSearchMs };
    } finally {
      await host.stop();
    }
    const restarted = new HostProcess(docs, cacheDir);
    let reloadMs: number;
    let restartAnswer: { ms: number; count: number };
    try {
      const apiUrl = (await restarted.line(API_URL))[1]!;
      // Asked at once, as a reader would who searched while the command started.
      restartAnswer = await timedSearch(apiUrl, SUITE_QUERIES[0]!);
      await restarted.line(/search complete in .* \(indexes loaded from the cache\)/);
      reloadMs = performance.now() - restarted.started;
    } finally {
      await restarted.stop();
    }
    // The cache's one file: the key it was built for on its first line, then the index's parts, one a line.
    const [file] = readdirSync(cacheDir).map((name) => join(cacheDir, name));
    const saved = new SearchIndex();
    for (const part of readFileSync(file!, 'utf8').split('\n').slice(1, -1)) saved.addPart(part);
    const { size } = saved;
    return {
      ...figures,
      ...size,
      bytesOnDisk: readdirSync(cacheDir).reduce((sum, name) => sum + statSync(join(cacheDir, name)).size, 0),
      residentBytes: resident - (await baselineResident()),
      reloadMs,
      restartAnswerMs: restartAnswer.ms,
      restartAnswerComplete: restartAnswer.count === firstCount,
    };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
