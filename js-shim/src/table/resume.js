// Where a page left off, per world and user, in sessionStorage (one tab's
// life): the last complete seq and the chat cards up to it. A reload shows the
// cards again and connects with that `last_seq`, so the server replays only
// what came after; with nothing stored the page asks for `last_seq: 0`, the
// world's whole history. The world id is known only after the welcome, so the
// token (by a hash, never in clear) points to the world it opened last time.

const PREFIX = 'vtt-bridge.table';
const MAX_CARDS = 150;

function storage() {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null; // storage disabled
  }
}

/** FNV-1a, 32 bits, hex: a key for the token that does not store the token. */
export function tokenKey(token) {
  let hash = 0x811c9dc5;
  for (const char of String(token)) {
    hash ^= char.codePointAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

const worldKey = (token) => `${PREFIX}.world.${tokenKey(token)}`;
// Per world and user, and per token too: the same user id joining as GM and as a
// player must not see the GM's stored cards.
const seqKey = (world, user, token) => `${PREFIX}.seq.${world}.${user}.${tokenKey(token)}`;

/** `{world, lastSeq, cards}` stored for this token and user, or null. */
export function loadResume(token, user) {
  const store = storage();
  if (!store) return null;
  try {
    const world = store.getItem(worldKey(token));
    if (!world) return null;
    const saved = JSON.parse(store.getItem(seqKey(world, user, token)) ?? 'null');
    if (!saved || !Number.isSafeInteger(saved.lastSeq) || saved.lastSeq < 0 || !Array.isArray(saved.cards)) return null;
    return { world, lastSeq: saved.lastSeq, cards: saved.cards };
  } catch {
    return null;
  }
}

/** Remembers where this page stands; when the cards do not fit, nothing is kept (a reload replays all). */
export function saveResume(token, user, world, { lastSeq, cards }) {
  const store = storage();
  if (!store || !world || !Number.isSafeInteger(lastSeq)) return false;
  const key = seqKey(world, user, token);
  try {
    store.setItem(worldKey(token), world);
    let keep = cards.slice(-MAX_CARDS);
    for (;;) {
      try {
        store.setItem(key, JSON.stringify({ lastSeq, cards: keep }));
        return true;
      } catch (error) {
        if (!keep.length) throw error;
        keep = keep.slice(Math.ceil(keep.length / 2)); // over quota: keep the newer half
      }
    }
  } catch {
    try {
      store.removeItem(key);
    } catch {
      /* nothing to do */
    }
    return false;
  }
}

export function forgetResume(token, user) {
  const store = storage();
  if (!store) return;
  try {
    const world = store.getItem(worldKey(token));
    if (world) store.removeItem(seqKey(world, user, token));
    store.removeItem(worldKey(token));
  } catch {
    /* nothing to do */
  }
}
