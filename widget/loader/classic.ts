/**
 * `doclens.iife.js`, for pages that take only classic scripts (MkDocs' `extra_javascript`): it loads
 * the module loader beside it, which finds this tag and reads its `data-*` options.
 */
const tag =
  document.currentScript instanceof HTMLScriptElement
    ? document.currentScript
    : document.querySelector<HTMLScriptElement>('script[src*="doclens.iife"]');
if (tag?.src)
  import(/* @vite-ignore */ new URL('doclens.js', tag.src).href).catch(() =>
    console.warn('doclens: doclens.js did not load from beside doclens.iife.js'),
  );
