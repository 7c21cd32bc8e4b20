// Builds the Roll20 bridge: the userscript (src/roll20/main.js, bundled with
// the shim core, socket.io-client and the msgpack parser, behind a userscript
// header) -> dist/roll20/vtt-bridge.user.js, and the Mod script (plain JS,
// copied as it is) -> dist/roll20/vtt-bridge-mod.js.
import { build } from 'esbuild';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const { version } = JSON.parse(await readFile(here('./package.json'), 'utf8'));

const header = [
  '// ==UserScript==',
  '// @name         vtt-bridge for Roll20',
  '// @namespace    vtt-bridge',
  `// @version      ${version}`,
  '// @description  Plays vtt-bridge rule systems in Roll20: cards in the chat, !vtt commands, token statuses through the Mod script',
  '// @match        https://app.roll20.net/editor/*',
  '// @match        https://app.roll20.net/editor',
  '// @grant        none',
  '// @run-at       document-idle',
  '// ==/UserScript==',
  '',
].join('\n');

await mkdir(here('./dist/roll20'), { recursive: true });
await build({
  entryPoints: [here('./src/roll20/main.js')],
  outfile: here('./dist/roll20/vtt-bridge.user.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2020'],
  minify: false,
  legalComments: 'inline',
  banner: { js: header },
  logLevel: 'warning',
});
await copyFile(here('./src/roll20-mod/vtt-bridge-mod.js'), here('./dist/roll20/vtt-bridge-mod.js'));
console.log('built dist/roll20/vtt-bridge.user.js and dist/roll20/vtt-bridge-mod.js');
