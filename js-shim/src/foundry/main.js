// @ts-check
// The Foundry module's entry: the real Foundry globals, the DOM, the shim core
// with its pinned socket.io-client and msgpack parser.

import { io } from 'socket.io-client';
import parser from 'socket.io-msgpack-parser';
import { createBridgeClient } from '../core/index.js';
import { createAdapter } from './adapter.js';
import { createDom } from './dom.js';
import { createFoundryApi } from './foundry-api.js';

const adapter = createAdapter({
  foundry: createFoundryApi(/** @type {any} */ (globalThis)),
  dom: createDom(globalThis.document),
  connect: (options) => createBridgeClient({ ...options, io, parser, timeoutMs: 8000, retries: 3 }),
});
adapter.install();
