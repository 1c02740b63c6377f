/*
 * bracket.js -- the knockout as the viewers see it (docs/web.md): the
 * bracket above the knockout tables, a box per stage with each match's
 * players, games so far, winner or table in play; a stage's name; the
 * final places once every match is decided. Drawn from S.bracket
 * (/api/knockout).
 */
import { S } from './state.js';
import { t } from './words.js';
import { $, el } from './dom.js';
import { resultText } from './format.js';

/* A stage's name: Final, Semi-finals, ... by its number of matches (the
 * last stage of a bracket with a third-place match has two). */
export function stageName(k, stage) {
  const ms = k.matches.filter(m => m.stage === stage);
  const last = Math.max(...k.matches.map(m => m.stage));
  return stage === last && ms.length <= 2 && k.seeding === 'choose' ? t('ko_final')
    : ms.length === 1 ? t('ko_final') : ms.length === 2 ? t('ko_semi') : ms.length === 4 ? t('ko_quarter')
    : t('ko_stage', { n: stage });
}

/* A knockout game in words: its type, who had Red, its result. */
function koGameText(m, g) {
  const red = m.players.find(p => p && p.id === g.red);
  return `${t('g_' + g.type)} ${red ? red.name + t('red_mark') : ''} ${resultText(g.result) || t('in_play')}`;
}

/* The final places of the knockout into `box`, once every match is
 * decided; else `box` is emptied and hidden. */
export function renderPlaces(box) {
  const k = S.bracket;
  const places = (k && k.started && k.decided && k.places) || [];
  box.hidden = !places.length;
  if (box.hidden) return box.replaceChildren();
  box.replaceChildren(el('h3', { text: t('ko_places') }),
    el('ol', {}, ...places.map(p => el('li', { 'data-id': p.id, text: p.name }))));
}

/* The knockout bracket above the knockout tables: each stage's matches,
 * their games so far, the winner or the table in play. */
export function renderBracket() {
  const box = $('#bracket');
  const k = S.bracket;
  box.hidden = !(k && k.started);
  if (box.hidden) return box.replaceChildren();
  const name = p => (p && p.name) || '?';
  const stages = new Map();
  for (const m of k.matches) {
    if (!stages.has(m.stage)) stages.set(m.stage, []);
    stages.get(m.stage).push(m);
  }
  const last = Math.max(...stages.keys());
  const cols = [];
  for (const [stage, ms] of stages) {
    const items = ms.map(m => {
      const third = k.seeding === 'choose' && stage === last && m.match === k.matches.length;
      const games = m.games.map(g => koGameText(m, g)).join(' · ');
      const state = m.winner ? t('ko_winner', { p: name(m.winner) })
        : m.in_play ? t('ko_in_play', { n: m.in_play }) : '';
      return el('li', { 'data-match': m.match },
        el('span', { class: 'ko-players', text: (third ? t('ko_third') + ': ' : '') +
          (m.players.length ? `${name(m.players[0])} – ${name(m.players[1])}` : '?') }),
        games ? el('span', { class: 'ko-games', text: games }) : null,
        state ? el('span', { class: m.winner ? 'ko-winner' : 'ko-state', text: state }) : null);
    });
    cols.push(el('div', { class: 'ko-stage' }, el('h3', { text: stageName(k, stage) }), el('ol', {}, ...items)));
  }
  const places = el('div', { class: 'ko-stage ko-places' });
  renderPlaces(places);
  box.replaceChildren(...cols, ...(places.hidden ? [] : [places]));
}
