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
