// The page's own words (the rules' words come from the server, localized).

const WORDS = {
  es: {
    join: 'Entrar en la mesa',
    token: 'Token del mundo',
    user: 'Id de usuario',
    name: 'Nombre visible',
    locale: 'Idioma',
    gm: 'Director de Juego',
    player: 'Jugador',
    actors: 'Personajes',
    sheet: 'Hoja',
    chat: 'Crónica',
    pick: 'Elige un personaje para ver su hoja.',
    owner: 'de',
    nobody: 'sin dueño',
    send: 'Enviar',
    cancel: 'Cancelar',
    targets: 'Objetivos',
    statuses: 'Estados (DJ)',
    none: '—',
    leave: 'Salir',
    others: 'Otros',
    noButtons: 'Este personaje no tiene acciones para ti.',
    state: {
      connecting: 'Conectando…',
      connected: 'Conectado',
      reconnecting: 'Reconectando…',
      refused: 'Rechazado',
      closed: 'Desconectado',
    },
    emptyLog: 'Aún no hay tiradas.',
    yours: 'tuyo',
    self: 'sí mismo',
  },
  en: {
    join: 'Join the table',
    token: 'World token',
    user: 'User id',
    name: 'Display name',
    locale: 'Language',
    gm: 'Game Master',
    player: 'Player',
    actors: 'Characters',
    sheet: 'Sheet',
    chat: 'Chat',
    pick: 'Pick a character to see its sheet.',
    owner: 'of',
    nobody: 'no owner',
    send: 'Send',
    cancel: 'Cancel',
    targets: 'Targets',
    statuses: 'Statuses (GM)',
    none: '—',
    leave: 'Leave',
    others: 'Other',
    noButtons: 'This character has no actions for you.',
    state: {
      connecting: 'Connecting…',
      connected: 'Connected',
      reconnecting: 'Reconnecting…',
      refused: 'Refused',
      closed: 'Disconnected',
    },
    emptyLog: 'No rolls yet.',
    yours: 'yours',
    self: 'self',
  },
};

let current = 'es';

export function setLocale(locale) {
  current = locale === 'en' ? 'en' : 'es';
  document.documentElement.lang = current;
}

export function locale() {
  return current;
}

export function t(key) {
  const path = key.split('.');
  let value = WORDS[current];
  for (const part of path) value = value?.[part];
  return value ?? key;
}
