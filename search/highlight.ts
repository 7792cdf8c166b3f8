import { termsOf, tokenMatches } from './terms.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** Whether a token of a text is one of the matched terms. */
const isMatched = (token: string, terms: ReadonlySet<string>) => termsOf(token).some((term) => terms.has(term));

/** HTML-escaped `text` with every matched word wrapped in `<span>`, as the search API returns it. */
export function highlight(text: string, words: ReadonlySet<string>): string {
  let html = '';
  let last = 0;
  for (const match of tokenMatches(text)) {
    if (!isMatched(match[0], words)) continue;
    html += `${escapeHtml(text.slice(last, match.index))}<span>${escapeHtml(match[0])}</span>`;
    last = match.index! + match[0].length;
  }
  return html + escapeHtml(text.slice(last));
}

/** Up to `count` highlighted excerpts of about `width` characters around the matches in `text`. */
export function highlightExcerpts(text: string, words: ReadonlySet<string>, count = 3, width = 160): string[] {
  const excerpts: string[] = [];
  let coveredUntil = -1;
  // Read only as far as the excerpts go: a section's text may be a whole long page.
  for (const match of tokenMatches(text)) {
    if (excerpts.length === count) break;
    if (!isMatched(match[0], words)) continue;
    if (match.index! < coveredUntil) continue;
    let start = Math.max(0, match.index! - Math.floor(width / 3));
    let end = Math.min(text.length, start + width);
    // Whole words only at the edges.
    if (start > 0) start = text.indexOf(' ', start) + 1 || start;
    if (end < text.length) end = text.lastIndexOf(' ', end) > match.index! ? text.lastIndexOf(' ', end) : end;
    excerpts.push(highlight(text.slice(start, end), words));
    coveredUntil = end;
  }
  return excerpts;
}
