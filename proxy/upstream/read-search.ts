import type { SearchAnswer, SearchReading } from './api.ts';
import { jsonObject } from './json.ts';
import { searchAnswer } from './normalize.ts';
import { searchAnswerV2 } from './normalize-v2.ts';

/** A search answer's body in the v3 shapes, whichever API version sent it. */
export function readSearch(body: Uint8Array, reading: SearchReading): SearchAnswer {
  const data = jsonObject(body);
  return reading.version === 'v3' ? searchAnswer(data) : searchAnswerV2(data, reading.query);
}
