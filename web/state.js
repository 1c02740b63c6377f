/*
 * state.js -- what the page knows and shows (docs/web.md): the reader's
 * language and notation, the event, the round on screen and its games,
 * the view, the token and its role. The one object the views read; beside
 * each field, the modules that write it.
 */

export const S = {
  lang: localStorage.getItem('xqref.lang') || ((navigator.language || '').startsWith('zh') ? 'zh' : 'en'), // app
  notation: localStorage.getItem('xqref.notation') || '', // app; '' until chosen: the language's (langNotation)
  notationChosen: false,     // app
  event: null,               // rounds: /api/event
  round: 0,                  // rounds: the round on screen
  games: new Map(),          // games, rounds: table -> game state (games.json shape, plus zh/wxf and lastVerdict)
  pairings: null,            // pairings: pairings.json of the round
  standings: null,           // standings: /api/standings.json
  bracket: null,             // pairings, standings: /api/knockout, once the knockout has started
  view: 'live',              // app: the view the hash names
  game: 0,                   // app: table shown in the viewer
  ply: null,                 // app, viewer: ply shown in the viewer, null = follow the game
  token: sessionStorage.getItem('xqref.token') || '', // session
  role: '',                  // session: admin, arbiter, board, viewer or ''
};
if (S.lang !== 'zh' && S.lang !== 'en') S.lang = 'en';

/* Until a reader picks a notation the page's language picks it: Chinese
 * moves on the Chinese page, WXF on the English page. */
export const langNotation = () => S.lang === 'zh' ? 'zh' : 'wxf';
S.notationChosen = !!S.notation;
if (!S.notation) S.notation = langNotation();

/* A new event with no round paired yet says so (live, pairings,
 * standings) instead of showing empty boxes. */
export function noRound() {
  return !!S.event && !S.event.published.length;
}
