/*
 * clock.js -- the players' clocks: their text (1:05:09, 4:07), running on
 * the page for the side to move from the time of their last reading
 * (`clock_at` of the state, the arrival of an event) while the game is on
 * and not paused, ticked twice a second on the cards and in the viewer.
 */
import { S } from './state.js';
import { $ } from './dom.js';
import { sideToMove } from './position.js';

export const CLOCK_TICK_MS = 500;

/* This browser's clock minus the server's, from the events' "at". */
let skew = 0;

export function clockText(ms) {
  if (ms === null || ms === undefined || ms < 0) return '';
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, x = s % 60;
  return (h ? h + ':' + String(m).padStart(2, '0') : String(m)) + ':' + String(x).padStart(2, '0');
}

/* What side `side` (0 Red, 1 Black) of game g has left now, in ms; null
 * for a game without clocks. */
export function runningClock(g, side) {
  if (!g.clock || g.clock[side] === null || g.clock[side] === undefined) return null;
  let ms = g.clock[side];
  const running = g.result === '*' && !g.paused && !g.needs_arbiter && g.clockAt &&
    sideToMove(g) === (side ? 'black' : 'red');
  if (running) ms -= Date.now() - g.clockAt;
  return Math.max(0, ms);
}

/* The time on this browser's clock (ms) of a server time in µs (the
 * state's clock_at); null for none. */
export function localTime(serverUs) {
  return serverUs ? serverUs / 1000 + skew : null;
}

/* An event's clocks into game g: read now (its arrival), the server's
 * "at" kept for the skew. */
export function takeClock(g, d) {
  if (d.at) skew = Date.now() - d.at / 1000;
  if (!d.clock) return;
  g.clock = d.clock;
  g.clockAt = Date.now();
}

/* The running clocks of the cards in play and of the viewer, redrawn. */
export function tickClocks() {
  for (const c of document.querySelectorAll('#boards .card[data-result="*"]')) {
    const g = S.games.get(+c.dataset.table);
    if (!g || !g.clock) continue;
    for (const span of c.querySelectorAll('.clock[data-side]')) span.textContent = clockText(runningClock(g, +span.dataset.side));
  }
  const g = S.view === 'game' && S.games.get(S.game);
  if (g && g.clock) {
    $('#g-clock-red').textContent = clockText(runningClock(g, 0));
    $('#g-clock-black').textContent = clockText(runningClock(g, 1));
  }
}
