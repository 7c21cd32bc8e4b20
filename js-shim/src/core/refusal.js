// Reading a `connect_error` into `{code, message}`.
//
// The server refuses a connection with `{code, message}` as the error's
// `data` (python-socketio puts the readable text in the error's `message`).
// Anything else is a transport failure: the manager keeps retrying.

export function readRefusal(error) {
  const data = error?.data;
  if (data && typeof data === 'object' && typeof data.code === 'string') {
    return { code: data.code, message: String(data.message ?? error?.message ?? data.code) };
  }
  return null;
}

// Refusals that mean "not now": the store failed, the server is restarting, the
// world is full, or this address made too many wrong guesses. The client asks
// again after a backoff; every other refusal (a wrong token, a bad protocol) is final.
export const TRANSIENT_REFUSALS = new Set(['store_error', 'shutting_down', 'world_full', 'auth_throttled']);

/**
 * Milliseconds to wait before asking again after `n` transient refusals in a row:
 * `base * 2^n` capped at `max`, with up to half of it taken off at random so that
 * the clients a restart turned away do not come back all at once.
 */
export function refusalDelay(n, base, max, random = Math.random) {
  const full = Math.min(max, base * 2 ** Math.min(n, 30));
  return Math.round(full * (1 - random() / 2));
}
