import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * `vite build`: the module loader `doclens.js` and the chunks it loads on first use
 * (`doclens-<name>-<hash>.js`, beside it; a chunk's imports are fetched with it, not after it).
 * `vite build --mode classic`: `doclens.iife.js`, a classic script that loads `doclens.js`.
 */
export default defineConfig(({ mode }) => ({
  define: { __DOCLENS_VERSION__: JSON.stringify(version) },
  // Chunks are found relative to the loader, wherever it is served from.
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: mode !== 'classic',
    target: 'es2022',
    sourcemap: true,
    modulePreload: { polyfill: false },
    lib:
      mode === 'classic'
        ? { entry: 'widget/loader/classic.ts', name: 'doclens', formats: ['iife'], fileName: () => 'doclens.iife.js' }
        : false,
    rolldownOptions:
      mode === 'classic'
        ? { output: { minify: true } }
        : {
            input: 'widget/loader/doclens.ts',
            preserveEntrySignatures: 'strict',
            output: {
              minify: true,
              entryFileNames: 'doclens.js',
              // Hashed names, served with immutable caching, in the letters the proxy serves (`floating-ui.dom` →
              // `floating-ui-dom`); `doclens-search-…`, not `doclens-doclens-search-…`.
              chunkFileNames: ({ name }) => `doclens-${name.replace(/^doclens-/, '').replace(/[^\w-]/g, '-')}-[hash].js`,
            },
          },
  },
}));
