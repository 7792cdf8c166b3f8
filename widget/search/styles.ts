import { css } from 'lit';

export const searchStyles = css`
  :host {
    display: inline-block;
  }
  /* The parts of the layout viewport off screen (a page wider than a phone's screen) are measured (--_outside-*) and kept clear. */
  :host([floating]) {
    position: fixed;
    top: calc(12px + var(--_outside-top, 0px));
    inset-inline-end: calc(16px + var(--_outside-end, 0px));
    z-index: var(--_z);
  }
  /* The corner is chosen by script (data-spot) where no page control is under it; top-end by default. */
  :host([floating][data-spot^='bottom']) {
    top: auto;
    bottom: calc(12px + var(--_outside-bottom, 0px));
  }
  :host([floating][data-spot$='start']) {
    inset-inline-start: calc(16px + var(--_outside-start, 0px));
    inset-inline-end: auto;
  }
  :host([floating]) .trigger {
    box-shadow: var(--_shadow);
  }
  /* Out of the way while the reader scrolls down through the text (scroll-away.ts), back on the way up. It fades, and
     does not move: a transform would make it the box of its fixed parts, which measure the viewport (clear-spot.ts). */
  :host([floating]) {
    transition: opacity 0.2s ease;
  }
  :host([floating][data-scrolled-away]:not([open])) {
    opacity: 0;
    visibility: hidden;
    transition:
      opacity 0.2s ease,
      visibility 0s 0.2s;
  }
  @media (prefers-reduced-motion: reduce) {
    :host([floating]),
    :host([floating][data-scrolled-away]:not([open])) {
      transition: none;
    }
  }
  button {
    font: inherit;
    color: inherit;
  }
  .trigger {
    display: inline-flex;
    align-items: center;
    gap: var(--_space);
    min-height: 36px;
    padding: 0 calc(var(--_space) * 1.25);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_background);
    color: var(--_muted);
    cursor: pointer;
  }
  .trigger:hover {
    border-color: var(--_accent);
  }
  .trigger:focus-visible,
  a:focus-visible,
  button:focus-visible,
  input[type='checkbox']:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  kbd {
    font: 0.8em var(--_mono);
    padding: 1px 5px;
    border: 1px solid var(--_border);
    border-radius: 4px;
    background: var(--_surface);
    color: var(--_muted);
  }
  svg {
    width: 1.1em;
    height: 1.1em;
    flex: none;
  }
  dialog {
    box-sizing: border-box;
    width: min(720px, calc(100vw - 32px));
    max-height: min(80vh, 720px);
    margin: 10vh auto auto;
    padding: 0;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 1.5);
    background: var(--_background);
    color: var(--_text);
    box-shadow: var(--_shadow);
    overflow: hidden;
  }
  dialog[open] {
    display: flex;
    flex-direction: column;
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.45);
  }
  .bar {
    display: flex;
    align-items: center;
    gap: var(--_space);
    padding: calc(var(--_space) * 1.5);
    border-bottom: 1px solid var(--_border);
  }
  /* The field lives in the page's light DOM, where the page's own rules (input { … } in a theme) reach it:
     important declarations of a shadow tree win over the page's, important or not. */
  ::slotted(input) {
    all: unset !important;
    flex: 1 !important;
    min-width: 0 !important;
    box-sizing: border-box !important;
    font: inherit !important;
    font-size: 1.1em !important;
    line-height: 1.5 !important;
    padding: var(--_space) !important;
    border: 0 !important;
    background: transparent !important;
    color: var(--_text) !important;
    caret-color: var(--_accent) !important;
    cursor: text !important;
    -webkit-appearance: none !important;
    appearance: none !important;
  }
  .copy {
    display: flex;
    width: 28px;
    height: 28px;
    border: 0;
    background: none;
    color: var(--_muted);
    cursor: pointer;
    padding: 4px;
    border-radius: 4px;
  }
  .copy:hover {
    color: var(--_accent);
  }
  .shared {
    display: flex;
    padding: calc(var(--_space) * 0.75) calc(var(--_space) * 1.5);
    border-bottom: 1px solid var(--_border);
    font-size: 0.85em;
    color: var(--_muted);
  }
  .shared label {
    display: flex;
    flex: 1;
    gap: var(--_space);
    align-items: center;
  }
  .shared input {
    flex: 1;
    min-width: 0;
    font: inherit;
  }
  .close {
    border: 0;
    background: none;
    cursor: pointer;
    padding: 4px;
    border-radius: 4px;
  }
  /* With a mouse, the Esc keycap says how to close (the word is for screen readers); a touch screen
     has no Escape key: a button with its name, big enough for a finger. */
  @media (pointer: coarse) {
    .close {
      min-width: 44px;
      min-height: 44px;
      padding: 0 var(--_space);
      font: inherit;
      font-size: 0.9em;
      color: var(--_accent);
    }
    .close kbd {
      display: none;
    }
    .close .label {
      position: static;
      width: auto;
      height: auto;
      overflow: visible;
      clip-path: none;
    }
  }
  .filters {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_space) * 2);
    padding: calc(var(--_space) * 0.75) calc(var(--_space) * 1.5);
    border-bottom: 1px solid var(--_border);
    font-size: 0.85em;
    color: var(--_muted);
  }
  .filters label {
    display: inline-flex;
    align-items: center;
    gap: 4px;
    cursor: pointer;
  }
  .body {
    flex: 1;
    overflow-y: auto;
    overscroll-behavior: contain;
    padding: var(--_space) 0;
  }
  [role='listbox'] {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .group {
    padding: calc(var(--_space) * 0.5) calc(var(--_space) * 1.5) 0;
  }
  [role='option'] {
    display: block;
    margin: 2px var(--_space);
    padding: calc(var(--_space) * 0.75) var(--_space);
    border-radius: var(--_radius);
    color: inherit;
    text-decoration: none;
    cursor: pointer;
  }
  [role='option'].section {
    margin-left: calc(var(--_space) * 3);
    border-left: 2px solid var(--_border);
    border-radius: 0 var(--_radius) var(--_radius) 0;
  }
  [role='option'][aria-selected='true'] {
    background: var(--_accent);
    color: var(--_accent-text);
  }
  [role='option'][aria-selected='true'] .muted,
  [role='option'][aria-selected='true'] .path,
  [role='option'][aria-selected='true'] .badge {
    color: inherit;
  }
  .title {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .path,
  .muted {
    font-size: 0.85em;
    color: var(--_muted);
    overflow-wrap: anywhere;
  }
  .snippet {
    margin-top: 2px;
    font-size: 0.9em;
    line-height: 1.4;
  }
  /* Two lines of a snippet, and of a section's title: an API entry's is its whole signature, which on a
     phone took the screen (pandas.read_csv has 50 parameters). The rest stays in the text read aloud. */
  .snippet,
  .title.hit {
    overflow: hidden;
    display: -webkit-box;
    -webkit-line-clamp: 2;
    -webkit-box-orient: vertical;
  }
  /* The matches the search marked (a page's badge, in its title, is none). */
  :is(.hit, .snippet, .title) span:not(.badge) {
    background: var(--_mark);
    color: var(--_mark-text);
    border-radius: 2px;
  }
  [aria-selected='true'] :is(.hit, .snippet, .title) span:not(.badge) {
    background: transparent;
    text-decoration: underline;
    color: inherit;
  }
  /* High contrast (Windows): the system's own colours for the chosen row and the matches, which it would
     otherwise paint as everything else; in the chosen row a match stays underlined. */
  @media (forced-colors: active) {
    [role='option'][aria-selected='true'] {
      forced-color-adjust: none;
      background: Highlight;
      color: HighlightText;
    }
    :is(.hit, .snippet, .title) span:not(.badge) {
      forced-color-adjust: none;
      background: Mark;
      color: MarkText;
    }
    [aria-selected='true'] :is(.hit, .snippet, .title) span:not(.badge) {
      background: transparent;
      color: inherit;
    }
  }
  .badge {
    display: inline-block;
    margin-left: 6px;
    padding: 0 6px;
    border: 1px solid currentColor;
    border-radius: 999px;
    font-size: 0.75em;
    font-weight: normal;
    color: var(--_muted);
  }
  .state {
    padding: calc(var(--_space) * 3) calc(var(--_space) * 2);
    text-align: center;
    color: var(--_muted);
  }
  .state strong {
    display: block;
    color: var(--_text);
    margin-bottom: 4px;
  }
  .state.error strong {
    color: var(--_danger);
  }
  .action {
    margin-top: var(--_space);
    padding: 6px 14px;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    cursor: pointer;
  }
  .more {
    display: block;
    margin: var(--_space) auto;
  }
  .recent {
    list-style: none;
    margin: 0;
    padding: 0 var(--_space);
  }
  .recent li {
    display: flex;
    align-items: center;
    border-radius: var(--_radius);
  }
  .recent li button.query {
    flex: 1;
    text-align: start;
    padding: var(--_space);
    border: 0;
    background: none;
    cursor: pointer;
    border-radius: var(--_radius);
  }
  .recent li:hover {
    background: var(--_surface);
  }
  .recent li[data-active] {
    background: var(--_accent);
    color: var(--_accent-text);
  }
  .recent li[data-active] button {
    color: inherit;
  }
  .recent .remove {
    border: 0;
    background: none;
    cursor: pointer;
    padding: 4px 8px;
    color: var(--_muted);
  }
  .recent-head {
    display: flex;
    justify-content: space-between;
    align-items: center;
    padding: 0 calc(var(--_space) * 1.5) 4px;
    font-size: 0.85em;
    color: var(--_muted);
  }
  .recent-head button {
    border: 0;
    background: none;
    color: var(--_accent);
    cursor: pointer;
  }
  .spinner {
    width: 16px;
    height: 16px;
    border: 2px solid var(--_border);
    border-top-color: var(--_accent);
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
    flex: none;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  footer {
    padding: calc(var(--_space) * 0.75) calc(var(--_space) * 1.5);
    border-top: 1px solid var(--_border);
    font-size: 0.8em;
    color: var(--_muted);
  }
  @media (max-width: 640px), (max-height: 480px) {
    dialog {
      width: 100vw;
      max-width: 100vw;
      height: 100dvh;
      max-height: 100dvh;
      margin: 0;
      border: 0;
      border-radius: 0;
    }
    footer {
      display: none;
    }
    [role='option'] {
      padding: calc(var(--_space) * 1.25) var(--_space);
    }
  }
`;
