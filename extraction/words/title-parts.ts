/** Between a page's and its site's name in a document title: "Reply — Fastify v5 documentation", "Install | Guide". */
const TITLE_PARTS = /\s+[—–|·-]\s+/;

/** A document title's parts: the page's name, then the site's ('' where the title names one thing alone). */
export function titleParts(documentTitle: string): { page: string; site: string } {
  const [page = '', ...site] = documentTitle.split(TITLE_PARTS);
  return { page, site: site.join(' ') };
}
