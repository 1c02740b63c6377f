/*
 * console_slips.js -- the board slips of the round on screen in the
 * organiser's console (docs/web.md): once confirmed (every click makes
 * new tokens; those printed before stay valid), a new token per table and
 * the server's page of slips, each with its players, token and QR code,
 * in a frame with a Print button.
 */
import { S } from './state.js';
import { t, roundName } from './words.js';
import { $, el } from './dom.js';
import { op } from './api.js';
import { errText } from './messages.js';
import { consoleSay } from './console_state.js';

/* New board tokens for the round on screen, and their slips to print:
 * shown in a frame (the page of the server, its own stylesheet). */
function slips() {
  const round = S.round;
  $('#c-slips').replaceChildren(el('div', { class: 'confirm', role: 'alertdialog' },
    el('span', { text: t('c_slips_new', { r: roundName(round) }) + ' ' }),
    el('button', { type: 'button', id: 'c-slips-go', onclick: () => makeSlips(round) }, t('c_slips_go')),
    el('button', { type: 'button', onclick: () => $('#c-slips').replaceChildren() }, t('c_cancel'))));
}

async function makeSlips(round) {
  const res = await op({ id: 'slips', op: 'slips', round, lang: S.lang });
  if (res.error) return consoleSay(t('failed', { msg: errText(res.error) }), true);
  const frame = el('iframe', { id: 'c-slips-frame', title: t('c_slips', { n: res.round }) });
  frame.srcdoc = res.html;
  $('#c-slips').replaceChildren(el('p', {}, el('button', { type: 'button', id: 'c-print',
    onclick: () => frame.contentWindow.print() }, t('c_print'))), frame);
}

/* The slips button. */
export function initSlips() {
  $('#c-slips-btn').addEventListener('click', slips);
}
