import { FORMULA } from '../shared/formulas.ts';
import { sanitizeMath } from '../shared/sanitize.ts';

/** Where TeX is the text shown, not a formula: code and its samples. */
const LITERAL = 'code, pre, kbd, samp';
/** Bounds of the work a preview's text asks of the reader's browser: longer formulas, or more, stay as TeX. */
const MAX_FORMULAS = 100;
const MAX_TEX = 4000;
/** LaTeX's that MathJax reads and Temml does not (SciPy's and mpmath's formulas use `\mbox`). */
const MACROS = { '\\mbox': '\\text' };

/** Temml, loaded with the first preview that has a formula; out of reach (a deployment without its file), undefined. */
const loadTemml = () =>
  import('temml').then(
    (module) => module.default,
    () => undefined,
  );

type Temml = NonNullable<Awaited<ReturnType<typeof loadTemml>>>;

interface Formula {
  node: Text;
  tex: string;
  display: boolean;
}

function formulasIn(root: DocumentFragment): Formula[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found: Formula[] = [];
  for (let node = walker.nextNode() as Text | null; node && found.length < MAX_FORMULAS; node = walker.nextNode() as Text | null) {
    const groups = FORMULA.exec(node.data)?.groups;
    if (!groups || node.parentElement?.closest(LITERAL)) continue;
    const tex = groups.inline ?? groups.display ?? groups.block ?? groups.environment!;
    if (tex.length <= MAX_TEX) found.push({ node, tex, display: groups.inline === undefined });
  }
  return found;
}

/** Writes `tex` into `holder` as Temml lays it out; false for TeX it cannot read (a macro of the site's own): it stays as written. */
function written(temml: Temml, holder: HTMLElement, tex: string, displayMode: boolean): boolean {
  try {
    temml.render(tex, holder, { displayMode, throwOnError: true, trust: false, macros: { ...MACROS }, wrap: 'tex' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes the formulas of sanitized preview content (`FORMULA`: shown as they come, the page's MathJax never sees them, a
 * reader gets TeX's source) in MathML, which browsers lay out themselves, in a shadow root too; says how many. Temml,
 * which writes it, loads with the first preview that has a formula; one it cannot read stays TeX.
 */
export async function layOutFormulas(content: DocumentFragment): Promise<number> {
  const formulas = formulasIn(content);
  if (formulas.length === 0) return 0;
  const temml = await loadTemml();
  // Its file out of reach, TeX is still the formula.
  if (!temml) return 0;
  let laidOut = 0;
  for (const { node, tex, display } of formulas) {
    // Written as nodes, never parsed from markup: Temml's spacing in style attributes would break a strict CSP.
    const holder = document.createElement('span');
    // MathJax reads an environment in inline math too (nbsphinx's `\(\begin{align}…\)`); Temml only in display mode.
    if (!written(temml, holder, tex, display) && (display || !written(temml, holder, tex, true))) continue;
    node.replaceWith(...sanitizeMath(holder).childNodes);
    laidOut++;
  }
  return laidOut;
}
