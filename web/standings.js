/*
 * standings.js -- the standings view (#standings, docs/web.md): rank,
 * number, name, club, rating, the preset's tie-breaks in its order, W-D-L
 * and byes, after the round on screen (during a round only the finished
 * games count); above them the knockout's final places once decided.
 * Read from /api/standings.json, again after each result.
 */
import { S, noRound } from './state.js';
import { t, tbName } from './words.js';
import { $, el } from './dom.js';
import { getJSON } from './api.js';
import { renderPlaces } from './bracket.js';

/* The tie-break columns: those of the event's preset that have values;
 * not the lots (LOT still ranks, the sheets print it): numbers easily
 * taken for the pairing number. */
function tbColumns(st) {
  return (st.tiebreaks || []).filter(code => code !== 'LOT' && st.standings.some(r => r.tb && code in r.tb));
}

/* The table of S.standings, its caption and its print title. */
export function renderStandings() {
  const st = S.standings;
  if (!st) return;
  const when = noRound() ? t('no_round') : !st.round ? t('before_round_1')
    : t(st.complete === false ? 'during_round' : 'after_round', { n: st.round });
  $('#standings-caption').textContent = noRound() && !st.standings.length ? `${when} · ${t('no_players')}` : when;
  $('#standings-title').textContent = `${S.event ? S.event.name : ''} ${t('print_standings', {
    c: !st.round ? t('before_round_1') : t(st.complete === false ? 'round_in_play' : 'after_round', { n: st.round }) })}`;
  renderPlaces($('#final-places'));
  if (!$('#final-places').hidden) $('#standings-caption').textContent = t('swiss_after') +
    (st.round ? ' · ' + t('after_round', { n: st.round }) : '');
  const cols = tbColumns(st);
  const byes = st.standings.some(r => r.byes > 0);
  const head = el('tr', {},
    el('th', { class: 'num', text: t('rank') }), el('th', { class: 'num', 'data-col': 'no', text: t('pno') }),
    el('th', { text: t('name') }), el('th', { 'data-col': 'club', text: t('club') }),
    el('th', { class: 'num', text: t('rating') }),
    ...cols.map(c => el('th', { class: 'num', 'data-tb': c, title: c, text: tbName(c) })),
    el('th', { class: 'num', text: t('wdl') }),
    byes ? el('th', { class: 'num', 'data-col': 'byes', text: t('byes') }) : null);
  $('#standings thead').replaceChildren(head);
  $('#standings tbody').replaceChildren(...st.standings.map(r => el('tr', { 'data-id': r.id },
    el('td', { class: 'num', 'data-col': 'rank', text: r.rank }),
    el('td', { class: 'num', 'data-col': 'no', text: r.pno || r.id }),
    el('td', { 'data-col': 'name', text: r.name }),
    el('td', { 'data-col': 'club', text: r.club || r.region || '' }),
    el('td', { class: 'num', 'data-col': 'rating', text: r.rating }),
    ...cols.map(c => el('td', { class: 'num', 'data-tb': c, text: c in r.tb ? r.tb[c] : '' })),
    el('td', { class: 'num', 'data-col': 'wdl', text: `${r.w}-${r.d}-${r.l}` }),
    byes ? el('td', { class: 'num', 'data-col': 'byes', text: r.byes || '' }) : null)));
}

let standingsTimer = 0, standingsAsked = 0;

/* The standings (and, once the knockout has started, its bracket) read
 * again after `delay` ms and drawn; a later call replaces an earlier one. */
export function refreshStandings(delay) {
  clearTimeout(standingsTimer);
  standingsTimer = setTimeout(async () => {
    try {
      const ko = S.event && S.round === S.event.knockout_round;
      const started = S.event && S.event.published.includes(S.event.knockout_round);
      const asked = ++standingsAsked;
      const [st, bracket] = await Promise.all([
        getJSON('/api/standings.json' + (S.round && !ko ? `?round=${S.round}` : '')),
        started ? getJSON('/api/knockout') : null]);
      if (asked !== standingsAsked) return; // a later request (another round, say) is on its way: it decides
      S.standings = st;
      if (bracket) S.bracket = bracket;
      renderStandings();
    } catch (e) { console.warn(e.message); }
  }, delay || 0);
}
