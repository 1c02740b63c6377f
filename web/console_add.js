/*
 * console_add.js -- players added in the organiser's console
 * (docs/web.md): one by hand, or a list from a CSV file, previewed line
 * by line with every field as it will be stored and each bad line's
 * error before anything is stored, then imported in one POST /api/op of
 * add_player lines.
 */
import { t } from './words.js';
import { $, el } from './dom.js';
import { op, opLines } from './api.js';
import { errText } from './messages.js';
import { decodeCsv, previewCsv, playerOf } from './csv.js';
import { C, consoleSay, redraw } from './console_state.js';
import { sexText } from './console_players.js';

/* The preview of the file read (C.preview) with its Import button. */
function renderPreview() {
  const pv = C.preview;
  const box = $('#c-preview');
  if (!pv) return box.replaceChildren();
  if (pv.error) return box.replaceChildren(el('p', { class: 'error', text: pv.error }));
  const ok = pv.lines.filter(l => l.player), bad = pv.lines.filter(l => l.error);
  box.replaceChildren(
    el('p', { text: t('c_preview_n', { n: pv.lines.length, ok: ok.length, bad: bad.length }) + ' · ' + t('c_encoding', { e: pv.encoding }) }),
    pv.fileNumbers ? el('p', { class: 'caption', text: t('c_file_no') }) : null,
    el('div', { class: 'scroll' }, el('table', { class: 'grid' },
      el('thead', {}, el('tr', {}, el('th', { class: 'num', text: t('c_line') }),
        ...(pv.fileNumbers ? [el('th', { class: 'num', text: t('c_file_no_col') })] : []),
        ...['name', 'sex', 'birth', 'region', 'club', 'team_col'].map(k => el('th', { text: t(k) })),
        el('th', { class: 'num', text: t('rating') }), el('th', { text: t('c_error') }))),
      el('tbody', {}, ...pv.lines.map(l => {
        const q = l.player || {};
        return el('tr', { 'data-line': l.line, class: l.error ? 'bad' : '' },
          el('td', { class: 'num', text: l.line }),
          ...(pv.fileNumbers ? [el('td', { class: 'num', text: l.fileNo || '' })] : []),
          el('td', { text: l.player ? q.name : l.fields.join(', ') }), el('td', { text: sexText(q.sex) }),
          el('td', { text: q.birth || '' }), el('td', { text: q.region || '' }), el('td', { text: q.club || '' }),
          el('td', { text: q.team || '' }), el('td', { class: 'num', text: q.rating === undefined ? '' : q.rating }),
          el('td', { class: 'error', text: l.error || '' }));
      })))),
    el('button', { type: 'button', id: 'c-do-import', disabled: ok.length ? null : '', onclick: () => importPlayers(ok) },
      t('c_do_import', { n: ok.length })));
}

async function importPlayers(lines) {
  const replies = await opLines(lines.map((l, i) => ({ id: 'imp' + i, op: 'add_player', player: l.player })));
  const failed = replies.filter(r => r.error);
  if (failed.length) consoleSay(t('failed', { msg: failed.map(r => `${r.id}: ${errText(r.error)}`).join('; ') }), true);
  else consoleSay(t('c_imported', { n: replies.length }), false);
  C.preview = null;
  renderPreview();
  redraw();
}

async function addPlayer(form) {
  const fields = ['name', 'sex', 'birth', 'club', 'team', 'rating'].map(k => form.elements[k].value);
  const { player, error } = playerOf(fields, ['name', 'sex', 'birth', 'club', 'team', 'rating']);
  if (error) return consoleSay(error, true);
  const res = await op({ id: 'add', op: 'add_player', player });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  consoleSay(t('c_added', { p: res.name }), false);
  form.reset();
  redraw();
}

/* The file input and the form of a player added by hand. */
export function initAdd() {
  $('#c-file').addEventListener('change', async e => {
    const f = e.target.files[0];
    if (!f) return;
    const { text, encoding } = decodeCsv(await f.arrayBuffer());
    C.preview = Object.assign(previewCsv(text, C.players), { encoding });
    renderPreview();
  });
  $('#c-add').addEventListener('submit', e => { e.preventDefault(); addPlayer(e.target); });
}
