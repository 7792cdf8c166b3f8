/**
 * A formula as MathJax reads it from the page, the whole text of its node: `\(…\)` inline, `\[…\]` or `$$…$$` on a line
 * of its own, or a LaTeX environment alone (`\begin{equation}…\end{equation}`, which MathJax reads without delimiters
 * and nbsphinx leaves so). Sphinx (`sphinx.ext.mathjax`), MkDocs' arithmatex and Jupyter's exports write formulas so and
 * leave them to the page's MathJax.
 */
export const FORMULA = new RegExp(
  String.raw`^\s*(?:\\\((?<inline>[\s\S]+)\\\)|\\\[(?<display>[\s\S]+)\\\]|\$\$(?<block>[\s\S]+)\$\$|` +
    String.raw`(?<environment>\\begin\{(?<name>[A-Za-z]+\*?)\}[\s\S]*\\end\{\k<name>\}))\s*$`,
);

/** A formula a math library has laid out: MathML (MathJax's and KaTeX's hidden copy for screen readers too), MathJax's own. */
export const LAID_OUT_FORMULA = 'math, mjx-container, .MathJax, .katex';
