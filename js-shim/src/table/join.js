// The join form: token, user id, display name and locale, prefilled from the
// URL (?token=&user=&name=&locale=) or from the last visit.

import { $ } from './dom.js';

const REMEMBER = 'vtt-bridge.join';

export function readJoin() {
  const url = new URLSearchParams(location.search);
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(REMEMBER) ?? '{}');
  } catch {
    saved = {};
  }
  const fromUrl = url.has('token') || url.has('user');
  const pick = (key) => url.get(key) ?? (fromUrl ? null : saved[key]) ?? '';
  return {
    token: pick('token'),
    user: pick('user'),
    name: pick('name'),
    locale: url.get('locale') ?? saved.locale ?? (navigator.language?.startsWith('en') ? 'en' : 'es'),
    auto: url.has('token') && url.has('user'),
  };
}

export function fillJoinForm(form, values) {
  for (const key of ['token', 'user', 'name', 'locale']) {
    const input = form.elements.namedItem(key);
    if (input && values[key]) input.value = values[key];
  }
}

export function onJoin(form, handler) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(form));
    const values = {
      token: String(data.token ?? '').trim(),
      user: String(data.user ?? '').trim(),
      name: String(data.name ?? '').trim(),
      locale: data.locale === 'en' ? 'en' : 'es',
    };
    if (!values.token || !values.user) return;
    try {
      localStorage.setItem(REMEMBER, JSON.stringify({ user: values.user, name: values.name, locale: values.locale }));
    } catch {
      /* private mode */
    }
    handler(values);
  });
}

export const joinForm = () => $('#join-form');
