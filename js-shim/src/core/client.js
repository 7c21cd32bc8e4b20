// The bridge client: one Socket.IO connection to a world, requests with ids,
// retries and timeouts, and the pushes handed to an adapter exactly once.

import { cleanPayload, PayloadError } from './clean.js';
import { createEmitter } from './emitter.js';
import { newRequestId } from './ids.js';
import { clientError } from './messages.js';
import { readRefusal } from './refusal.js';
import { createSeqTracker } from './seq.js';

export const PROTOCOL = 1;
export const NAMESPACE = '/vtt';

/** Server codes meaning "nothing was applied, try again later". */
const TRANSIENT = new Set(['store_error', 'shutting_down', 'rate_limited', 'world_rate_limited']);

const PUSHES = [
  ['chat_card', 'card'],
  ['token_status', 'status'],
  ['actor_update', 'actor'],
  ['card_update', 'card_update'],
  ['combat_state', 'combat'],
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function namespaceUrl(url) {
  const base = String(url).replace(/\/+$/, '');
  return base.endsWith(NAMESPACE) ? base : base + NAMESPACE;
}

/**
 * @param {object} options
 * @param {string} options.url       server origin, e.g. "http://127.0.0.1:8765"
 * @param {string} options.token     the world's GM or player token
 * @param {string} options.user      the user id (actors are owned by user id)
 * @param {string} [options.name]    display name
 * @param {'es'|'en'} [options.locale]
 * @param {Function} options.io      `io` from socket.io-client
 * @param {object} options.parser    socket.io-msgpack-parser
 * @param {number} [options.timeoutMs=5000]  per attempt
 * @param {number} [options.retries=3]       extra attempts after the first
 * @param {number} [options.backoffMs=250]   first retry delay, doubled each time
 * @param {number|null} [options.lastSeq]    resume from here (null: no backlog)
 * @param {object} [options.socketOptions]   extra Manager options (reconnectionDelay...)
 * @param {number} [options.protocol=1]      only for testing the server's refusal
 */
export function createBridgeClient(options) {
  const {
    url,
    token,
    user,
    name = '',
    locale,
    io,
    parser,
    timeoutMs = 5000,
    retries = 3,
    backoffMs = 250,
    lastSeq = null,
    socketOptions = {},
    protocol = PROTOCOL,
  } = options;
  if (typeof io !== 'function') throw new TypeError('createBridgeClient needs `io` from socket.io-client');
  if (!parser) throw new TypeError('createBridgeClient needs the socket.io-msgpack-parser');

  const events = createEmitter();
  const seqs = createSeqTracker(lastSeq);
  let state = 'connecting';
  let refusal = null;
  let welcome = null;
  let ready = false; // welcome received on the current connection
  let generation = 0; // counts welcomes: which connection an ack came back on
  let askedBacklog = false;
  let waiters = [];
  let closed = false;

  function setState(next, detail = {}) {
    state = next;
    events.emit('connection', { state: next, ...detail });
  }

  function settleWaiters(value) {
    const pending = waiters;
    waiters = [];
    for (const resolve of pending) resolve(value);
  }

  function auth(send) {
    const resume = seqs.resumeFrom();
    askedBacklog = resume !== null;
    const body = { token, user, name, protocol, last_seq: resume };
    if (locale) body.locale = locale;
    send(body);
  }

  const socket = io(namespaceUrl(url), {
    transports: ['websocket'],
    parser,
    auth,
    reconnectionDelay: 500,
    reconnectionDelayMax: 5000,
    ...socketOptions,
  });

  socket.on('connect', () => {
    // Usable once the welcome arrives; until then requests wait.
  });

  socket.on('welcome', (body) => {
    welcome = body;
    generation += 1;
    seqs.welcome(body.seq, askedBacklog);
    ready = true;
    refusal = null;
    events.emit('welcome', body);
    setState('connected');
    settleWaiters(true);
  });

  // After the welcome and the replayed backlog: everything up to `seq` has arrived.
  socket.on('synced', (push) => {
    seqs.synced(push?.seq);
    events.emit('synced', push);
  });

  for (const [event, topic] of PUSHES) {
    socket.on(event, (push) => {
      if (seqs.accept(topic, push)) events.emit(topic, push);
    });
  }

  socket.on('connect_error', (error) => {
    const refused = readRefusal(error);
    if (refused) {
      refusal = refused;
      setState('refused', { error: refused });
      settleWaiters(false);
    } else if (!closed) {
      setState('reconnecting', { error: { code: 'transport', message: String(error?.message ?? error) } });
    }
  });

  socket.on('disconnect', (reason) => {
    ready = false;
    if (closed) return;
    if (socket.active) setState('reconnecting', { reason });
    else setState('closed', { reason });
  });

  setState('connecting');

  function waitReady(ms) {
    if (ready) return Promise.resolve(true);
    if (closed || state === 'refused') return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiters = waiters.filter((w) => w !== done);
        resolve(false);
      }, ms);
      const done = (value) => {
        clearTimeout(timer);
        resolve(value);
      };
      waiters.push(done);
    });
  }

  async function attempt(event, body) {
    const deadline = Date.now() + timeoutMs;
    if (!(await waitReady(timeoutMs))) return { ack: null, sameConnection: false };
    const sentOn = generation;
    const left = Math.max(1, deadline - Date.now());
    try {
      const ack = await socket.timeout(left).emitWithAck(event, body);
      return { ack: ack ?? null, sameConnection: ready && generation === sentOn };
    } catch {
      return { ack: null, sameConnection: false }; // no ack in time: retry with the same id
    }
  }

  function failure(code, detail) {
    const out = clientError(code, welcome?.locale ?? locale, detail);
    if (code === 'client_refused' && refusal) out.error = { ...refusal, field: null };
    return out;
  }

  /**
   * Sends `event` with `payload` (an `id` is added unless given) and resolves
   * to the ack. Never rejects and never waits forever: after `retries` retries
   * it resolves `{ok:false, error:{code:'client_timeout'}}`.
   */
  async function request(event, payload = {}) {
    let body;
    try {
      body = cleanPayload({ ...payload, id: payload.id ?? newRequestId() });
    } catch (error) {
      if (error instanceof PayloadError) {
        return failure('client_payload', { field: error.field, detail: error.message });
      }
      throw error;
    }
    for (let round = 0; round <= retries; round += 1) {
      if (round > 0) await sleep(backoffMs * 2 ** (round - 1));
      if (closed) return failure('client_closed');
      if (state === 'refused') return failure('client_refused');
      const { ack, sameConnection } = await attempt(event, body);
      if (ack === null) continue;
      if (ack.ok === false && TRANSIENT.has(ack.error?.code) && round < retries) continue;
      // Our new event's pushes were broadcast to us before this ack, on this connection.
      if (ack.ok === true && !ack.duplicate && sameConnection) seqs.acked(ack.seq);
      return ack;
    }
    return failure('client_timeout', { detail: `${event} ${body.id}` });
  }

  return {
    request,
    on: (topic, fn) => events.on(topic, fn),
    get state() {
      return state;
    },
    get welcome() {
      return welcome;
    },
    /** The `last_seq` the next (re)connection sends: every push up to it was delivered. */
    get lastSeq() {
      return seqs.resumeFrom();
    },
    /** The highest seq any delivered push carried. */
    get seenSeq() {
      return seqs.highest();
    },
    get refusal() {
      return refusal;
    },
    /** Resolves true once the welcome has arrived (false if refused, closed or timed out). */
    ready: (ms = timeoutMs) => waitReady(ms),
    close() {
      if (closed) return;
      closed = true;
      ready = false;
      socket.close();
      settleWaiters(false);
      setState('closed', { reason: 'client' });
      events.clear();
    },
    socket,
  };
}
