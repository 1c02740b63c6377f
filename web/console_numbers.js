/*
 * console_numbers.js -- the pairing numbers before round 1 in the
 * organiser's console (docs/web.md): seeded by rating, drawn by lot (a
 * seed typed, or a random one shown after the preview) or entered by
 * hand; previewed (nothing stored), then stored exactly as previewed. The
 * block is gone once round 1 is paired.
 */
import { t } from './words.js';
import { $, el } from './dom.js';
import { op } from './api.js';
import { errText } from './messages.js';
import { C, consoleSay, redraw } from './console_state.js';
import { pairingStale } from './console_pairing.js';

/* The numbers request of the block's state (a lot keeps the preview's seed). */
function numbersReq(preview) {
  const n = C.num, req = { id: 'numbers', op: 'numbers', method: n.method };
  if (preview) req.preview = true;
  if (n.method === 'lot' && String(n.seed).trim() !== '') req.seed = +n.seed;
  if (n.method === 'manual') req.numbers = C.players.map(p => ({ player: p.id, no: +(n.manual[p.id] ?? '') || 0 }));
  return req;
}

async function numbers(preview) {
  const req = numbersReq(preview);
  if (req.numbers && req.numbers.some(x => !x.no)) return consoleSay(t('failed', { msg: t('c_by_hand') + ': 1…' + C.players.length }), true);
  const res = await op(req);
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  if (res.method === 'lot') C.num.seed = String(res.seed); // stored as previewed
  C.num.result = preview ? res : null;
  const m = t('c_m_' + res.method) + (res.method === 'lot' ? ', ' + t('c_seed_is', { s: res.seed }) : '');
  consoleSay(t(preview ? 'c_num_previewed' : 'c_num_stored', { m }), false);
  if (preview) renderNumbers();
  else { pairingStale(); redraw(); }
}

/* The Numbers block, while no round is paired and there are players. */
export function renderNumbers() {
  const box = $('#c-numbers');
  if (C.paired > 0 || !C.players.length) return box.replaceChildren();
  const n = C.num;
  const method = el('select', { id: 'c-num-method', onchange: e => { n.method = e.target.value; n.result = null; renderNumbers(); } },
    ...[['rating', 'c_by_rating'], ['lot', 'c_by_lot'], ['manual', 'c_by_hand']]
      .map(([v, k]) => el('option', { value: v, selected: n.method === v ? '' : null }, t(k))));
  const seed = el('input', { id: 'c-num-seed', size: 16, inputmode: 'numeric', value: n.seed, placeholder: t('c_seed'),
    hidden: n.method === 'lot' ? null : '', oninput: e => { n.seed = e.target.value; n.result = null; } });
  const parts = [el('h3', { text: t('c_numbers') }), el('p', { class: 'caption', text: t('c_num_note') }),
    el('p', { class: 'c-add' }, method, seed,
      el('button', { type: 'button', id: 'c-num-preview', onclick: () => numbers(true) }, t('c_num_preview')))];
  if (n.method === 'manual') {
    // an input per player, filled with the numbers known so far
    parts.push(el('div', { class: 'scroll' }, el('table', { class: 'grid', id: 'c-num-manual' },
      el('thead', {}, el('tr', {}, el('th', { text: t('c_id') }), el('th', { text: t('name') }), el('th', { text: t('rating') }),
        el('th', { text: t('no') }))),
      el('tbody', {}, ...C.players.map((p, i) => el('tr', { 'data-id': p.id },
        el('td', { class: 'num', text: p.id }), el('td', { text: p.name }), el('td', { class: 'num', text: p.rating || '' }),
        el('td', {}, el('input', { size: 4, inputmode: 'numeric', 'data-id': p.id, value: n.manual[p.id] ?? (p.no || i + 1),
          oninput: e => { n.manual[p.id] = e.target.value; n.result = null; } }))))))));
    for (const [i, p] of C.players.entries()) if (n.manual[p.id] === undefined) n.manual[p.id] = String(p.no || i + 1);
  }
  if (n.result) {
    parts.push(el('div', { class: 'scroll' }, el('table', { class: 'grid', id: 'c-num-result' },
      el('thead', {}, el('tr', {}, el('th', { class: 'num', text: t('no') }), el('th', { text: t('name') }),
        el('th', { class: 'num', text: t('rating') }))),
      el('tbody', {}, ...n.result.numbers.map(x => el('tr', { 'data-id': x.id, 'data-no': x.no },
        el('td', { class: 'num', text: x.no }), el('td', { text: x.name }), el('td', { class: 'num', text: x.rating || '' })))))),
      el('p', {}, el('button', { type: 'button', id: 'c-num-store', onclick: () => numbers(false) }, t('c_num_store'))));
  }
  box.replaceChildren(...parts);
}
