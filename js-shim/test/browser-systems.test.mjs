// Every system, played through the table page: for each scenario file in
// test/scenarios/<system>.json (format: tests/support/scenario.py), a fresh
// data dir, a demo world of that system, the real server with seeded dice,
// and the GM's page in headless Chromium. Steps are clicks: the actor's token,
// the sheet button, the ask form, the targets, send; follow-ups on the newest
// card. Rounds repeat until the target's token shows one of the statuses.
// A scenario that never gets there fails (never skips).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { createWorld, makeDataDir, python, REPO, startServer, startTable } from '../test-helpers/server.mjs';
import { rm } from 'node:fs/promises';

const run = promisify(execFile);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// VTT_SCENARIOS: another scenario dir (to try a scenario before it lands in test/scenarios).
const SCENARIOS = process.env.VTT_SCENARIOS || join(REPO, 'js-shim', 'test', 'scenarios');
const DICE_SEED = 7;

const files = existsSync(SCENARIOS) ? readdirSync(SCENARIOS).filter((f) => f.endsWith('.json')).sort() : [];
const scenarios = files.map((file) => {
  const scenario = JSON.parse(readFileSync(join(SCENARIOS, file), 'utf8'));
  return { file, system: scenario.system ?? file.replace(/\.json$/, ''), scenario };
});

/** Records every request the page's client makes, with its ack (the page shows errors; we read them here). */
function recordRequests() {
  const client = window.vttTable.state.client;
  if (client.__recorded) return;
  const request = client.request;
  window.__acks = [];
  client.request = async (event, payload) => {
    const ack = await request(event, payload);
    window.__acks.push({ event, payload, ack });
    return ack;
  };
  client.__recorded = true;
}

