import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// One self-contained file per format: `doclens.js` (ES module) and `doclens.iife.js` (classic script).
export default defineConfig({
  define: { __DOCLENS_VERSION__: JSON.stringify(version) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    lib: {
      entry: 'widget/loader/doclens.ts',
      name: 'doclens',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'doclens.js' : 'doclens.iife.js'),
    },
    rolldownOptions: {
      output: { minify: true },
    },
  },
});
