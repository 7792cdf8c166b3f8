import { css } from 'lit';
import { anchoredPopup } from '../shared/theme.ts';

export const settingsStyles = css`
  :host {
    display: inline-flex;
    vertical-align: middle;
  }
  [part='settings'] {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    width: 28px;
    height: 28px;
    padding: 4px;
    border: 0;
    border-radius: 4px;
    background: none;
    color: var(--_muted);
    cursor: pointer;
  }
  [part='settings']:hover,
  [part='settings'][aria-expanded='true'] {
    color: var(--_accent);
  }
  [part='settings']:focus-visible,
  [role='menuitemcheckbox']:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  svg {
    width: 18px;
    height: 18px;
  }
  /* In the top layer, placed beside the button by anchor(). */
  [role='menu'] {
    width: max-content;
    max-width: min(320px, calc(100vw - 16px));
    padding: 6px;
    ${anchoredPopup}
    font-size: 0.875em;
    line-height: 1.4;
  }
  [role='menu']:not(:popover-open) {
    display: none;
  }
  .heading {
    padding: 4px 8px 6px;
    font-size: 0.8em;
    font-weight: 600;
    color: var(--_muted);
  }
  [role='menuitemcheckbox'] {
    display: flex;
    align-items: center;
    gap: 10px;
    padding: 8px;
    border-radius: 4px;
    cursor: pointer;
    user-select: none;
  }
  [role='menuitemcheckbox']:hover,
  [role='menuitemcheckbox']:focus {
    background: var(--_surface);
  }
  .check {
    flex: none;
    box-sizing: border-box;
    width: 16px;
    height: 16px;
    border: 1.5px solid var(--_muted);
    border-radius: 4px;
    position: relative;
  }
  [aria-checked='true'] .check {
    border-color: var(--_accent);
    background: var(--_accent);
  }
  /* The tick: two borders of a rotated box. */
  [aria-checked='true'] .check::after {
    content: '';
    position: absolute;
    left: 4px;
    top: 1px;
    width: 4px;
    height: 8px;
    border: solid var(--_accent-text);
    border-width: 0 2px 2px 0;
    transform: rotate(45deg);
  }
  @media (pointer: coarse) {
    [part='settings'] {
      width: 36px;
      height: 36px;
    }
    [role='menuitemcheckbox'] {
      padding: 12px 8px;
    }
  }
`;
