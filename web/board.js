/*
 * board.js -- a board drawn as SVG: 9×10 lines, the river 楚河 漢界, the
 * palaces' diagonals, the pieces in red and black, the last move marked
 * (a dashed ring where the piece came from, a ring where it went).
 */

const GLYPH = { K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
                k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒' };

const NS = 'http://www.w3.org/2000/svg';
const CELL = 10, M = 6;

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

const X = f => M + f * CELL;
const Y = r => M + (9 - r) * CELL;

/* The SVG of `board` (position.js's board[rank][file]) with `last`
 * ({from, to}, or null) marked. */
export function boardSvg(board, last) {
  const s = svgEl('svg', { viewBox: `0 0 ${2 * M + 8 * CELL} ${2 * M + 9 * CELL}`, class: 'board', role: 'img' });
  s.append(svgEl('rect', { class: 'bg', x: 0, y: 0, width: 2 * M + 8 * CELL, height: 2 * M + 9 * CELL, rx: 2 }));
  let d = '';
  for (let r = 0; r < 10; r++) d += `M${X(0)} ${Y(r)}H${X(8)}`;
  // files cross the river only at the edges
  for (let f = 1; f < 8; f++) d += `M${X(f)} ${Y(0)}V${Y(4)}M${X(f)} ${Y(5)}V${Y(9)}`;
  // the palaces
  d += `M${X(3)} ${Y(0)}L${X(5)} ${Y(2)}M${X(5)} ${Y(0)}L${X(3)} ${Y(2)}`;
  d += `M${X(3)} ${Y(9)}L${X(5)} ${Y(7)}M${X(5)} ${Y(9)}L${X(3)} ${Y(7)}`;
  s.append(svgEl('path', { class: 'grid-line', d }));
  s.append(svgEl('rect', { class: 'frame', x: X(0), y: Y(9), width: 8 * CELL, height: 9 * CELL }));
  const ry = (Y(4) + Y(5)) / 2;
  s.append(svgEl('text', { class: 'river', x: X(1.5), y: ry, 'dominant-baseline': 'central' }, '楚 河'));
  s.append(svgEl('text', { class: 'river', x: X(5.3), y: ry, 'dominant-baseline': 'central' }, '漢 界'));
  if (last) {
    s.append(svgEl('circle', { class: 'mark from', cx: X(last.from.f), cy: Y(last.from.r), r: 4.6 }));
    s.append(svgEl('circle', { class: 'mark to', cx: X(last.to.f), cy: Y(last.to.r), r: 5.1 }));
  }
  for (let r = 0; r < 10; r++) {
    for (let f = 0; f < 9; f++) {
      const p = board[r][f];
      if (!p) continue;
      const red = p === p.toUpperCase();
      const g = svgEl('g', { class: 'pc ' + (red ? 'r' : 'b'), 'data-sq': String.fromCharCode(97 + f) + r });
      g.append(svgEl('circle', { cx: X(f), cy: Y(r), r: 4.3 }));
      g.append(svgEl('text', { x: X(f), y: Y(r) + 0.2 }, GLYPH[p] || '?'));
      s.append(g);
    }
  }
  return s;
}

/* The board `svg` with a label for screen readers. */
export function labelled(svg, label) {
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  return svg;
}