describe('every system played through the table page', () => {
  let browser;
  const ran = [];

  before(async () => {
    assert.ok(
      existsSync(CHROMIUM),
      `No Chromium at ${CHROMIUM}. Install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM=/path/to/chromium.`,
    );
    assert.ok(scenarios.length > 0, `no scenario files in ${SCENARIOS}`);
    await run('npm', ['run', '--silent', 'build'], { cwd: join(REPO, 'js-shim') });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  after(async () => {
    await browser?.close();
    console.log(`# systems played through the table page: ${ran.map((r) => `${r.system} (${r.result})`).join(', ') || 'none'}`);
  });

  test('every registered system has a scenario file', async () => {
    const { stdout } = await run(
      python(),
      ['-c', 'import json; from rules.registry import default_registry; print(json.dumps(sorted(default_registry().systems)))'],
      { cwd: REPO },
    );
    const registered = JSON.parse(stdout);
    const missing = registered.filter((id) => !scenarios.some((s) => s.system === id));
    assert.deepEqual(missing, [], `registered systems without js-shim/test/scenarios/<system>.json: ${missing.join(', ')}`);
  });

  for (const { file, system, scenario } of scenarios) {
    test(`${system}: ${file} reaches its status through the UI`, async (t) => {
      const entry = { system, result: 'failed' };
      ran.push(entry);
      const table = await startTable({ system, name: `Mesa ${system}`, diceSeed: DICE_SEED });
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const errors = [];
      try {
        const page = await context.newPage();
        page.on('pageerror', (error) => errors.push(error.message));
        page.on('console', (msg) => {
          if (msg.type() === 'error') errors.push(msg.text());
        });
        const query = new URLSearchParams({ token: table.world.gm_token, user: 'gm', name: 'Directora', locale: 'es' });
        await page.goto(`${table.server.url}/?${query}`);
        await page.waitForSelector('body[data-connection="connected"]');
        await page.evaluate(recordRequests);
        const rounds = await play(page, scenario, t);
        entry.result = `${rounds} round${rounds === 1 ? '' : 's'}`;
        t.diagnostic(`${system}: ${scenario.until_status.actor} got a status in ${entry.result}`);
        await page.screenshot({ path: `/tmp/table-${system}.png` });
        assert.deepEqual(errors, [], 'no page errors');
      } catch (error) {
        const page = context.pages()[0];
        await page?.screenshot({ path: `/tmp/table-${system}.png` }).catch(() => {});
        throw new Error(`${system}: ${error.message}${errors.length ? `\npage errors: ${errors.join('\n')}` : ''}`, { cause: error });
      } finally {
        await context.close();
        await table.cleanup();
      }
    });
  }
});

/** Plays `scenario` in `page`; returns the round the status showed in, or throws. */
async function play(page, scenario) {
  const goal = scenario.until_status;
  const maxRounds = scenario.max_rounds ?? 30;
  const tokenSel = `.token[data-actor="${goal.actor}"]`;
  await page.waitForSelector(tokenSel);
  const reached = () =>
    page.$$eval(`${tokenSel} .status[data-status]`, (nodes, wanted) => nodes.some((n) => wanted.includes(n.dataset.status)), goal.any_of);
  const log = [];
  for (let round = 1; round <= maxRounds; round += 1) {
    for (const [index, step] of scenario.steps.entries()) {
      const where = `round ${round}, step ${index + 1}`;
      const ack = 'follow' in step ? await follow(page, step, where) : await press(page, step, where);
      if (ack) {
        log.push(`${where}: ${ack.event} ${ack.ok ? `ok seq ${ack.seq}` : ack.code}`);
        assert.notEqual(ack.code, 'internal_error', `${where}: the server failed: ${JSON.stringify(ack)}`);
      }
      if (await reached()) return round;
    }
  }
  const shown = await page.$$eval(`${tokenSel} .status[data-status]`, (nodes) => nodes.map((n) => n.dataset.status));
  throw new Error(
    `${goal.actor} never showed any of ${goal.any_of.join(', ')} in ${maxRounds} rounds (shows: ${shown.join(', ') || 'nothing'}); last requests:\n${log.slice(-8).join('\n')}`,
  );
}

/** Waits for the page's next request to be acked; returns {event, ok, seq, code}. */
async function nextAck(page, before, where) {
  const handle = await page
    .waitForFunction((n) => window.__acks.length > n && window.__acks[n], before, { timeout: 15000 })
    .catch(async () => {
      throw new Error(`${where}: no request was sent or acked; errors shown: ${await page.textContent('#errors')}`);
    });
  const { event, ack } = await handle.jsonValue();
  return { event, ok: ack.ok, seq: ack.seq, code: ack.error?.code, error: ack.error };
}

/** Fills an ask form (sheet or follow-up) from `values`; every value needs its field. */
async function fill(form, values, where) {
  for (const [name, value] of Object.entries(values ?? {})) {
    const input = form.locator(`[data-param="${name}"]`);
    assert.equal(await input.count(), 1, `${where}: the form has no field "${name}"`);
    const tag = await input.evaluate((node) => `${node.tagName}:${node.type}`);
    if (tag.startsWith('SELECT')) await input.selectOption(String(value));
    else if (tag === 'INPUT:checkbox') await input.setChecked(Boolean(value));
    else await input.fill(String(value));
  }
}

async function press(page, step, where) {
  await page.click(`.token[data-actor="${step.actor}"]`);
  await page.waitForSelector(`#sheet .sheet-head[data-actor="${step.actor}"]`);
  const index = await page.$$eval(
    '#sheet .sheet-button',
    (buttons, { action, params }) =>
      buttons.findIndex((b) => {
        if (b.dataset.action !== action) return false;
        const own = JSON.parse(b.dataset.params || '{}');
        return Object.entries(params).every(([k, v]) => JSON.stringify(own[k]) === JSON.stringify(v));
      }),
    { action: step.action, params: step.params ?? {} },
  );
  assert.ok(index >= 0, `${where}: ${step.actor}'s sheet has no button ${step.action} ${JSON.stringify(step.params ?? {})}`);
  const before = await page.evaluate(() => window.__acks.length);
  await page.locator('#sheet .sheet-button').nth(index).click();
  const form = page.locator('#sheet form.ask');
  if (await form.count()) {
    await fill(form, step.ask, where);
    for (const target of step.targets ?? []) {
      const box = form.locator(`input[data-target="${target}"]`);
      assert.equal(await box.count(), 1, `${where}: the form offers no target "${target}"`);
      await box.check();
    }
    await form.locator('button[type="submit"]').click();
  } else {
    assert.ok(!step.targets?.length && !Object.keys(step.ask ?? {}).length, `${where}: the button opened no form for ask/targets`);
  }
  const ack = await nextAck(page, before, where);
  // A refused request leaves its form open (the error is shown): close it, go on.
  if (!ack.ok && (await form.count())) await form.locator('button:not([type="submit"])').click();
  return ack;
}

async function follow(page, step, where) {
  // The newest card with an enabled follow-up whose id starts with the text.
  const found = await page.$$eval(
    '#chat .chat-item',
    (items, prefix) => {
      for (const item of [...items].reverse()) {
        const button = [...item.querySelectorAll('button.vtt-follow')].find((b) => !b.disabled && b.dataset.action.startsWith(prefix));
        if (button) return { card: button.dataset.card, action: button.dataset.action };
      }
      return null;
    },
    step.follow,
  );
  if (!found) return null; // no card has one: the step is skipped
  const before = await page.evaluate(() => window.__acks.length);
  const item = page.locator(`#chat .chat-item[data-card="${found.card}"]`);
  await item.locator(`button.vtt-follow[data-action="${found.action}"]`).click();
  const form = item.locator('.chat-ask form.ask');
  if (await form.count()) {
    await fill(form, step.ask, where);
    await form.locator('button[type="submit"]').click();
  }
  const ack = await nextAck(page, before, where);
  if (!ack.ok && (await form.count())) await form.locator('button:not([type="submit"])').click();
  return ack;
}

/** The systems the Python side registers. */
async function registeredSystems() {
  const { stdout } = await run(
    python(),
    ['-c', 'import json; from rules.registry import default_registry; print(json.dumps(sorted(default_registry().systems)))'],
    { cwd: REPO },
  );
  return JSON.parse(stdout);
}

describe("every system's demo sheets and ask forms in the table page", () => {
  let browser;
  let server;
  let data;
  const worlds = {};

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `No Chromium at ${CHROMIUM}.`);
    await run('npm', ['run', '--silent', 'build'], { cwd: join(REPO, 'js-shim') });
    data = await makeDataDir();
    for (const system of await registeredSystems()) worlds[system] = await createWorld(data, { system, name: `Demo ${system}` });
    server = await startServer(data, { diceSeed: DICE_SEED });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });

  after(async () => {
    await browser?.close();
    await server?.stop('SIGKILL');
    if (data) await rm(data, { recursive: true, force: true });
  });

  test('each actor sheet renders as text, each button opens a form with a field per ask param', async (t) => {
    const problems = [];
    for (const [system, world] of Object.entries(worlds)) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const errors = [];
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(error.message));
      const query = new URLSearchParams({ token: world.gm_token, user: 'gm', name: 'GM', locale: 'es' });
      await page.goto(`${server.url}/?${query}`);
      await page.waitForSelector('body[data-connection="connected"]');
      const actors = await page.evaluate(() => [...window.vttTable.state.actors.values()]);
      let forms = 0;
      const kinds = new Set();
      const seenShapes = new Set();
      await page.evaluate(recordRequests);
      for (const actor of actors) {
        await page.click(`.token[data-actor="${actor.id}"]`);
        await page.waitForSelector(`#sheet .sheet-head[data-actor="${actor.id}"]`);
        const text = await page.textContent('#sheet .sheet-details');
        if (/\[object |undefined|NaN/.test(text)) problems.push(`${system}/${actor.id}: the sheet shows "${text.match(/\[object \w+\]|undefined|NaN/)[0]}"`);
        assert.equal(await page.locator('#sheet .sheet-button').count(), actor.buttons.length, `${system}/${actor.id}: one sheet button per button (GM)`);
        for (const [i, button] of actor.buttons.entries()) {
          // Buttons that send at once are not pressed here; one form per shape of form is enough.
          const shape = JSON.stringify([button.action, button.ask.map((p) => [p.name, p.kind, p.choices]), button.min_targets, button.max_targets]);
          if ((button.ask.length === 0 && button.max_targets === 0) || seenShapes.has(shape)) continue;
          seenShapes.add(shape);
          const where = `${system}/${actor.id}/${button.action} ${JSON.stringify(button.params)}`;
          await page.locator('#sheet .sheet-button').nth(i).click();
          const form = page.locator('#sheet form.ask');
          forms += 1;
          for (const param of button.ask) {
            kinds.add(param.kind);
            const field = form.locator(`[data-param="${param.name}"]`);
            if ((await field.count()) !== 1) {
              problems.push(`${where}: no field for ${param.name}`);
              continue;
            }
            const shape = await field.evaluate((node) => `${node.tagName.toLowerCase()}:${node.type}`);
            const want = { int: 'input:number', str: 'input:text', bool: 'input:checkbox', choice: 'select:select-one' }[param.kind];
            if (shape !== want) problems.push(`${where}: ${param.name} (${param.kind}) is a ${shape}`);
            if (param.kind === 'choice') {
              const values = await field.evaluate((node) => [...node.options].map((o) => o.value).filter(Boolean));
              if (JSON.stringify(values) !== JSON.stringify(param.choices)) problems.push(`${where}: ${param.name} offers ${values}`);
            }
          }
          const boxes = await form.locator('input[data-target]').count();
          if (button.max_targets > 0 && boxes !== actors.length) problems.push(`${where}: ${boxes} targets offered of ${actors.length}`);
          if (button.max_targets === 0 && boxes !== 0) problems.push(`${where}: targets offered for a button that takes none`);
          if (button.min_targets > 0) {
            // Too few targets: the form says so and sends nothing.
            for (const param of button.ask.filter((p) => p.required && p.kind === 'int')) {
              await form.locator(`[data-param="${param.name}"]`).fill(String(Math.max(param.minimum, 1)));
            }
            await form.locator('button[type="submit"]').click();
            const said = await form.locator('.ask-problem').textContent();
            if (!said.includes(String(button.min_targets))) problems.push(`${where}: no complaint about too few targets`);
            await page.waitForTimeout(50);
            if (await page.evaluate(() => window.__acks.length)) problems.push(`${where}: sent with too few targets`);
          }
          await form.locator('button:not([type="submit"])').click();
        }
      }
      await page.click(`.token[data-actor="${actors[0].id}"]`);
      await page.waitForSelector(`#sheet .sheet-head[data-actor="${actors[0].id}"]`);
      await page.screenshot({ path: `/tmp/sheet-${system}.png` });
      await page.locator('#sheet .sheet-details').first().screenshot({ path: `/tmp/sheet-${system}-data.png` });
      t.diagnostic(`${system}: ${actors.length} actors, ${forms} ask forms, param kinds ${[...kinds].sort().join(', ')}`);
      if (errors.length) problems.push(`${system}: page errors ${errors.join('; ')}`);
      await context.close();
    }
    assert.deepEqual(problems, []);
  });
});
