import { css } from 'lit';

export const versionsStyles = css`
  :host {
    display: inline-block;
  }
  /* A little smaller than the widget's other text (of its size, see \`themeStyles\`). */
  .switcher,
  .notice {
    font-size: 0.9em;
  }
  :host {
    --_edge: 16px;
  }
  /* The corner is chosen by script (data-spot) where no page control is under it; bottom-end by default. */
  /* The parts of the layout viewport off screen are measured (--_outside-*) and kept clear. */
  :host([placement='floating']) .switcher {
    position: fixed;
    inset-inline-end: calc(var(--_edge) + var(--_outside-end, 0px));
    bottom: calc(var(--_edge) + var(--_outside-bottom, 0px));
    z-index: var(--_z);
    display: flex;
    align-items: center;
    gap: 4px;
  }
  :host([placement='floating']) .switcher[data-spot^='top'] {
    top: calc(var(--_edge) + var(--_outside-top, 0px));
    bottom: auto;
  }
  :host([placement='floating']) .switcher[data-spot$='start'] {
    inset-inline-start: calc(var(--_edge) + var(--_outside-start, 0px));
    inset-inline-end: auto;
  }
  .switcher {
    position: relative;
  }
  @media (max-width: 600px) {
    :host {
      --_edge: 8px;
    }
  }
  button {
    font: inherit;
    color: inherit;
  }
  .toggle {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    min-height: 34px;
    padding: 0 12px;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_background);
    box-shadow: var(--_shadow);
    cursor: pointer;
  }
  :host([placement='inline']) .toggle {
    box-shadow: none;
  }
  .collapse,
  .badge,
  .notice-badge {
    min-width: 28px;
    height: 28px;
    padding: 0 8px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    background: var(--_background);
    box-shadow: var(--_shadow);
    color: var(--_muted);
    font-size: 0.85em;
    cursor: pointer;
  }
  /* The settings button (a doclens-settings) floats as a round button beside the toggle. */
  :host([placement='floating']) doclens-settings::part(settings) {
    box-sizing: border-box;
    border: 1px solid var(--_border);
    border-radius: 999px;
    background: var(--_background);
    box-shadow: var(--_shadow);
  }
  .badge {
    max-width: 9em;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    color: var(--_text);
  }
  .notice-badge {
    border-color: var(--_accent);
    color: var(--_accent);
    font-weight: 700;
  }
  .toggle:focus-visible,
  [role='menuitemradio']:focus-visible,
  [role='menuitem']:focus-visible,
  a:focus-visible,
  button:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  .chevron {
    font-size: 0.7em;
    color: var(--_muted);
  }
  [role='menu'] {
    position: absolute;
    inset-inline-end: 0;
    bottom: calc(100% + 6px);
    min-width: 220px;
    max-height: min(70vh, 480px);
    overflow: auto;
    padding: 6px;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_background);
    box-shadow: var(--_shadow);
  }
  [data-spot^='top'] [role='menu'] {
    bottom: auto;
    top: calc(100% + 6px);
  }
  [data-spot$='start'] [role='menu'] {
    inset-inline-start: 0;
    inset-inline-end: auto;
  }
  :host([placement='inline']) [role='menu'] {
    bottom: auto;
    top: calc(100% + 6px);
    inset-inline-start: 0;
    inset-inline-end: auto;
  }
  .group-label {
    padding: 6px 8px 2px;
    font-size: 0.75em;
    font-weight: 600;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    color: var(--_muted);
  }
  [role='menuitemradio'],
  [role='menuitem'] {
    display: flex;
    justify-content: space-between;
    gap: 12px;
    padding: 6px 8px;
    border-radius: 4px;
    color: inherit;
    text-decoration: none;
  }
  [role='menuitemradio']:hover,
  [role='menuitem']:hover,
  [role='menuitemradio']:focus,
  [role='menuitem']:focus {
    background: var(--_surface);
  }
  [aria-checked='true'] {
    font-weight: 600;
    color: var(--_accent);
  }
  .kind {
    font-size: 0.8em;
    color: var(--_muted);
  }
  /* Under the entry's name: where the reader would land on a start page instead. */
  [role='menuitemradio'] {
    flex-wrap: wrap;
  }
  .missing {
    flex-basis: 100%;
    font-size: 0.75em;
    font-style: italic;
    color: var(--_muted);
  }
  /* On the top edge, or above the switcher's row on the bottom one; centred or in a corner. */
  .notice {
    position: fixed;
    inset-inline: calc(var(--_edge) + var(--_outside-start, 0px)) calc(var(--_edge) + var(--_outside-end, 0px));
    top: calc(var(--_edge) + var(--_outside-top, 0px));
    z-index: var(--_z);
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px 16px;
    max-width: 720px;
    margin: 0 auto;
    padding: 10px 14px;
    border: 1px solid var(--_border);
    border-inline-start: 4px solid var(--_accent);
    border-radius: var(--_radius);
    background: var(--_background);
    box-shadow: var(--_shadow);
  }
  .notice[data-spot^='bottom'] {
    top: auto;
    bottom: calc(var(--_edge) + 44px + var(--_outside-bottom, 0px));
  }
  .notice[data-spot$='start'],
  .notice[data-spot$='end'] {
    max-width: 420px;
  }
  .notice[data-spot$='start'] {
    margin-inline-start: 0;
  }
  .notice[data-spot$='end'] {
    margin-inline-end: 0;
  }
  @media (max-width: 600px) {
    .notice {
      gap: 2px 12px;
      padding: 6px 10px;
      font-size: 0.81em;
    }
  }
  :host([placement='inline']) .notice {
    position: static;
    margin: 8px 0;
  }
  .notice a {
    color: var(--_accent);
    font-weight: 600;
  }
  .notice .dismiss {
    margin-inline-start: auto;
    border: 0;
    background: none;
    cursor: pointer;
    color: var(--_muted);
  }
`;
