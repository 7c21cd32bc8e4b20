// Builds the Foundry module: src/foundry/main.js bundled with the shim core,
// socket.io-client and the msgpack parser (pinned in package.json) ->
// dist/foundry/vtt-bridge/ with module.json, the lang files and the styles.
// `make foundry-module` zips that folder.
import { build } from 'esbuild';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const out = here('./dist/foundry/vtt-bridge/');

export async function buildFoundry({ outdir = out, quiet = false } = {}) {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const pkg = JSON.parse(await readFile(here('./package.json'), 'utf8'));
  const manifest = JSON.parse(await readFile(here('./src/foundry/module.json'), 'utf8'));
  await build({
    entryPoints: [here('./src/foundry/main.js')],
    outfile: `${outdir}/vtt-bridge.js`,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: false,
    sourcemap: true,
    legalComments: 'inline',
    banner: { js: `// vtt-bridge Foundry module ${manifest.version}: socket.io-client ${pkg.dependencies['socket.io-client']}, socket.io-msgpack-parser ${pkg.dependencies['socket.io-msgpack-parser']}` },
    logLevel: 'warning',
  });
  await writeFile(`${outdir}/module.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  await cp(here('./src/foundry/lang'), `${outdir}/lang`, { recursive: true });
  await cp(here('./src/foundry/vtt-bridge.css'), `${outdir}/vtt-bridge.css`);
  if (!quiet) console.log(`built ${outdir}`);
  return outdir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = process.argv[2];
  await buildFoundry(dir ? { outdir: dir } : {});
}
