// Where the userscript finds the bridge: `window.vttBridgeRoll20Config`
// (set by a wrapper script), else localStorage, else a small form it shows.

const KEY = 'vtt-bridge-roll20';
const FIELDS = [
  ['url', 'Bridge URL', 'http://127.0.0.1:8765'],
  ['token', 'Token', ''],
  ['user', 'User id (empty: your Roll20 player id)', ''],
  ['name', 'Name', ''],
  ['locale', 'Locale (es/en)', 'es'],
  ['post', 'Post cards (auto/all/own/none)', 'auto'],
];

export function readConfig(win = window) {
  const given = win.vttBridgeRoll20Config;
  if (given && given.url && given.token) return { ...given };
  try {
    const saved = JSON.parse(win.localStorage.getItem(KEY) || 'null');
    if (saved && saved.url && saved.token) return saved;
  } catch {
    /* no storage or bad JSON */
  }
  return null;
}

export function openSettings(doc, { config, onSave, open = false }) {
  const win = doc.defaultView;
  const toggle = doc.createElement('button');
  toggle.type = 'button';
  toggle.className = 'vtt-settings-toggle';
  toggle.textContent = 'vtt';
  toggle.title = 'vtt-bridge';
  Object.assign(toggle.style, { position: 'fixed', left: '4px', bottom: '4px', zIndex: 10000, fontSize: '11px' });

  const form = doc.createElement('form');
  form.className = 'vtt-settings';
  Object.assign(form.style, {
    position: 'fixed', left: '4px', bottom: '28px', zIndex: 10000, background: '#fff', color: '#000',
    border: '1px solid #888', padding: '8px', display: open ? 'block' : 'none', fontSize: '12px',
  });
  for (const [name, label, fallback] of FIELDS) {
    const row = doc.createElement('label');
    row.style.display = 'block';
    row.append(doc.createTextNode(label + ' '));
    const input = doc.createElement('input');
    input.name = name;
    input.value = config?.[name] ?? fallback;
    if (name === 'token') input.type = 'password';
    row.append(input);
    form.append(row);
  }
  const save = doc.createElement('button');
  save.type = 'submit';
  save.textContent = 'Connect';
  form.append(save);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = {};
    for (const [name] of FIELDS) {
      const value = form.elements[name].value.trim();
      if (value) next[name] = value;
    }
    try {
      win.localStorage.setItem(KEY, JSON.stringify(next));
    } catch {
      /* private mode: this session only */
    }
    form.style.display = 'none';
    if (next.url && next.token) onSave(next);
  });
  toggle.addEventListener('click', () => {
    form.style.display = form.style.display === 'none' ? 'block' : 'none';
  });
  doc.body.append(toggle, form);
  return { toggle, form };
}
