import { benchExtraction } from './extraction.ts';
import { benchFairness } from './fairness.ts';
import { benchIndex } from './index.ts';
import { benchIsolation } from './isolation.ts';
import { benchLoad } from './load.ts';
import { benchMemory } from './memory.ts';
import { benchProxy } from './proxy.ts';
import { benchReplicas } from './replicas.ts';
import { benchStatic } from './static.ts';
import { benchWidget } from './widget.ts';

/** Every benchmark in the order they run; `npm run bench -- memory load` runs only those named. */
const BENCHES: Record<string, () => unknown> = {
  extraction: benchExtraction,
  index: benchIndex,
  static: benchStatic,
  proxy: benchProxy,
  replicas: benchReplicas,
  load: benchLoad,
  memory: benchMemory,
  isolation: benchIsolation,
  fairness: benchFairness,
  widget: benchWidget,
};

const named = process.argv.slice(2);
const unknown = named.filter((name) => !(name in BENCHES));
if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(', ')} (benchmarks: ${Object.keys(BENCHES).join(', ')})`);
console.log(`doclens benchmarks — node ${process.version}, ${new Date().toISOString()}`);
for (const [name, bench] of Object.entries(BENCHES)) if (named.length === 0 || named.includes(name)) await bench();
