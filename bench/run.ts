import { benchExtraction } from './extraction.ts';
import { benchProxy } from './proxy.ts';
import { benchSearch } from './search.ts';

console.log(`doclens benchmarks — node ${process.version}, ${new Date().toISOString()}`);
benchExtraction();
benchSearch();
await benchProxy();
