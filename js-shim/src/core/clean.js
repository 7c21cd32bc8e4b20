// Cleaning a request payload before the msgpack parser sees it.
//
// socket.io-msgpack-parser (notepack) sends `undefined` and `Date` as msgpack
// extension types, `Map`/`Set` as `{}`, corrupts integers of 2^64 and more and
// throws on BigInt. The server refuses extension types and integers past
// ±2^53. We turn what has a faithful plain form into it and refuse, on the
// client and before anything is sent, what has none.

export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export class PayloadError extends Error {
  constructor(reason, path) {
    super(`${reason}${path ? ` (at ${path})` : ''}`);
    this.name = 'PayloadError';
    this.reason = reason;
    this.field = path || null;
  }
}

const join = (path, key) => (path ? `${path}.${key}` : String(key));

function cleanNumber(value, path) {
  if (!Number.isFinite(value)) throw new PayloadError('number is not finite', path);
  if (Number.isInteger(value) && Math.abs(value) > MAX_SAFE) {
    throw new PayloadError('integer beyond ±2^53', path);
  }
  return Object.is(value, -0) ? 0 : value;
}

function cleanBigInt(value, path) {
  if (value > BigInt(MAX_SAFE) || value < -BigInt(MAX_SAFE)) {
    throw new PayloadError('BigInt beyond ±2^53', path);
  }
  return Number(value);
}

function isTypedArray(value) {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

function mapKey(key, path) {
  if (typeof key === 'string') return key;
  if (typeof key === 'number' && Number.isFinite(key)) return String(key);
  throw new PayloadError('Map keys must be text or numbers', path);
}

/**
 * Returns a copy of `value` that msgpack carries faithfully, or throws a
 * PayloadError naming the first offending path.
 *
 * - `undefined`: dropped from objects, `null` in arrays (as JSON does)
 * - `Date`: ISO string; `BigInt`: number when within ±2^53
 * - typed arrays and `Set`: arrays; `Map`: object
 * - non-finite numbers, integers past ±2^53, functions, symbols, binary
 *   buffers and cycles: refused
 */
export function cleanPayload(value, path = '', seen = new Set()) {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return cleanNumber(value, path);
    case 'bigint':
      return cleanBigInt(value, path);
    case 'undefined':
      return null;
    case 'function':
      throw new PayloadError('functions cannot be sent', path);
    case 'symbol':
      throw new PayloadError('symbols cannot be sent', path);
    default:
      break;
  }
  if (value === null) return null;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new PayloadError('invalid Date', path);
    return value.toISOString();
  }
  if (isTypedArray(value)) {
    return Array.from(value, (item, i) => cleanPayload(item, join(path, i), seen));
  }
  if (value instanceof ArrayBuffer || value instanceof DataView) {
    throw new PayloadError('binary data cannot be sent', path);
  }
  if (seen.has(value)) throw new PayloadError('circular reference', path);
  seen.add(value);
  try {
    if (Array.isArray(value) || value instanceof Set) {
      return Array.from(value, (item, i) => cleanPayload(item, join(path, i), seen));
    }
    if (value instanceof Map) {
      const out = {};
      for (const [key, item] of value) {
        const name = mapKey(key, path);
        if (item !== undefined) out[name] = cleanPayload(item, join(path, name), seen);
      }
      return out;
    }
    if (typeof value.toJSON === 'function') {
      return cleanPayload(value.toJSON(), path, seen);
    }
    const out = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) out[key] = cleanPayload(item, join(path, key), seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
