import { css } from 'lit';

export const matchesStyles = css`
  /* The spot is chosen by script (data-spot) where no page control is under it; bottom-start by
     default. The parts of the layout viewport off screen are measured (--_outside-*) and kept clear. */
  .bar {
    --_edge: 16px;
    position: fixed;
    bottom: calc(var(--_edge) + var(--_outside-bottom, 0px));
    inset-inline-start: calc(var(--_edge) + var(--_outside-start, 0px));
    z-index: var(--_z);
    display: flex;
    align-items: center;
    gap: 2px;
    padding: 2px 2px 2px calc(var(--_space) * 1.25);
    border: 1px solid var(--_border);
    border-radius: 999px;
    background: var(--_background);
    box-shadow: var(--_shadow);
    font-size: 0.875em;
  }
  .bar[data-spot^='top'] {
    top: calc(var(--_edge) + var(--_outside-top, 0px));
    bottom: auto;
  }
  .bar[data-spot$='end'] {
    inset-inline-end: calc(var(--_edge) + var(--_outside-end, 0px));
    inset-inline-start: auto;
  }
  .count {
    min-width: 4.5em;
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }
  button {
    font: inherit;
    color: inherit;
    display: inline-grid;
    place-items: center;
    min-width: 36px;
    min-height: 36px;
    padding: 0 6px;
    border: 0;
    border-radius: 999px;
    background: transparent;
    cursor: pointer;
  }
  button:hover {
    background: var(--_surface);
  }
  button:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: -2px;
  }
  @media (max-width: 600px) {
    .bar {
      --_edge: 8px;
    }
  }
`;
