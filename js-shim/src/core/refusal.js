// Reading a `connect_error` into `{code, message}`.
//
// The protocol puts `{code, message}` in the error's `data`. python-socketio 5
// only forwards `data` when ConnectionRefusedError gets two arguments; given
// one dict it sends `str(dict)` as the message instead. Until the server is
// fixed we also read that Python repr, so the code is never lost.

const PY_CODE = /'code':\s*'([A-Za-z0-9_]+)'/;
const PY_MESSAGE = /'message':\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/;

export function readRefusal(error) {
  const data = error?.data;
  if (data && typeof data === 'object' && typeof data.code === 'string') {
    return { code: data.code, message: String(data.message ?? data.code) };
  }
  const text = String(error?.message ?? '');
  const code = PY_CODE.exec(text);
  if (code) {
    const message = PY_MESSAGE.exec(text);
    return { code: code[1], message: message ? (message[1] ?? message[2]) : code[1] };
  }
  return null; // not a refusal: a transport failure, the manager keeps retrying
}
