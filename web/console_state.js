/*
 * console_state.js -- what the sections of the organiser's console share:
 * their state C, the line under the console that says what the server
 * answered, and redraw(), the console's own redrawing (console.js gives
 * it), which a section calls after an operation.
 */
import { $ } from './dom.js';

export const C = {
  players: [],     // the `players` op's list
  paired: 0,       // rounds paired (the `event` op)
  preview: null,   // a CSV file read: its lines, each a player or an error
  pairing: null,   // the next round's pairing previewed (nothing stored)
  base: null,      // the pairer's own boards, to mark what the changes moved
  changes: [],     // the changes by hand to the previewed pairing
  editing: null,   // the id of the player whose row is a form
  draft: null,     // that form's fields
  confirm: null,   // the id of the player whose withdrawal is asked
  absent: null,    // the id of the player whose absence is asked
  num: { method: 'rating', seed: '', manual: {}, result: null }, // the Numbers block
};

/* The line under the console: `text`, marked as an error or not. */
export function consoleSay(text, error) {
  const p = $('#c-result');
  p.textContent = text;
  p.classList.toggle('error', !!error);
}

let redrawConsole = () => {};

/* The console's redrawing, given once by console.js. */
export function setRedraw(fn) { redrawConsole = fn; }

/* Draw the console again from the server's players and event. */
export function redraw() { return redrawConsole(); }
