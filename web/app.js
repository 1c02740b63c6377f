/*
 * app.js -- the live page's start (docs/web.md): the header's controls
 * (language, notation, round, filter) wired, the view the URL names shown
 * (#live, #pairings, #standings, #arbiter, #console, #game), the words
 * applied, then the event read, the stream followed and a kept token
 * signed in. Native ES modules, no build step: each module names its one
 * job in its first comment and imports what it uses; a viewer's page
 * loads app, core, views, live and session, and the staff's modules come
 * with a staff session (session.js). docs/web.md has the map.
 */
import { S, langNotation, $, roundName, applyWords } from './core.js';
import { CLOCK_TICK_MS, tickClocks, renderBoards, renderPairings, renderBracket, renderStandings, refreshStandings,
  renderViewer, initViewer } from './views.js';
import { GAME_EVENTS, resync, whenRead, EVENT_EVENTS, hashRound, roundInUrl, setRound, loadEvent, connect,
  firstReadDone, showDelay } from './live.js';
import { signIn, initSession, showDesk, showConsole } from './session.js';

const VIEWS = ['live', 'pairings', 'standings', 'arbiter', 'console', 'game'];

/* The page's fixed words in its language, and the round selector's names. */
function pageWords() {
  document.documentElement.lang = S.lang === 'zh' ? 'zh' : 'en';
  applyWords(document);
  $('#lang').textContent = S.lang === 'zh' ? 'EN' : '中文';
  for (const o of $('#round').options) o.textContent = roundName(+o.value);
  if (S.event) showDelay(S.event.delay || 0);
}

/* Everything drawn again (another language or notation). */
function rerender() {
  pageWords();
  renderBoards();
  renderPairings();
  renderBracket();
  renderStandings();
  showDesk();
  if (S.view === 'console') showConsole(); // its lists and forms are drawn in words too
  if (S.view === 'game') renderViewer();
}

/* Show the view the hash names (#VIEW/ROUND or #game/ROUND/TABLE), and
 * its round when that is another published one. */
function route() {
  const h = location.hash.replace(/^#/, '') || 'live';
  const m = /^game\/(\d+)\/(\d+)$/.exec(h);
  let view = m ? 'game' : h.split('/')[0];
  if (!VIEWS.includes(view)) view = 'live';
  if (m && (S.game !== +m[2] || +m[1] !== S.round)) S.ply = null;
  const moved = view !== S.view || (m && +m[2] !== S.game); // another view or game, not another round
  if (m) S.game = +m[2];
  const r = hashRound();
  if (r && r !== S.round && S.event && S.event.published.includes(r)) setRound(r);
  S.view = view;
  document.body.dataset.view = view;
  for (const s of document.querySelectorAll('main .view')) s.hidden = s.id !== 'view-' + view;
  for (const a of document.querySelectorAll('#tabs a')) {
    a.classList.toggle('active', a.dataset.view === view);
    if (a.dataset.view === view) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  if (view === 'game') renderViewer();
  if (view === 'standings') refreshStandings();
  if (view === 'console') showConsole();
  if (!r || r === S.round) roundInUrl();
  // a new view or game opens at its top: the old scroll position would
  // cut the top of a phone's board
  if (moved) window.scrollTo(0, 0);
}

/* The stream's handlers: every event waits while a round's state is
 * being read (live.js). */
function streamHandlers() {
  const handlers = {};
  for (const [type, fn] of Object.entries({ ...GAME_EVENTS, ...EVENT_EVENTS })) handlers[type] = whenRead(fn);
  return handlers;
}

function init() {
  $('#notation').value = S.notation;
  $('#notation').addEventListener('change', e => {
    S.notation = e.target.value;
    S.notationChosen = true;
    localStorage.setItem('xqref.notation', S.notation);
    rerender();
  });
  $('#lang').addEventListener('click', () => {
    S.lang = S.lang === 'zh' ? 'en' : 'zh';
    localStorage.setItem('xqref.lang', S.lang);
    if (!S.notationChosen) $('#notation').value = S.notation = langNotation();
    rerender();
  });
  $('#round').addEventListener('change', e => setRound(+e.target.value));
  $('#filter').addEventListener('input', renderBoards);
  initViewer();
  initSession();
  window.addEventListener('hashchange', route);
  setInterval(tickClocks, CLOCK_TICK_MS);
  pageWords();
  route();
  // subscribed first, then read: nothing published in between is lost;
  // what the stream brings meanwhile waits for the read
  connect(streamHandlers(), resync).then(() => loadEvent(false)).then(() => {
    firstReadDone();
    if (S.token) signIn(S.token);
  });
}

/* A module runs once the document is parsed (it is deferred). */
init();
