// The inline form that asks for a button's parameters (`ask`) and targets.

import { el } from './dom.js';
import { t } from './i18n.js';

function field(param) {
  const label = param.label ?? param.name;
  const name = `p_${param.name}`;
  if (param.kind === 'choice') {
    const select = el('select', { name, 'data-param': param.name });
    if (!param.required) select.append(el('option', { value: '', text: t('none') }));
    param.choices.forEach((choice, i) => {
      select.append(el('option', { value: choice, text: param.choice_labels?.[i] ?? choice }));
    });
    if (param.default !== null && param.default !== undefined) select.value = String(param.default);
    return el('label', { class: 'ask-field' }, [el('span', { text: label }), select]);
  }
  if (param.kind === 'bool') {
    const box = el('input', { type: 'checkbox', name, 'data-param': param.name });
    box.checked = param.default === true;
    return el('label', { class: 'ask-field ask-field--bool' }, [box, el('span', { text: label })]);
  }
  const input = el('input', {
    type: param.kind === 'int' ? 'number' : 'text',
    name,
    'data-param': param.name,
    step: param.kind === 'int' ? '1' : undefined,
    min: param.kind === 'int' && param.minimum > -1e6 ? String(param.minimum) : undefined,
    max: param.kind === 'int' && param.maximum < 1e6 ? String(param.maximum) : undefined,
    required: param.required || undefined,
  });
  if (param.default !== null && param.default !== undefined) input.value = String(param.default);
  return el('label', { class: 'ask-field' }, [el('span', { text: label }), input]);
}

function readParams(form, ask) {
  const params = {};
  for (const param of ask) {
    const input = form.querySelector(`[data-param="${CSS.escape(param.name)}"]`);
    if (!input) continue;
    if (param.kind === 'bool') {
      if (input.checked || param.required || param.default === true) params[param.name] = input.checked;
    } else if (param.kind === 'int') {
      if (input.value === '') continue;
      params[param.name] = Number.parseInt(input.value, 10);
    } else if (input.value !== '' || param.required) {
      params[param.name] = input.value;
    }
  }
  return params;
}

/**
 * Renders the form for `button` (`{label, ask, min_targets, max_targets}`).
 * `targets` is the list of actors that may be picked. Calls `onSubmit({params,
 * targets})` or `onCancel()`.
 */
export function askForm({ title, ask = [], minTargets = 0, maxTargets = 0, targets = [], self = null, onSubmit, onCancel }) {
  const form = el('form', { class: 'ask', 'aria-label': title });
  form.append(el('h4', { class: 'ask-title', text: title }));
  const fields = el('div', { class: 'ask-fields' }, ask.map(field));
  form.append(fields);
  if (maxTargets > 0) {
    const list = el('fieldset', { class: 'ask-targets' }, [el('legend', { text: `${t('targets')} (${minTargets}–${maxTargets})` })]);
    for (const actor of targets) {
      list.append(
        el('label', { class: 'ask-target' }, [
          el('input', { type: 'checkbox', name: 'target', value: actor.id, 'data-target': actor.id }),
          el('span', { text: actor.id === self ? `${actor.name} (${t('self')})` : actor.name }),
        ]),
      );
    }
    form.append(list);
  }
  const problem = el('p', { class: 'ask-problem', role: 'alert' });
  form.append(problem);
  form.append(
    el('div', { class: 'ask-buttons' }, [
      el('button', { type: 'submit', class: 'primary', text: t('send') }),
      el('button', { type: 'button', text: t('cancel'), on: { click: () => onCancel() } }),
    ]),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = [...form.querySelectorAll('[data-target]')].filter((b) => b.checked).map((b) => b.value);
    if (maxTargets > 0 && (chosen.length < minTargets || chosen.length > maxTargets)) {
      problem.textContent = `${t('targets')}: ${minTargets}–${maxTargets}`;
      return;
    }
    onSubmit({ params: readParams(form, ask), targets: chosen });
  });
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') onCancel();
  });
  return form;
}
