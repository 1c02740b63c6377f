/*
 * position.js -- a game's position from its FEN and ICCS moves: the board
 * after n moves, the last move, the side to move.
 */

export const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

/* board[rank][file], rank 0 = Red's back rank (ICCS numbering). */
function parseFen(fen) {
  const rows = (fen || START).split(' ')[0].split('/');
  const b = [];
  for (let i = 0; i < 10; i++) {
    const rank = 9 - i, row = [];
    for (const ch of rows[i] || '9') {
      if (ch >= '1' && ch <= '9') for (let k = 0; k < +ch; k++) row.push(null);
      else row.push(ch);
    }
    b[rank] = row.slice(0, 9);
    while (b[rank].length < 9) b[rank].push(null);
  }
  return b;
}

function sq(text) {
  return { f: text.charCodeAt(0) - 97, r: text.charCodeAt(1) - 48 };
}

/* The board after the first `n` ICCS moves from `start`, and the last move. */
export function positionAt(game, n) {
  const b = parseFen(game.start || START);
  let last = null;
  for (let i = 0; i < n && i < game.moves.length; i++) {
    const m = game.moves[i].toLowerCase();
    const from = sq(m.slice(0, 2)), to = sq(m.slice(2, 4));
    if (!b[from.r] || !b[to.r]) break;
    b[to.r][to.f] = b[from.r][from.f];
    b[from.r][from.f] = null;
    last = { from, to };
  }
  return { board: b, last };
}

/* 'red' or 'black': the side to move of a game's current position. */
export function sideToMove(g) {
  const parts = (g.fen || START).split(' ');
  return parts[1] === 'b' ? 'black' : 'red';
}
