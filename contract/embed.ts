/** Where an embedded section was read from. */
interface EmbedSource {
  /** The page URL asked for, fragment included. */
  url: string;
  fragment: string | null;
  /** Read by the proxy itself from an allowlisted external documentation domain. */
  external: boolean;
}

/** `GET /api/v3/embed/?url=…`: the whole section, as HTML with absolute links. */
export interface EmbedSection extends EmbedSource {
  content: string;
}

/** `GET /api/v3/embed/?url=…&form=preview`: the start of the section, for a hover preview. */
export interface EmbedPreview extends EmbedSource {
  /** Plain text: the section's heading, or the term a definition describes. */
  title: string;
  /** HTML of the first few blocks, at most 4,000 characters. */
  content: string;
  /** The section goes on beyond `content`. */
  truncated: boolean;
  /**
   * The page has no element the fragment names (a link to an anchor the page lacks): the preview is
   * the page's opening, as a browser following the link would land at its top.
   */
  missing_fragment: boolean;
}
