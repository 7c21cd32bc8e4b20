// The client's own error codes and their messages (es/en). Server codes come
// with the server's message; these cover what never reached the server.

const MESSAGES = {
  client_payload: [
    'La petición lleva un valor que no se puede enviar',
    'The request carries a value that cannot be sent',
  ],
  client_timeout: [
    'El servidor no respondió a tiempo; no sabemos si se aplicó. Reintenta (es seguro).',
    'The server did not answer in time; it may or may not have applied. Retrying is safe.',
  ],
  client_closed: ['La conexión está cerrada.', 'The connection is closed.'],
  client_refused: ['El servidor rechazó la conexión.', 'The server refused the connection.'],
};

export function clientMessage(code, locale, detail) {
  const [es, en] = MESSAGES[code] ?? MESSAGES.client_closed;
  const text = locale === 'en' ? en : es;
  return detail ? `${text}: ${detail}` : text;
}

export function clientError(code, locale, { field = null, detail = '' } = {}) {
  return { ok: false, error: { code, message: clientMessage(code, locale, detail), field } };
}
