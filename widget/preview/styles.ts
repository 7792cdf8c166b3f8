import { css } from 'lit';
import { anchoredPopup } from '../shared/theme.ts';

export const previewStyles = css`
  :host {
    display: contents;
  }
  .popup {
    /* A column whose middle scrolls: "Read more" stays in view below it. */
    display: flex;
    flex-direction: column;
    width: max-content;
    max-width: min(var(--doclens-preview-max-width, 480px), calc(100vw - 16px));
    /* The room left beside the link, measured when it is placed. */
    max-height: min(var(--doclens-preview-max-height, 360px), var(--_available-height, calc(100vh - 16px)));
    padding: 0;
    ${anchoredPopup}
    font-size: 0.92em;
    line-height: 1.5;
    opacity: 0;
    transition: opacity 120ms ease-out;
    overflow: visible;
  }
  .popup.visible {
    opacity: 1;
  }
  .popup:not(:popover-open) {
    display: none;
  }
  .scroll {
    flex: 0 1 auto;
    min-height: 0;
    overflow: auto;
    overscroll-behavior: contain;
    padding: calc(var(--_space) * 1.5);
  }
  .scroll:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: -2px;
  }
  footer {
    flex: none;
    padding: var(--_space) calc(var(--_space) * 1.5);
    border-top: 1px solid var(--_border);
  }
  header {
    display: flex;
    align-items: baseline;
    gap: var(--_space);
    margin-bottom: var(--_space);
  }
  .title {
    font-weight: 600;
    font-size: 1.05em;
    overflow-wrap: anywhere;
  }
  .badge {
    flex: none;
    padding: 0 6px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    font-size: 0.75em;
    color: var(--_muted);
  }
  .content {
    overflow-wrap: anywhere;
  }
  .content :first-child {
    margin-top: 0;
  }
  .content > :last-child {
    margin-bottom: 0;
  }
  /* A cell's, an item's or a quote's last paragraph keeps no margin below it: a one-line row or item is a line high,
     not three. A list or quote is set in a little, not the browser's 40px (a phone's preview is 370px wide). */
  .content :is(td, th, li, blockquote) > :last-child {
    margin-bottom: 0;
  }
  .content :is(ul, ol) {
    padding-inline-start: 1.5em;
  }
  .content li + li {
    margin-top: 0.25em;
  }
  .content blockquote {
    margin-inline: var(--_space) 0;
  }
  .content img {
    max-width: 100%;
    height: auto;
  }
  .content pre {
    max-width: 100%;
    overflow: auto;
    padding: var(--_space);
    border-radius: 4px;
    --_cover: var(--_surface);
    font: 0.85em/1.45 var(--_mono);
  }
  /* A block wider than the card scrolls: a shadow on each side that has more says so (a phone showed a table's last
     column cut, no sign of the rest). Each end's cover scrolls with the content and hides the shadow where it ends. */
  .content pre,
  .content table {
    --_shade: color-mix(in srgb, var(--_text) 40%, transparent);
    background:
      linear-gradient(to right, var(--_cover) 50%, transparent) left / 2.5em 100% no-repeat local,
      linear-gradient(to left, var(--_cover) 50%, transparent) right / 2.5em 100% no-repeat local,
      radial-gradient(farthest-side at 0 50%, var(--_shade), transparent) left / 1em 100% no-repeat scroll,
      radial-gradient(farthest-side at 100% 50%, var(--_shade), transparent) right / 1em 100% no-repeat scroll,
      var(--_cover);
  }
  .content code {
    font-family: var(--_mono);
    font-size: 0.9em;
  }
  .content table {
    display: block;
    max-width: 100%;
    overflow: auto;
    border-collapse: collapse;
    --_cover: var(--_background);
  }
  .content th,
  .content td {
    border: 1px solid var(--_border);
    padding: 2px 6px;
    /* Words stay whole in cells (a footnote's "[5]" label, an option's name); a wide table scrolls. Every
       column keeps room to read: a long name (fsspec.caching.ReadAheadCache) squeezed its description. */
    overflow-wrap: normal;
    min-width: 6em;
  }
  /* Formulas (math.ts), in the fonts Temml's stylesheet names first (a system's math font lays out sums and roots), then
     those Linux systems have (Chromium's generic 'math' took none of them: a matrix's brackets did not stretch); one
     wider than the preview scrolls, as code does. Firefox and Safari set a display formula apart only as a block. A
     matrix's or cases' columns stand apart and aligned, which Temml writes in style attributes that the preview drops,
     and its rows too (without, NiBabel's column vectors ran their entries into each other). */
  .content math {
    font-family: 'Cambria Math', 'STIX Two Math', 'Latin Modern Math', 'DejaVu Math TeX Gyre', 'Noto Sans Math', math;
  }
  .content :has(> math[display='block']) {
    max-width: 100%;
    overflow-x: auto;
  }
  .content math[display='block'] {
    display: block;
    display: block math;
    margin: 0.5em 0;
  }
  .content mtd {
    padding: 0.3ex 0.5em;
  }
  .content mtd.tml-left {
    text-align: left;
  }
  .content mtd.tml-right {
    text-align: right;
  }
  .content dt {
    font-weight: 600;
  }
  /* Signatures are code; a field list's labels ("Parameters:") and a glossary's terms are text. */
  .content dt:is(.sig, :has(.descname, .sig-name)) {
    font-family: var(--_mono);
    font-size: 0.9em;
    margin-bottom: 0.25em;
  }
  /* A field list's label ends with a colon, written (Sphinx 5 on) or added by the theme's CSS (before it, Django). */
  .content .field-list > dt:not(:has(.colon))::after {
    content: ':';
  }
  /* docutils writes a parameter's type apart ("address : str"), its " : " left to the theme's CSS. */
  .content .classifier::before {
    content: ':';
    margin: 0 0.5em;
    font-weight: normal;
  }
  .content dd {
    margin-inline-start: calc(var(--_space) * 2);
  }
  /* An API entry's signature and its description, one list: the description as wide as the preview. */
  .content > dl:only-child > dd {
    margin-inline-start: 0;
  }
  /* An admonition (docutils' and Python-Markdown's "Note", "Warning") stands apart under its title, as on the page: not
     a stray one-word paragraph over the text it qualifies. */
  .content .admonition {
    margin: 0.75em 0;
    padding: calc(var(--_space) * 0.75) var(--_space);
    border-inline-start: 3px solid var(--_accent);
    border-radius: 4px;
    background: var(--_surface);
  }
  .content .admonition:is(.warning, .caution, .danger, .error, .attention) {
    border-inline-start-color: var(--_danger);
  }
  .content .admonition-title {
    margin: 0 0 0.25em;
    font-weight: 600;
  }
  .content .admonition > :last-child {
    margin-bottom: 0;
  }
  .content h1,
  .content h2,
  .content h3,
  .content h4 {
    font-size: 1em;
  }
  .content a,
  .more {
    color: var(--_accent);
  }
  /* Below a name's underscores, which the underline otherwise hides (MDAnalysis's select_atoms read "select atoms"). */
  .content a:has(code) {
    text-underline-offset: 0.3em;
  }
  .more {
    font-weight: 600;
    text-decoration: none;
  }
  .more:hover {
    text-decoration: underline;
  }
  /* A finger's target on a touch screen: 44px high at least, the footer's padding part of it. */
  .tapped {
    padding-block: 0;
  }
  .tapped .more {
    display: inline-flex;
    align-items: center;
    min-height: 44px;
    padding-inline-end: calc(var(--_space) * 2);
  }
  .skeleton {
    display: grid;
    gap: 8px;
    width: min(360px, 70vw);
  }
  .skeleton span {
    height: 0.9em;
    border-radius: 4px;
    background: linear-gradient(90deg, var(--_surface), var(--_border), var(--_surface));
    background-size: 200% 100%;
    animation: shimmer 1.2s linear infinite;
  }
  .skeleton span:first-child {
    width: 50%;
    height: 1.1em;
  }
  .skeleton span:last-child {
    width: 80%;
  }
  @keyframes shimmer {
    to {
      background-position: -200% 0;
    }
  }
  .whole-page {
    margin: 0 0 calc(var(--_space) / 2);
    color: var(--_muted);
    font-size: 0.8125em;
  }
  .unavailable {
    color: var(--_muted);
    font-style: italic;
  }
  .cut {
    margin: 0;
    color: var(--_muted);
  }
  .arrow {
    position: absolute;
    width: 10px;
    height: 10px;
    background: var(--_background);
    border: 1px solid var(--_border);
    transform: rotate(45deg);
  }
  .popup[data-side='bottom'] .arrow {
    top: -6px;
    border-right: 0;
    border-bottom: 0;
  }
  .popup[data-side='top'] .arrow {
    bottom: -6px;
    border-left: 0;
    border-top: 0;
  }
  .popup[data-side='right'] .arrow {
    left: -6px;
    border-top: 0;
    border-right: 0;
  }
  .popup[data-side='left'] .arrow {
    right: -6px;
    border-bottom: 0;
    border-left: 0;
  }
`;
