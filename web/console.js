/*
 * console.js -- the organiser's console (#console/R, docs/web.md), a staff
 * module: session.js loads it for an admin token, never for a viewer. Its
 * bar of sections and its drawing from the server's players and event;
 * the sections are modules of their own (console_settings: 赛事设置;
 * console_players: 棋手;
 * console_pairing: 编排, 淘汰赛, 团体赛; console_print: 打印; 成绩: the desk's
 * typed result line, desk.js), sending the protocol's operations to
 * POST /api/op.
 */
import { S, $, t, op, roundName } from './core.js';
import { initEntry } from './desk.js';
import { koMarksNow } from './views.js';
import { C, setRedraw, initSay } from './console_base.js';
import { renderPlayers, renderNumbers, initAdd } from './console_players.js';
import { initPairing, initSlips, renderKnockoutConsole, renderUnpair, renderTeamConsole } from './console_pairing.js';
import { renderPrint, initPrint } from './console_print.js';
import { renderSettings, initSettings, renderTokens } from './console_settings.js';

/* The console (session.js shows it to an admin token): the players, the
 * numbers, the next round's buttons, the knockout and print sections. */
export async function renderConsole() {
  const [res, evr] = await Promise.all([op({ id: 'players', op: 'players' }), op({ id: 'event', op: 'event' })]);
  C.players = (res && res.players) || [];
  C.ko = await koMarksNow().catch(() => null); // the knockout's players marked
  C.paired = (evr && evr.paired) || 0;
  renderPlayers();
  renderNumbers();
  const next = ((S.event && S.event.published) || []).filter(r => r < 50).length + 1;
  $('#c-pair').textContent = t('c_pair', { n: next });
  const last = S.event && S.event.rounds && next > S.event.rounds; // every planned round is paired
  $('#c-pair').hidden = !!last;
  $('#c-all-paired').textContent = last ? t('c_all_paired', { n: S.event.rounds }) : '';
  $('#c-publish').textContent = t('c_publish', { n: next });
  $('#c-publish').hidden = !C.pairing;
  renderUnpair(next - 1); // the last published round, while none of its games has begun
  $('#c-slips-btn').textContent = t('c_slips', { n: S.round ? roundName(S.round) : '' });
  $('#c-slips-btn').hidden = !S.round;
  renderKnockoutConsole();
  renderPrint(); // its rounds follow the published ones
  renderSettings(); // what round 1 paired locks
  renderTokens();
  await renderTeamConsole(); // a team event: its teams, lineups and matches (the Swiss buttons hidden)
}

/* The console's sections wired, and its bar: each section one click away
 * (the hash names the view and round, not a section). */
export function initConsole() {
  setRedraw(renderConsole);
  initSay();
  initSettings();
  initAdd();
  initPairing();
  initSlips();
  for (const b of document.querySelectorAll('#c-nav button'))
    b.addEventListener('click', () => document.getElementById(b.dataset.to).scrollIntoView({ block: 'start' }));
  initPrint();
  // 成绩: a result typed by table number, said under the line itself
  initEntry($('#c-entry'), (text, error, ...extra) => {
    const p = $('#c-entry-result');
    p.replaceChildren(text, ...extra);
    p.classList.toggle('error', !!error);
  });
}
