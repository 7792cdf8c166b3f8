import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { ENCODED_SUFFIX } from './runtime/encoded-files.ts';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Each script's brotli and gzip copies beside it, at their best ratios, which take too long to make per
 * request: the proxy and `doclens host` send them as `Accept-Encoding` asks (runtime/encoded-files.ts).
 */
function precompressed(): Plugin {
  return {
    name: 'doclens-precompressed',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const name of Object.keys(bundle).filter((file) => file.endsWith('.js'))) {
        const path = join(options.dir!, name);
        const source = readFileSync(path);
        const copies = {
          br: brotliCompressSync(source, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
          }),
          gzip: gzipSync(source, { level: 9 }),
        };
        for (const [encoding, copy] of Object.entries(copies) as [keyof typeof ENCODED_SUFFIX, Buffer][])
          if (copy.length < source.length) writeFileSync(`${path}${ENCODED_SUFFIX[encoding]}`, copy);
      }
    },
  };
}

/**
 * `vite build`: the module loader `doclens.js` and the chunks it loads on first use
 * (`doclens-<name>-<hash>.js`, beside it; a chunk's imports are fetched with it, not after it).
 * `vite build --mode classic`: `doclens.iife.js`, a classic script that loads `doclens.js`.
 */
export default defineConfig(({ mode }) => ({
  define: { __DOCLENS_VERSION__: JSON.stringify(version) },
  // Chunks are found relative to the loader, wherever it is served from.
  base: './',
  plugins: [precompressed()],
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
