import type MiniSearch from 'minisearch';

/** Term → field id → short document id → frequency: how MiniSearch keeps a term. */
export type TermData = Map<number, Map<number, number>>;

/**
 * What the docs host reads of a MiniSearch beyond its public API: its own index, settings and document
 * statistics, private in its types (minisearch 7, which package.json pins to 7.2's patch releases for
 * this). `FieldSearch` reads them to score a term in every field at once; `VersionIndex` sets the
 * counts it made as the index itself, and writes the saved form from them a part at a time.
 */
export interface EngineInternals {
  _index: Iterable<[string, TermData]> & {
    get(term: string): TermData | undefined;
    set(term: string, data: TermData): void;
    has(term: string): boolean;
    atPrefix(prefix: string): Iterable<[string, TermData]>;
    /** Words within a Levenshtein distance of `term`. */
    fuzzyGet(term: string, distance: number): Map<string, unknown>;
  };
  _fieldIds: Record<string, number>;
  _avgFieldLength: number[];
  _fieldLength: Map<number, number[]>;
  _documentIds: Map<number, number>;
  _documentCount: number;
  _nextId: number;
  _storedFields: Map<number, unknown>;
  _dirtCount: number;
  _options: {
    searchOptions: {
      boost?: Record<string, number>;
      weights?: { prefix?: number };
      bm25: { k: number; b: number; d: number };
    };
  };
}

export const internalsOf = <T>(engine: MiniSearch<T>): EngineInternals => engine as unknown as EngineInternals;
