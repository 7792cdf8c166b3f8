/**
 * A worker thread of the index pool (see `index-pool.ts`). The builder indexes one version after the
 * other and answers searches of the version it is building with what it has so far, and of those it
 * has built in full until the main thread has loaded them; helpers only split pages into sections,
 * for the builder, which adds them in file order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { splitSections, type SplitPage } from '../extraction/sections.ts';
import { VersionIndex, type PageHit } from './search-index.ts';

export type WorkerData = { role: 'builder'; helpers: MessagePort[] } | { role: 'helper'; builder: MessagePort };

/** From the main thread to the builder; `release` once the main thread has loaded a version's index. */
export type BuilderRequest =
  | { type: 'build'; version: number; root: string; files: string[] }
  | { type: 'search'; id: number; version: number; text: string }
  | { type: 'release'; version: number };

/** What the builder has of a version: the hits of all of it or of what it has indexed so far. */
export interface BuilderHits {
  hits: PageHit[];
  complete: boolean;
}

/**
 * From the builder to the main thread: `built` when the version is indexed in full (and searched so
 * here), then `saved` with the index as JSON. `found` is undefined for a version the builder does not hold.
 */
export type BuilderReply =
  | { type: 'started' }
  | { type: 'built'; version: number }
  | { type: 'saved'; version: number; json: string }
  | { type: 'failed'; version: number; message: string }
  | { type: 'hits'; id: number; found: BuilderHits | undefined };

interface SplitRequest {
  batch: number;
  root: string;
  files: string[];
}

interface SplitFile {
  file: string;
  /** Undefined when the file could not be read (removed since it was listed). */
  split: SplitPage | undefined;
}

interface SplitReply {
  batch: number;
  pages: SplitFile[];
}

/** Pages handed out at once: enough to keep a helper busy between messages, few enough to share the work evenly. */
const BATCH_PAGES = 4;
/** Batches a helper holds at once, so that it never waits for the next one. */
const BATCHES_AHEAD = 2;

function splitFile(root: string, file: string): SplitFile {
  let html: string;
  try {
    html = readFileSync(join(root, file), 'utf8');
  } catch {
    return { file, split: undefined };
  }
  return { file, split: splitSections(html, file) };
}

/** Lets the messages that arrived meanwhile (searches, split pages) be handled. */
const yieldToMessages = () => new Promise<void>((resolve) => setImmediate(resolve));

function runHelper(builder: MessagePort): void {
  builder.on('message', ({ batch, root, files }: SplitRequest) => {
    builder.postMessage({ batch, pages: files.map((file) => splitFile(root, file)) } satisfies SplitReply);
  });
}

class Builder {
  private readonly queue: Extract<BuilderRequest, { type: 'build' }>[] = [];
  private current: { version: number; index: VersionIndex } | undefined;
  /** Versions indexed in full that the main thread has not loaded yet. */
  private readonly finished = new Map<number, VersionIndex>();
  private running = false;
  /** Called when a helper's batch arrives. */
  private wake: () => void = () => {};
  private results: (SplitFile[] | undefined)[] = [];
  private handedOut = 0;
  private batches: string[][] = [];
  private root = '';

  constructor(
    private readonly helpers: MessagePort[],
    private readonly main: MessagePort,
  ) {
    for (const helper of helpers) {
      helper.on('message', ({ batch, pages }: SplitReply) => {
        this.results[batch] = pages;
        this.handOut(helper);
        this.wake();
      });
    }
    main.on('message', (request: BuilderRequest) => this.handle(request));
    this.reply({ type: 'started' });
  }

  private reply(message: BuilderReply): void {
    this.main.postMessage(message);
  }

  private handle(request: BuilderRequest): void {
    if (request.type === 'search') this.reply({ type: 'hits', id: request.id, found: this.search(request.version, request.text) });
    else if (request.type === 'release') this.finished.delete(request.version);
    else {
      this.queue.push(request);
      if (!this.running) void this.run();
    }
  }

  private search(version: number, text: string): BuilderHits | undefined {
    const finished = this.finished.get(version);
    if (finished) return { hits: finished.search(text), complete: true };
    if (this.current?.version === version) return { hits: this.current.index.search(text), complete: false };
    return this.queue.some((queued) => queued.version === version) ? { hits: [], complete: false } : undefined;
  }

  private async run(): Promise<void> {
    this.running = true;
    for (let request = this.queue.shift(); request; request = this.queue.shift()) {
      try {
        const index = await this.build(request);
        this.finished.set(request.version, index);
        this.current = undefined;
        this.reply({ type: 'built', version: request.version });
        // Searches that waited for it first.
        await yieldToMessages();
        this.reply({ type: 'saved', version: request.version, json: JSON.stringify(index) });
      } catch (error) {
        this.reply({ type: 'failed', version: request.version, message: error instanceof Error ? error.message : String(error) });
      } finally {
        this.current = undefined;
      }
    }
    this.running = false;
  }

  private handOut(helper: MessagePort): void {
    if (this.handedOut >= this.batches.length) return;
    const batch = this.handedOut++;
    helper.postMessage({ batch, root: this.root, files: this.batches[batch]! } satisfies SplitRequest);
  }

  /** Splits the pages in batches shared with the helpers, and adds them in file order. */
  private async build({ version, root, files }: Extract<BuilderRequest, { type: 'build' }>): Promise<VersionIndex> {
    const index = new VersionIndex();
    this.current = { version, index };
    this.root = root;
    this.batches = [];
    for (let start = 0; start < files.length; start += BATCH_PAGES) this.batches.push(files.slice(start, start + BATCH_PAGES));
    this.results = [];
    this.handedOut = 0;
    for (let round = 0; round < BATCHES_AHEAD; round++) for (const helper of this.helpers) this.handOut(helper);
    for (let next = 0; next < this.batches.length; next++) {
      while (!this.results[next]) {
        if (this.handedOut < this.batches.length) {
          // Nothing to add yet: split a batch here too.
          const mine = this.handedOut++;
          const pages: SplitFile[] = [];
          for (const file of this.batches[mine]!) {
            pages.push(splitFile(root, file));
            await yieldToMessages();
          }
          this.results[mine] = pages;
        } else {
          await new Promise<void>((resolve) => (this.wake = resolve));
        }
      }
      for (const { file, split } of this.results[next]!) if (split) index.addSplitPage(file, split);
      this.results[next] = undefined;
      await yieldToMessages();
    }
    return index;
  }
}

const data = workerData as WorkerData;
if (data.role === 'helper') runHelper(data.builder);
else new Builder(data.helpers, parentPort!);
