// Bundles the built-in table page: src/table/main.js -> ../bridge/static/dist/table.js
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

await build({
  entryPoints: [here('./src/table/main.js')],
  outfile: here('../bridge/static/dist/table.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: false,
  sourcemap: true,
  logLevel: 'warning',
});
console.log('built bridge/static/dist/table.js');
