import { Parser } from 'htmlparser2';
import type { SearchBlock, SearchResult } from '../../contract/index.ts';
import { highlight, type readersWords } from '../../search/index.ts';

/** The words to mark in an upstream highlight, from those the upstream marked in it. */
type ReadersWords = ReturnType<typeof readersWords>;

/** An upstream highlight read: its text (entities decoded, every tag dropped) and the texts its `<span>`s mark. */
function readHighlight(html: string): { text: string; marked: string[] } {
  let text = '';
  const marked: string[] = [];
  // The text of the `<span>` open, when one is (the upstream nests none; a nested one reads as part of it).
  let open: string | undefined;
  let depth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name !== 'span') return;
        if (depth++ === 0) open = '';
      },
      ontext(data) {
        text += data;
        if (open !== undefined) open += data;
      },
      onclosetag(name) {
        if (name !== 'span' || depth === 0 || --depth > 0) return;
        marked.push(open!);
        open = undefined;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return { text, marked };
}

/**
 * An upstream highlight marked again as doclens marks its own answers (search/highlight.ts): its plain text,
 * HTML-escaped, with `<span>` around the reader's words only and only the part of a name the search matched,
 * not the upstream's marks on stop words and whole dotted names. Nothing of its markup but the text survives.
 */
export function rehighlighted(html: string, wordsOf: ReadersWords): string {
  const { text, marked } = readHighlight(html);
  return highlight(text, wordsOf(marked));
}

function blockRehighlighted(block: SearchBlock, wordsOf: ReadersWords): SearchBlock {
  const again = (list: string[]) => list.map((html) => rehighlighted(html, wordsOf));
  const { title, name, content } = block.highlights;
  return {
    ...block,
    highlights: { ...(title && { title: again(title) }), ...(name && { name: again(name) }), content: again(content) },
  };
}

/** A result's highlights, its title's and its blocks', marked again with the reader's words (`readersWords` of the query). */
export function resultRehighlighted(result: SearchResult, wordsOf: ReadersWords): SearchResult {
  return {
    ...result,
    highlights: { title: result.highlights.title.map((html) => rehighlighted(html, wordsOf)) },
    blocks: result.blocks.map((block) => blockRehighlighted(block, wordsOf)),
  };
}
