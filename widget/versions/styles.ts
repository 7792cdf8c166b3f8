import { css } from 'lit';

export const versionsStyles = css`
  :host {
    display: inline-block;
    font-size: 0.9rem;
  }
  :host([placement='floating']) .switcher {
    position: fixed;
    inset-inline-end: 16px;
    bottom: 16px;
    z-index: var(--_z);
  }
  .switcher {
    position: relative;
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
  .notice {
    position: fixed;
    inset-inline: 16px;
    top: 16px;
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
