const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Work that a thread answering searches does only between them: each step of it holds up a search
 * that arrives meanwhile (the first part of a large saved index, all its terms sorted, took 449 ms
 * under load), so a step is taken only once no search was answered for `quietMs`, or once one has
 * waited `longestMs` (a host searched without pause still saves its index).
 */
export class BetweenSearches {
  private lastSearch = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly quietMs: number,
    private readonly longestMs: number,
  ) {}

  /** A search was answered. */
  searched(): void {
    this.lastSearch = Date.now();
  }

  /** The items of `steps`, each taken from it only once searches pause (see above). */
  async *steps<T>(steps: Iterable<T>): AsyncGenerator<T> {
    const iterator = steps[Symbol.iterator]();
    for (;;) {
      await this.pause();
      const next = iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }

  private async pause(): Promise<void> {
    const until = Date.now() + this.longestMs;
    for (let wait = this.lastSearch + this.quietMs - Date.now(); wait > 0; wait = this.lastSearch + this.quietMs - Date.now()) {
      if (Date.now() >= until) return;
      await delay(Math.min(wait, until - Date.now()));
    }
  }
}
