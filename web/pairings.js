/*
 * pairings.js -- the pairings view (#pairings, docs/web.md): the round's
 * tables with both players, their ratings and points before the round,
 * the result in words (a link to the game), the bye; for the knockout
 * round the bracket above them. Read from pairings.json.
 */
import { S, noRound } from './state.js';
import { t, roundName } from './words.js';
import { $, el } from './dom.js';
import { getJSON } from './api.js';
import { resultText } from './format.js';
import { renderBracket } from './bracket.js';
import { renderBoards } from './cards.js';

/* The table of S.pairings, a result taken from the live game when there is one. */
export function renderPairings() {
  const body = $('#pairings tbody');
  const rows = [];
  $('#pairings-caption').hidden = !noRound();
  $('#pairings-caption').textContent = noRound() ? t('no_round') : '';
  $('#pairings-title').textContent = S.round ? `${S.event ? S.event.name : ''} ${t('print_pairings', { r: roundName(S.round) })}` : '';
  for (const b of (S.pairings && S.pairings.boards) || []) {
    const g = S.games.get(b.table);
    const res = g ? g.result : b.result;
    rows.push(el('tr', { 'data-table': b.table },
      el('td', { class: 'num', text: b.table }),
      el('td', { class: 'red-name', text: b.red ? `${b.red.name} (${b.red.rating})` : '' }),
      el('td', { class: 'num', text: b.red ? b.red.points : '' }),
      el('td', { class: 'result', 'data-result': b.bye ? 'bye' : res },
        b.bye ? t('bye') : el('a', { href: `#game/${S.round}/${b.table}`, text: resultText(res) || t('in_play') })),
      el('td', { text: b.black ? `${b.black.name} (${b.black.rating})` : '' }),
      el('td', { class: 'num', text: b.black ? b.black.points : '' })));
  }
  body.replaceChildren(...rows);
}

/* The round on screen's pairings (and for the knockout round its
 * bracket) read again and drawn. */
export async function refreshPairings() {
  try {
    const ko = S.event && S.round === S.event.knockout_round;
    const [pairings, bracket] = await Promise.all([getJSON(`/api/rounds/${S.round}/pairings.json`),
      ko ? getJSON('/api/knockout') : null]);
    S.pairings = pairings;
    S.bracket = bracket;
    renderPairings();
    renderBracket();
    if (ko) renderBoards(); // the cards name their stage
  } catch (e) { console.warn(e.message); }
}
