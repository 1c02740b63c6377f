/*
 * console_pairing.js -- the next round's pairing in the organiser's
 * console (docs/web.md): previewed (`pair` without `publish`: nothing
 * stored), each side with its number, name, club, rating and points;
 * changes by hand (two players trade places, a table's colours swap, a
 * table moves), each with its reason, the preview following each one
 * with the absolute rules it breaks and the tables it moved marked; then
 * published, the changes listed under the published pairing.
 */
import { t } from './words.js';
import { $, el } from './dom.js';
import { op } from './api.js';
import { errText, warnText } from './messages.js';
import { C, consoleSay, redraw } from './console_state.js';

/* A change as the pair operation takes it, and in words. */
function changeReq(c) {
  const k = c.kind === 'colours' ? { colours: c.a } : { [c.kind]: [c.a, c.b] };
  return Object.assign(k, { reason: c.reason });
}
function changeText(c) {
  return c.kind === 'swap' ? `${t('c_swap')}: ${c.a} ↔ ${c.b}` : c.kind === 'colours' ? `${t('c_colours')}: ${c.a}`
    : `${t('c_move')}: ${c.a} → ${c.b}`;
}

function renderChanges() {
  $('#c-changes-list').replaceChildren(...C.changes.map((c, i) => el('li', { 'data-change': i },
    `${changeText(c)} — ${c.reason} `, el('button', { type: 'button', onclick: () => { C.changes.splice(i, 1); pairPreview(false); } },
      t('c_remove')))));
}

async function addChange(form) {
  const c = { kind: form.elements.kind.value, a: +form.elements.a.value, b: +form.elements.b.value,
    reason: form.elements.reason.value.trim() };
  if (!c.reason) return consoleSay(t('c_need_reason'), true);
  C.changes.push(c);
  form.reset();
  await pairPreview(false);
}

/* The next round: a preview first (nothing stored), then published. */
async function pairPreview(publish) {
  const req = { id: 'pair', op: 'pair', publish: !!publish };
  if (C.changes.length) req.changes = C.changes.map(changeReq);
  const res = await op(req);
  if (res.error) {
    if (!publish && C.changes.length && res.error.code === 'BAD_REQUEST') C.changes.pop(); // the change just added
    renderChanges();
    return consoleSay(t('failed', { msg: errText(res.error) }), true);
  }
  if (!publish && !C.changes.length) C.base = res.boards; // the pairer's own, to mark what the changes moved
  const made = C.changes;
  C.pairing = publish ? null : res;
  if (publish) C.changes = [];
  renderChanges();
  $('#c-amend').hidden = publish;
  $('#c-warnings').replaceChildren(...(res.warnings && res.warnings.length
    ? [el('p', { class: 'error', text: t('c_warnings') }), el('ul', {}, ...res.warnings.map(w => el('li', { text: warnText(w) })))] : []));
  $('#c-pairing').replaceChildren(...[el('h3', { text: publish ? t('c_published', { n: res.round, b: res.boards.length }) : t('c_pair', { n: res.round }) }),
    pairingTable(res.boards, publish, made.length ? C.base : null),
    publish && made.length ? el('div', { id: 'c-published-changes' }, el('h4', { text: t('c_published_changes', { n: res.round }) }),
      el('ul', {}, ...made.map(c => el('li', { text: `${changeText(c)} — ${c.reason}` })))) : null].filter(Boolean));
  if (publish) consoleSay(t('c_published', { n: res.round, b: res.boards.length }), false);
  redraw();
}

/* A pairing as the arbiter checks it: each side's number and name, club,
 * rating and points before the round; the rows the changes moved (from
 * `base`, the pairer's own boards) marked. */
function pairingTable(boards, published, base) {
  const info = new Map((C.players || []).map(p => [p.id, p]));
  const side = (p, cls) => {
    const q = p ? info.get(p.id) || {} : {};
    return [el('td', { class: cls, text: p ? `${p.no}. ${p.name}` : t('bye') }), el('td', { text: q.club || q.region || '' }),
      el('td', { class: 'num', text: q.rating || '' }), el('td', { class: 'num', text: p ? p.points : '' })];
  };
  const key = b => `${b.red ? b.red.id : 0}-${b.black ? b.black.id : 0}`;
  const was = base ? new Map(base.map(b => [b.table, key(b)])) : null;
  const head = ['red', 'club', 'c_rating_short', 'c_points', 'black', 'club', 'c_rating_short', 'c_points'];
  return el('div', { class: 'scroll' }, el('table', { class: 'grid', 'data-published': published ? 'yes' : 'no' },
    el('thead', {}, el('tr', {}, el('th', { class: 'num', text: t('table') }),
      ...head.map(k => el('th', { class: /^c_(rating|points)/.test(k) ? 'num' : null, text: t(k) })))),
    el('tbody', {}, ...boards.map(b => {
      const moved = was && was.get(b.table) !== key(b);
      return el('tr', { 'data-table': b.table, class: moved ? 'changed' : null, title: moved ? t('c_changed') : null },
        el('td', { class: 'num', text: b.table }), ...side(b.red, 'red-name'), ...side(b.black, 'black-name'));
    }))));
}

/* After a change to the players the pairing on screen is out of date:
 * it goes, and is asked for again. */
export function pairingStale() {
  C.pairing = null;
  $('#c-pairing').replaceChildren();
  $('#c-warnings').replaceChildren();
}

/* The buttons and the form of the pairing section. */
export function initPairing() {
  $('#c-pair').addEventListener('click', () => pairPreview(false));
  $('#c-amend').addEventListener('submit', e => { e.preventDefault(); addChange(e.target); });
  $('#c-publish').addEventListener('click', () => pairPreview(true));
}
