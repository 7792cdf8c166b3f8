import { benchExtraction } from './extraction.ts';
import { benchSearch } from './search.ts';

console.log(`doclens benchmarks — node ${process.version}, ${new Date().toISOString()}`);
benchExtraction();
benchSearch();
