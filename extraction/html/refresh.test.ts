import { describe, expect, it } from 'vitest';
import { parseRefresh } from './refresh.ts';

const base = 'https://docs.example/en/latest/generated/x.html';
const read = (content: string) => {
  const refresh = parseRefresh(content, base);
  return refresh && [refresh.delay, refresh.url.href];
};

describe('parseRefresh', () => {
  it('reads a delay and a URL as the HTML standard does: `;` or `,`, an optional url=, optional quotes', () => {
    expect(read('0;URL=../reference/api/x.html')).toEqual([0, 'https://docs.example/en/latest/reference/api/x.html']);
    expect(read('  3 , url = "y.html#z" trailing')).toEqual([3, 'https://docs.example/en/latest/generated/y.html#z']);
    expect(read("0; URL='y.html'")).toEqual([0, 'https://docs.example/en/latest/generated/y.html']);
    expect(read('0 y.html')).toEqual([0, 'https://docs.example/en/latest/generated/y.html']);
    expect(read('1.5; y.html')).toEqual([1, 'https://docs.example/en/latest/generated/y.html']);
    expect(read('.5;y.html')).toEqual([0, 'https://docs.example/en/latest/generated/y.html']);
    // `url` without `=` is the start of the URL itself.
    expect(read('0; urls.html')).toEqual([0, 'https://docs.example/en/latest/generated/urls.html']);
  });

  it('reloads the page itself without a URL, and refuses what a browser ignores', () => {
    expect(read('0')).toEqual([0, base]);
    expect(read('5;')).toEqual([5, base]);
    expect(read('')).toBeUndefined();
    expect(read('soon; url=y.html')).toBeUndefined();
    expect(read('0x; url=y.html')).toBeUndefined();
    expect(read('0; url=http://[bad')).toBeUndefined();
  });
});
