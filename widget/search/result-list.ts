import type { ReactiveControllerHost } from 'lit';
import type { SearchResult } from '../../contract/index.ts';
import { firstChosen, resultRows, stepIndex, type ResultRow } from './results.ts';

/** The listbox of results: its rows, and the active one, which the arrows and the pointer move. */
export class ResultList {
  activeIndex = -1;
  /** The reader moved with the arrows (then the active row is announced where it cannot be referred to). */
  arrowed = false;
  private rowsOf?: { results: readonly SearchResult[]; rows: ResultRow[] };

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly results: () => readonly SearchResult[],
    private readonly words: () => string,
  ) {}

  get rows(): ResultRow[] {
    const results = this.results();
    if (this.rowsOf?.results !== results) this.rowsOf = { results, rows: resultRows(results) };
    return this.rowsOf.rows;
  }

  get active(): ResultRow | undefined {
    return this.rows[this.activeIndex];
  }

  /**
   * New results: the row chosen first is active (see `firstChosen`). Where they answer the same words again (a partial
   * answer asked again while the site is indexed), the row the reader went to with the arrows stays active.
   */
  reset(): void {
    const went = this.arrowed ? this.rowsOf?.rows[this.activeIndex]?.url : undefined;
    const kept = went === undefined ? -1 : this.rows.findIndex((row) => row.url === went);
    this.activeIndex = kept >= 0 ? kept : firstChosen(this.rows, this.words());
    this.host.requestUpdate();
  }

  /** Moves to the next (`1`) or previous (`-1`) row, going round. */
  step(step: 1 | -1): void {
    this.activeIndex = stepIndex(this.activeIndex, step, this.rows.length);
    this.arrowed = true;
    this.host.requestUpdate();
  }

  activate(index: number): void {
    if (this.activeIndex === index) return;
    this.activeIndex = index;
    this.host.requestUpdate();
  }

  /** The reader typed: the active row is no longer one the arrows reached. */
  typed(): void {
    this.arrowed = false;
    this.host.requestUpdate();
  }
}
