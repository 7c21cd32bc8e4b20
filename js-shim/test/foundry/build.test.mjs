// Builds the module and checks the manifest, the files it names, and that the
// bundle imports in node and registers its hooks with a fake Foundry.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { buildFoundry } from '../../build-foundry.mjs';
import { fakeFoundry } from './fake-foundry.mjs';

test('the built module has a valid manifest and a bundle that registers its hooks', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'vtt-foundry-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await buildFoundry({ outdir: dir, quiet: true });
  const manifest = JSON.parse(await readFile(join(dir, 'module.json'), 'utf8'));
  assert.equal(manifest.id, 'vtt-bridge');
  assert.deepEqual(manifest.compatibility, { minimum: '12', verified: '13' });
  assert.deepEqual(manifest.languages.map((l) => l.lang).sort(), ['en', 'es']);
  for (const file of [...manifest.esmodules, ...manifest.styles, ...manifest.languages.map((l) => l.path)]) {
    assert.ok((await stat(join(dir, file))).size > 0, `${file} is in the build`);
  }
  const en = JSON.parse(await readFile(join(dir, 'lang/en.json'), 'utf8'));
  const es = JSON.parse(await readFile(join(dir, 'lang/es.json'), 'utf8'));
  assert.deepEqual(Object.keys(es).sort(), Object.keys(en).sort());
  const bundle = await readFile(join(dir, manifest.esmodules[0]), 'utf8');
  assert.doesNotMatch(bundle, /from\s+["'](socket\.io-client|socket\.io-msgpack-parser)["']/, 'dependencies are bundled');

  const fake = fakeFoundry({ system: 'swade' });
  const saved = {};
  for (const key of Object.keys(fake.g)) {
    saved[key] = globalThis[key];
    globalThis[key] = fake.g[key];
  }
  try {
    await import(`${pathToFileURL(join(dir, manifest.esmodules[0])).href}?t=${Date.now()}`);
    fake.hooks.call('init');
  } finally {
    for (const key of Object.keys(fake.g)) globalThis[key] = saved[key];
  }
  for (const hook of ['init', 'ready', 'renderActorSheetV2', 'renderActorSheet', 'renderChatMessageHTML', 'renderChatMessage', 'renderTokenHUD', 'updateActor', 'combatRound']) {
    assert.ok(fake.hooks.handlers.get(hook)?.length, `registers ${hook}`);
  }
  assert.equal(fake.settings.get('vtt-bridge.gmToken').scope, 'client');
  assert.equal(fake.settings.get('vtt-bridge.playerToken').scope, 'client');
  assert.equal(fake.settings.get('vtt-bridge.url').scope, 'world');
  assert.ok(fake.menus.has('vtt-bridge.mappingMenu'));
});
