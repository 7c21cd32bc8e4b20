// @ts-check
// Escaping text we put into markup ourselves (card html from the server is
// already escaped; labels, names and choices from buttons are plain text).

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** @param {unknown} value */
export function escapeHtml(value) {
  return String(value ?? '').replace(/[&<>"']/g, (ch) => ENTITIES[/** @type {keyof typeof ENTITIES} */ (ch)]);
}
