// Headless Debian Chromium for the table-page tests, and pages joined to a
// world. Every browser is launched here with its own temporary profile and
// closed by the test that opened it.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { REPO } from './server.mjs';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** Builds the table page and launches Chromium (fails, never skips, without it). */
export async function launchTableBrowser() {
  assert.ok(
    existsSync(CHROMIUM),
    `No Chromium at ${CHROMIUM}. Install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM=/path/to/chromium.`,
  );
  await promisify(execFile)('npm', ['run', '--silent', 'build'], { cwd: join(REPO, 'js-shim') });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A page joined to the table at `url`; page errors and console errors go to `errors`. */
export async function openTablePage(browser, url, { token, user, name = user, locale = 'es', errors = [], viewport = { width: 1400, height: 900 } }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`${user}: ${error.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`${user}: ${msg.text()}`);
  });
  const query = new URLSearchParams({ token, user, name, locale });
  await page.goto(`${url}/?${query}`);
  await page.waitForSelector('body[data-connection="connected"]');
  await page.waitForSelector('#tracker:not([hidden])');
  return page;
}

/** Records every request the page's client makes, with its ack, in `window.__acks`. */
export async function recordRequests(page) {
  await page.evaluate(() => {
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
  });
}

/** The page's combat as it shows it: round, phase, who acts, the order (actor ids per slot). */
export function trackerView(page) {
  return page.evaluate(() => {
    const root = document.querySelector('#tracker');
    return {
      active: root.dataset.active === 'true',
      round: Number(root.dataset.round),
      phase: root.dataset.phase,
      seq: Number(root.dataset.seq || 0),
      current: [...root.querySelectorAll('.tracker-slot--current .tracker-actor')].map((n) => n.dataset.actor),
      order: [...root.querySelectorAll('.tracker-slot')].map((slot) => ({
        label: slot.querySelector('.tracker-label').textContent,
        actors: [...slot.querySelectorAll('.tracker-actor')].map((n) => n.dataset.actor),
        names: [...slot.querySelectorAll('.tracker-name')].map((n) => n.textContent),
      })),
      held: [...root.querySelectorAll('.tracker-actor--held')].map((n) => n.dataset.actor),
      acted: [...root.querySelectorAll('.tracker-actor--acted')].map((n) => n.dataset.actor),
    };
  });
}

/** Waits until the page's tracker shows a combat_state with seq >= `seq`. */
export async function waitTrackerSeq(page, seq, timeout = 10000) {
  await page.waitForFunction((s) => Number(document.querySelector('#tracker').dataset.seq || 0) >= s, seq, { timeout });
}
