import { benchExtraction } from './extraction.ts';
import { benchLoad } from './load.ts';
import { benchProxy } from './proxy.ts';
import { benchSearch } from './search.ts';
import { benchWidget } from './widget.ts';

console.log(`doclens benchmarks — node ${process.version}, ${new Date().toISOString()}`);
benchExtraction();
benchSearch();
await benchProxy();
await benchLoad();
await benchWidget();
