import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractSection } from '../../extraction/find-section.ts';
import { absolutize } from '../../extraction/html/links.ts';
import type { CaseResult } from './types.ts';

export interface EmbedRequest {
  url: string | null;
  fragment?: string | null;
  doctool?: string | null;
  doctoolversion?: string | null;
  maincontent?: string | null;
  external?: boolean;
  settings: { RTD_EMBED_API_EXTERNAL_DOMAINS: string[] | null };
  storage?: { path: string } | null;
  served_at?: string | null;
  upstream?: Record<string, { status: number; headers: Record<string, string> }>;
  cache_preset?: Record<string, number>;
  version_privacy?: 'public' | 'private';
  logged_in_owner?: boolean;
}

export interface EmbedExpectation {
  status: number;
  body: Record<string, unknown>;
  content_match: 'exact' | 'lines' | 'contains' | 'none';
  contains: string[] | null;
}

export interface EmbedCase {
  name: string;
  dir: string;
  request: EmbedRequest;
  expected: EmbedExpectation;
  page?: string;
  expectedHtml?: string;
}

export function loadEmbedCases(root: string): EmbedCase[] {
  const casesDir = join(root, 'v3');
  return readdirSync(casesDir).map((name) => {
    const dir = join(casesDir, name);
    const read = (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : undefined);
    return {
      name,
      dir,
      request: JSON.parse(read('request.json')!) as EmbedRequest,
      expected: JSON.parse(read('expected.json')!) as EmbedExpectation,
      page: read('page.html'),
      expectedHtml: read('expected.html'),
    };
  });
}

const significantLines = (html: string) =>
  html
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** Compares embed content as the case says: byte for byte, line by line, or by substrings. */
export function compareContent(testCase: EmbedCase, content: unknown): string | undefined {
  const { expected, expectedHtml } = testCase;
  if (typeof content !== 'string') return `content is ${typeof content}`;
  switch (expected.content_match) {
    case 'exact':
      return content === expectedHtml
        ? undefined
        : `content differs:\n  got  ${JSON.stringify(content)}\n  want ${JSON.stringify(expectedHtml)}`;
    case 'lines': {
      const got = significantLines(content);
      const want = significantLines(expectedHtml ?? '');
      const index = want.findIndex((line, i) => got[i] !== line);
      if (index === -1 && got.length === want.length) return undefined;
      return `line ${index} differs: ${JSON.stringify(got[index])} != ${JSON.stringify(want[index])}`;
    }
    case 'contains': {
      const missing = (expected.contains ?? []).filter((text) => !content.includes(text));
      return missing.length ? `content lacks ${JSON.stringify(missing)}` : undefined;
    }
    case 'none':
      return undefined;
  }
}

/** Cases with a page: what the extraction function finds (or fails to find) in it. */
export function runExtractionCases(cases: EmbedCase[]): CaseResult[] {
  return cases
    .filter((testCase) => testCase.page && testCase.request.url && [200, 404].includes(testCase.expected.status))
    .map((testCase) => {
      const { request, expected } = testCase;
      const id = `embed-v3/extraction/${testCase.name}`;
      try {
        const content = extractSection(testCase.page!, request.url!, {
          fragment: request.fragment ?? null,
          doctool: request.doctool ?? null,
          maincontent: request.maincontent ?? null,
        });
        if (expected.status === 404) return { id, failure: content === null ? undefined : 'found content, expected none' };
        return { id, failure: compareContent(testCase, content) };
      } catch (error) {
        return { id, failure: `threw ${String(error)}` };
      }
    });
}

interface LinkCases {
  href_cases: { base: string; href: string; expected: string }[];
  img_src_cases: { base: string; src: string; expected: string }[];
  two_links: { base: string; hrefs: string[]; expected: string[] };
}

/**
 * `links.json`: the hosting service leaves root-relative references alone and does not normalize `..`;
 * doclens makes every reference absolute, so both are compared as a browser on the page resolves them.
 */
export function runLinkCases(root: string): CaseResult[] {
  const cases = JSON.parse(readFileSync(join(root, 'links.json'), 'utf8')) as LinkCases;
  const all = [
    ...cases.href_cases.map((c) => ({ base: c.base, reference: c.href, expected: c.expected })),
    ...cases.img_src_cases.map((c) => ({ base: c.base, reference: c.src, expected: c.expected })),
    ...cases.two_links.hrefs.map((href, i) => ({ base: cases.two_links.base, reference: href, expected: cases.two_links.expected[i]! })),
  ];
  return all.map(({ base, reference, expected }, index) => {
    const actual = absolutize(reference, base);
    const resolved = (url: string) => new URL(url, base).href;
    const same = resolved(actual) === resolved(expected) && /^https?:\/\//.test(actual);
    return { id: `embed-v3/links/${index}:${reference}`, failure: same ? undefined : `${actual} != ${expected}` };
  });
}
