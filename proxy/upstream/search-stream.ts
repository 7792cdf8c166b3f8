import type { SearchResult } from '../../contract/index.ts';
import type { SearchFrame, SearchReading } from './api.ts';
import { asObject, asString, invalidResponse, jsonObject, resultsOf } from './json.ts';
import { searchFrameOf, searchResult } from './normalize.ts';
import { searchResultV2 } from './normalize-v2.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
const notJson = () => invalidResponse('a body that is not JSON');

/** Pieces of bytes read across chunks, joined once complete. */
class Pieces {
  private parts: Uint8Array[] = [];
  size = 0;
  add(chunk: Uint8Array, start: number, end: number): void {
    if (end <= start) return;
    this.parts.push(chunk.subarray(start, end));
    this.size += end - start;
  }
  take(): Buffer {
    const joined = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    return joined;
  }
}

/**
 * A search answer's body read as it comes, chunk by chunk: each element of its `results` is parsed
 * on its own and handed to `onResult` once complete, and the rest of the object (count, next,
 * projects…) is kept aside and read at the end. It holds one result at a time, where a parse of the
 * whole body holds its text and every object of it (a 9.5 MB answer took a thread ~150 MB).
 * Structural bytes are ASCII, so a UTF-8 character split between chunks is never misread.
 */
export class SearchStream {
  /** Open objects and arrays. */
  private depth = 0;
  private inString = false;
  /** Backslashes that ended the last chunk, in a string that goes on. */
  private backslashes = 0;
  private topIsObject = false;
  /** In the top-level object, the next string is a key. */
  private expectKey = false;
  /** The key string being read, and the last key read. */
  private key: Pieces | undefined;
  private lastKey = '';
  /** After `"results":`, until its value begins. */
  private resultsNext = false;
  private inResults = false;
  private resultsSeen = false;
  /** Bytes of the result being read; whether it has any but blanks; whether a comma came before it. */
  private readonly result = new Pieces();
  private resultStarted = false;
  private afterComma = false;
  /** Everything but the results: the object with `"results":[]`. */
  private readonly rest = new Pieces();
  private results = 0;

  constructor(
    private readonly reading: SearchReading,
    private readonly onResult: (result: SearchResult) => void,
  ) {}

  write(chunk: Uint8Array): void {
    // Where the bytes not yet kept (in the rest, or in the result being read) begin.
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      if (this.inString) {
        i = this.skipString(chunk, i);
        continue;
      }
      const byte = chunk[i]!;
      if (isSpace(byte)) continue;
      if (this.inResults && this.depth === 2) {
        if (byte === COMMA || byte === CLOSE_ARRAY) {
          if (this.resultStarted) this.result.add(chunk, from, i);
          this.endResult(byte === COMMA);
          from = i;
          if (byte === COMMA) continue;
          this.inResults = false;
        } else if (byte === CLOSE_OBJECT) {
          throw notJson();
        } else if (!this.resultStarted) {
          // The result's first byte: the comma and blanks before it belong to neither part.
          from = i;
          this.resultStarted = true;
        }
      }
      if (byte === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && this.topIsObject && this.expectKey) {
          this.key = new Pieces();
          this.expectKey = false;
        }
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (this.depth === 0) this.expectKey = this.topIsObject = byte === OPEN_OBJECT;
        if (this.resultsNext && byte === OPEN_ARRAY) this.startResults(chunk, from, i + 1);
        if (this.inResults && this.depth === 1) from = i + 1;
        this.resultsNext = false;
        this.depth++;
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        if (this.depth === 0) throw notJson();
        this.depth--;
      } else if (this.depth === 1 && this.topIsObject) {
        if (byte === COMMA) this.expectKey = true;
        this.resultsNext = byte === COLON && this.lastKey === 'results';
      }
    }
    if (!this.inResults) this.rest.add(chunk, from, chunk.length);
    else if (this.resultStarted) this.result.add(chunk, from, chunk.length);
  }

  /** The frame of the answer, once every chunk was written; the results went to `onResult`. */
  end(): SearchFrame {
    if (this.depth !== 0 || this.inString || this.inResults) throw notJson();
    const data = jsonObject(this.rest.take());
    resultsOf(data);
    const query = this.reading.version === 'v3' ? asString(data.query) : this.reading.query;
    return searchFrameOf(data, this.results, query);
  }

  /**
   * Past the string's bytes from `i` on: to its closing quote (then out of the string), or to the
   * chunk's end. Only quotes are looked for (natively, `indexOf`): one is the string's end unless an
   * odd run of backslashes comes before it, which may have begun in the chunk before.
   */
  private skipString(chunk: Uint8Array, i: number): number {
    for (let at = i; ; ) {
      const quote = chunk.indexOf(QUOTE, at);
      const end = quote === -1 ? chunk.length : quote;
      let run = 0;
      while (end - run - 1 >= i && chunk[end - run - 1] === BACKSLASH) run++;
      if (end - run === i) run += this.backslashes;
      if (quote === -1) {
        this.backslashes = run;
        this.key?.add(chunk, i, chunk.length);
        return chunk.length;
      }
      if (run % 2 === 1) {
        at = quote + 1;
        continue;
      }
      this.backslashes = 0;
      this.key?.add(chunk, i, quote);
      this.inString = false;
      if (this.key) this.readKey();
      return quote;
    }
  }

  /** The results list begins: the rest keeps its opening bracket, and each result is read apart. */
  private startResults(chunk: Uint8Array, from: number, end: number): void {
    if (this.resultsSeen) throw invalidResponse('unexpected JSON');
    this.resultsSeen = true;
    this.inResults = true;
    this.rest.add(chunk, from, end);
  }

  private readKey(): void {
    const raw = this.key!.take();
    this.key = undefined;
    // Keys are short; a long one is not `results` (and may be any text: it is not read).
    try {
      this.lastKey = raw.length > 32 ? '' : asString(JSON.parse(`"${raw.toString('utf8')}"`));
    } catch {
      throw notJson();
    }
  }

  private endResult(commaFollows: boolean): void {
    if (!this.resultStarted) {
      // `[,` `,,` `,]` leave a hole in the list; an empty list does not.
      if (commaFollows || this.afterComma) throw notJson();
      return;
    }
    let item: unknown;
    try {
      item = JSON.parse(this.result.take().toString('utf8'));
    } catch {
      throw notJson();
    }
    this.results++;
    this.onResult(this.reading.version === 'v3' ? searchResult(asObject(item)) : searchResultV2(item));
    this.resultStarted = false;
    this.afterComma = commaFollows;
  }
}
