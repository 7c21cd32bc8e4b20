// Bridge clients for tests, wired to the real socket.io-client and parser.

import { io } from 'socket.io-client';
import parser from 'socket.io-msgpack-parser';
import { createBridgeClient } from '../src/core/index.js';

export function connect(url, token, user, extra = {}) {
  const client = createBridgeClient({
    url,
    token,
    user,
    name: extra.name ?? user,
    locale: extra.locale ?? 'es',
    io,
    parser,
    timeoutMs: extra.timeoutMs ?? 3000,
    retries: extra.retries ?? 2,
    backoffMs: extra.backoffMs ?? 100,
    socketOptions: { reconnectionDelay: 100, reconnectionDelayMax: 300, ...(extra.socketOptions ?? {}) },
    ...(extra.protocol !== undefined ? { protocol: extra.protocol } : {}),
    ...(extra.lastSeq !== undefined ? { lastSeq: extra.lastSeq } : {}),
  });
  const seen = { card: [], status: [], actor: [], card_update: [], combat: [], synced: [], welcome: [], connection: [] };
  for (const topic of Object.keys(seen)) client.on(topic, (value) => seen[topic].push(value));
  return { client, seen };
}

/** Waits until `check()` is truthy, polling; fails with `what` after `ms`. */
export async function until(check, what, ms = 5000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function rollPayload(actor = 'aldara', attribute = 'fisico') {
  return { actor, action: 'attribute', params: { attribute } };
}
