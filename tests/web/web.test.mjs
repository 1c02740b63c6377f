// End-to-end tests of the live page (docs/web.md) in headless Chromium:
// a real `xqref serve --demo` on free ports with a temporary store, a
// board speaking JSON lines over TCP, and the page driven by
// playwright-core with Debian's /usr/bin/chromium (no browser download).
//
//   XQ_BUILD=build node --test tests/web/web.test.mjs   (tests/web/run.sh does this)
//
// Screenshots go to $XQ_BUILD/web-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import net from 'node:net';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { LAUNCH, openConsole, asked, answer, startEmpty as startEmptyIn, stop, opCall } from './lib.mjs';

const BUILD = resolve(process.env.XQ_BUILD || 'build');
const XQREF = join(BUILD, 'xqref');
const ART = join(BUILD, 'web-artifacts');
const CHROMIUM = process.env.XQ_CHROMIUM || '/usr/bin/chromium';
const WAIT = 10000; // ms for anything the page should show

let dir, server, tokens = { boards: {} }, base, jsonPort, browser, page;
const problems = []; // console errors and page errors

/* Start the server and read its tokens and ports from stdout. */
function startServer() {
  return new Promise((ok, fail) => {
    server = spawn(XQREF, ['serve', '--demo', '--quiet', '--db', join(dir, 'web.db'),
      '--listen', '127.0.0.1:0', '--http', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => fail(new Error('server did not start: ' + out)), WAIT);
    server.on('exit', code => fail(new Error('server exited with ' + code + ': ' + out)));
    server.stdout.on('data', chunk => {
      out += chunk;
      for (const line of out.split('\n')) {
        const w = line.split(' ');
        if (w[0] === 'admin') tokens.admin = w[1];
        if (w[0] === 'arbiter') tokens.arbiter = w[3];
        if (w[0] === 'board') tokens.boards[`${w[1]}.${w[2]}`] = w[3];
        if (w[0] === 'json') jsonPort = +w[1].split(':')[1];
        if (w[0] === 'http') base = 'http://' + w[1];
      }
      if (base && jsonPort) {
        clearTimeout(timer);
        ok();
      }
    });
  });
}

/* A board: JSON lines over TCP, one reply per request in order. */
class Board {
  constructor(port) {
    this.sock = net.connect(port, '127.0.0.1');
    this.sock.setNoDelay(true);
    this.buf = '';
    this.waiting = [];
    this.sock.on('data', d => {
      this.buf += d;
      let i;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, i);
        this.buf = this.buf.slice(i + 1);
        const msg = JSON.parse(line);
        if (msg.event) continue; // broadcast lines, not replies
        const w = this.waiting.shift();
        if (w) w(msg);
      }
    });
  }
  ready() { return new Promise((ok, fail) => { this.sock.once('connect', ok); this.sock.once('error', fail); }); }
  send(req) {
    return new Promise(ok => {
      this.waiting.push(ok);
      this.sock.write(JSON.stringify(req) + '\n');
    });
  }
  close() { this.sock.end(); }
}

/* Wall-clock now in ms with fractions: node and the page share the clock. */
const now = () => performance.timeOrigin + performance.now();

/* Send a board's move and time it: `acked` when the reply came (judged
 * and durable), `shown` when the page's DOM had the move (a mutation
 * observer in the page notes the moment the card shows the new ply). */
async function timedMove(board, table, req) {
  const sel = `#boards .card[data-table="${table}"][data-ply="${req.seq}"]`;
  await page.evaluate(sel => {
    window.__shown = 0;
    const obs = new MutationObserver(() => {
      if (document.querySelector(sel)) {
        window.__shown = performance.timeOrigin + performance.now();
        obs.disconnect();
      }
    });
    obs.observe(document.getElementById('boards'), { childList: true, subtree: true });
  }, sel);
  const t0 = now();
  const reply = await board.send(req);
  const acked = now() - t0;
  assert.equal(reply.ok, true, JSON.stringify(reply));
  await page.waitForSelector(sel, { timeout: WAIT });
  const shown = (await page.evaluate(() => window.__shown)) - t0;
  assert.ok(shown > 0, 'the page noted the move');
  return { acked, shown };
}

async function api(path) {
  const r = await fetch(base + path);
  assert.equal(r.status, 200, path);
  return r.json();
}

async function shot(name) {
  await page.screenshot({ path: join(ART, name + '.png'), fullPage: true });
}

before(async () => {
  assert.ok(existsSync(XQREF), `${XQREF} is built`);
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is installed (scripts/install-deps.sh)`);
  dir = mkdtempSync(join(tmpdir(), 'xqref-web-'));
  mkdirSync(ART, { recursive: true });
  await startServer();
  browser = await chromium.launch(LAUNCH);
  const ctx = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 900 } });
  page = await ctx.newPage();
  page.on('console', m => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  page.on('pageerror', e => problems.push('page error: ' + e.message));
});

after(async () => {
  if (browser) await browser.close();
  if (server && server.exitCode === null) {
    server.removeAllListeners('exit');
    const done = new Promise(ok => server.on('exit', (code, signal) => ok({ code, signal })));
    server.kill('SIGTERM');
    const end = await done;
    if (dir) rmSync(dir, { recursive: true, force: true });
    // a graceful stop: every handle closed (and, under ASan, no leak)
    assert.deepEqual(end, { code: 0, signal: null }, 'the server stops cleanly on SIGTERM');
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the page loads with its boards and no console error', async () => {
  const pairings = await api('/api/rounds/1/pairings.json');
  const games = pairings.boards.filter(b => !b.bye).length;
  const resp = await page.goto(base + '/');
  assert.equal(resp.status(), 200);
  assert.match(resp.headers()['content-type'], /text\/html/);
  await page.waitForFunction(n => document.querySelectorAll('#boards .card svg').length === n, games, { timeout: WAIT });
  const event = await api('/api/event');
  assert.equal(await page.textContent('#event-name'), event.name);
  // every piece of the start position is drawn, with its character
  const pieces = await page.$$eval('#boards .card[data-table="1"] .pc text', ts => ts.map(t => t.textContent).join(''));
  assert.equal(pieces.length, 32);
  for (const ch of '帥仕相傌俥炮兵將士象馬車砲卒') assert.ok(pieces.includes(ch), ch);
  await page.waitForSelector('#status[data-state="live"]', { timeout: WAIT });
  await shot('01-boards');
  assert.deepEqual(problems, []);
});

test('a viewer fetches the viewer\'s modules alone; a staff session brings the desk, an admin\'s the console', async () => {
  const { ctx, p, errors } = await freshPage(1280, 900);
  const fetched = new Set();
  p.on('request', r => { const u = new URL(r.url()); if (u.pathname.startsWith('/web/')) fetched.add(u.pathname.slice(5)); });
  const since = seen => [...fetched].filter(f => !seen.includes(f)).sort();
  await p.goto(base + '/#arbiter');
  await p.waitForSelector('#boards .card', { state: 'attached', timeout: WAIT });
  await p.waitForSelector('#status[data-state="live"]', { timeout: WAIT });
  const viewer = ['app.js', 'core.js', 'live.js', 'session.js', 'style.css', 'views.js'];
  assert.deepEqual(since([]), viewer, 'a viewer\'s page fetches no staff module');
  // a board token is not staff: still nothing more
  await p.fill('#token', tokens.boards['1.2']);
  await p.click('#token-form button[type="submit"]');
  await p.waitForSelector('#role:has-text("棋盘")', { timeout: WAIT });
  assert.deepEqual(since(viewer), []);
  // an arbiter's token: the desk, nothing of the console
  await p.fill('#token', tokens.arbiter);
  await p.click('#token-form button[type="submit"]');
  await p.waitForSelector('#arbiter-body:not([hidden]) #arbiter-games tbody tr', { timeout: WAIT });
  assert.deepEqual(since(viewer), ['desk.js']);
  // an admin's token: the console and its sections, with their words
  await p.fill('#token', tokens.admin);
  await p.click('#token-form button[type="submit"]');
  await p.waitForSelector('#role:has-text("管理员")', { timeout: WAIT });
  assert.deepEqual(since(viewer),
    ['console.js', 'console_base.js', 'console_pairing.js', 'console_players.js', 'console_print.js',
      'console_settings.js', 'desk.js']);
  await p.click('#tabs a[data-view="console"]');
  await p.waitForSelector('#console-body:not([hidden]) #c-players tbody tr', { timeout: WAIT });
  assert.equal(await p.textContent('#c-nav button[data-to="c-sec-players"]'), '棋手');
  assert.equal(await p.getAttribute('#c-add input[name="team"]', 'placeholder'), '队');
  // signed out: neither the desk nor the console
  await p.click('#tabs a[data-view="arbiter"]');
  await p.click('#sign-out');
  await p.waitForSelector('#arbiter-body[hidden]', { state: 'attached', timeout: WAIT });
  await p.click('#tabs a[data-view="console"]');
  await p.waitForSelector('#console-note:not([hidden])', { timeout: WAIT });
  assert.equal(await p.locator('#console-body').isHidden(), true);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a move sent by a board over TCP appears on the page', async () => {
  const board = new Board(jsonPort);
  await board.ready();
  const hello = await board.send({ id: 1, op: 'hello', token: tokens.boards['1.1'] });
  assert.equal(hello.role, 'board');
  const lat = await timedMove(board, 1, { id: 2, op: 'move', seq: 1, move: 'h2e2', clock: [5391000, 5400000] });
  console.log(`latency from send to display: ${lat.shown.toFixed(1)} ms ` +
              `(the board's reply after ${lat.acked.toFixed(1)} ms; move h2e2, table 1)`);
  const card = page.locator('#boards .card[data-table="1"]');
  assert.match(await card.locator('.last').textContent(), /炮二平五/);
  // the last move is marked on the board: its from and to squares
  assert.equal(await card.locator('circle.mark').count(), 2);
  assert.equal(await card.locator('.pc[data-sq="e2"] text').textContent(), '炮');
  assert.match(await card.textContent(), /1:29:51/); // Red's clock, 5391 s
  board.close();
  assert.deepEqual(problems, []);
});

test('a batch of events (as an edge sends them) is applied event by event', async () => {
  // Through an nginx + nchan edge (docs/scale.md) events posted together
  // come as one `batch` message, a data line "TYPE DATA" each. The stream
  // of a second page is answered here with such a message: two moves of
  // table 7, which no other test plays.
  const { ctx, p: p2, errors } = await freshPage(1280, 900);
  const move = (ply, mv, wxf, zh, fen) => 'move ' + JSON.stringify({ ply, move: mv, wxf, zh, fen,
    clock: [5400000, 5400000], result: '*', round: 1, table: 7, at: Date.now() * 1000 });
  const body = 'retry: 600000\n\n: hi\n\nid: 1764489600:0\nevent: batch\n' +
    'data: ' + move(1, 'h2e2', 'C2.5', '炮二平五', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1') + '\n' +
    'data: ' + move(2, 'h9g7', 'H8+7', '马８进７', 'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2') + '\n\n';
  let served = 0;
  await p2.route('**/api/events*', route => {
    if (served++) return route.abort();
    return route.fulfill({ status: 200, headers: { 'Content-Type': 'text/event-stream' }, body });
  });
  await p2.goto(base + '/');
  const card = p2.locator('#boards .card[data-table="7"]');
  await card.locator('.last').filter({ hasText: '马８进７' }).waitFor({ timeout: WAIT });
  assert.equal(await card.locator('.pc[data-sq="e2"] text').textContent(), '炮');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('D3: a card\'s clock runs for the side to move and says what the API says', async () => {
  const { ctx, p, errors } = await freshPage(1280, 900);
  await p.goto(base + '/#live/1');
  await p.waitForSelector('#boards .card[data-table="4"]', { timeout: WAIT });
  const board = new Board(jsonPort);
  await board.ready();
  await board.send({ id: 1, op: 'hello', token: tokens.boards['1.4'] });
  const r = await board.send({ id: 2, op: 'move', seq: 1, move: 'h2e2', clock: [5391000, 5400000] });
  board.close();
  assert.equal(r.ok, true, JSON.stringify(r));
  const card = p.locator('#boards .card[data-table="4"]');
  await p.locator('#boards .card[data-table="4"][data-ply="1"]').waitFor({ timeout: WAIT });
  const api4 = (await api('/api/rounds/1/games.json')).games.find(g => g.table === 4);
  const text = ms => { const s = Math.floor(ms / 1000); return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`; };
  assert.equal(await card.locator('.clock[data-side="0"]').textContent(), text(api4.clock[0]), 'Red has moved: its clock is the API\'s');
  // Black's clock runs down on the page (no deadline asserted: it gets
  // there, two seconds less, whenever the page's ticks do)
  const first = await card.locator('.clock[data-side="1"]').textContent();
  const secs = t => t.split(':').reduce((a, x) => a * 60 + +x, 0);
  await p.waitForFunction(([want, sel]) => {
    const t = document.querySelector(sel).textContent;
    return t.split(':').reduce((a, x) => a * 60 + +x, 0) <= want;
  }, [secs(first) - 2, '#boards .card[data-table="4"] .clock[data-side="1"]'], { timeout: WAIT });
  assert.equal(await card.locator('.clock[data-side="0"]').textContent(), text(api4.clock[0]), 'Red\'s stands');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('latency over ten moves of one game (a figure, not asserted)', async () => {
  const board = new Board(jsonPort);
  await board.ready();
  await board.send({ id: 1, op: 'hello', token: tokens.boards['1.3'] });
  const moves = ['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0', 'b9c7', 'b0c2', 'a9b9', 'a0b0', 'c6c5'];
  const shown = [], acked = [];
  for (let i = 0; i < moves.length; i++) {
    const lat = await timedMove(board, 3, { id: i + 2, op: 'move', seq: i + 1, move: moves[i] });
    shown.push(lat.shown);
    acked.push(lat.acked);
  }
  board.close();
  const med = a => [...a].sort((x, y) => x - y)[a.length >> 1];
  console.log(`latency over ${moves.length} moves: send to display median ${med(shown).toFixed(1)} ms, ` +
              `min ${Math.min(...shown).toFixed(1)}, max ${Math.max(...shown).toFixed(1)}; ` +
              `send to the board's reply median ${med(acked).toFixed(1)} ms`);
  assert.equal(await page.textContent('#boards .card[data-table="3"] .last'), '5. … 卒３进１');
});

test('the standings on the page equal /api/standings.json', async () => {
  await page.click('#tabs a[data-view="standings"]');
  const json = await api('/api/standings.json');
  await page.waitForFunction(n => document.querySelectorAll('#standings tbody tr').length === n,
    json.standings.length, { timeout: WAIT });
  const cols = await page.$$eval('#standings thead th[data-tb]', ths => ths.map(th => th.dataset.tb));
  // the lots rank but are not shown (numbers easily taken for 序号)
  assert.deepEqual(cols, json.tiebreaks.filter(c => c !== 'LOT' && json.standings.some(r => c in r.tb)));
  const rows = await page.$$eval('#standings tbody tr', trs => trs.map(tr => ({
    id: +tr.dataset.id,
    rank: tr.querySelector('[data-col="rank"]').textContent,
    name: tr.querySelector('[data-col="name"]').textContent,
    tb: Object.fromEntries([...tr.querySelectorAll('td[data-tb]')].map(td => [td.dataset.tb, td.textContent])),
  })));
  assert.deepEqual(rows, json.standings.map(r => ({
    id: r.id, rank: String(r.rank), name: r.name,
    tb: Object.fromEntries(cols.map(c => [c, String(r.tb[c])])),
  })));
  await shot('02-standings');
});

test('a foul gets a verdict banner', async () => {
  await page.click('#tabs a[data-view="live"]');
  const board = new Board(jsonPort);
  await board.ready();
  await board.send({ id: 1, op: 'hello', token: tokens.boards['1.1'] });
  // Black's rook on a9 cannot jump its own pawn on a6: a breach of the
  // rules of movement, a foul
  const reply = await board.send({ id: 2, op: 'move', seq: 2, move: 'a9a5' });
  assert.equal(reply.verdict.verdict, 'foul', JSON.stringify(reply));
  const banner = page.locator('#banners .banner[data-kind="foul"][data-table="1"]');
  await banner.waitFor({ timeout: WAIT });
  assert.match(await banner.textContent(), /第1台/);
  assert.match(await page.locator('#boards .card[data-table="1"] .flags').textContent(), /犯规 红0 黑1/);
  await shot('03-foul-banner');
  board.close();
});

test('the game viewer steps through the moves and links the PGN', async () => {
  await page.goto(base + '/#game/1/1');
  await page.waitForSelector('#g-moves .mv[data-ply="1"]', { timeout: WAIT });
  assert.equal(await page.textContent('#g-moves .mv.current'), '炮二平五');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.locator('#g-moves .mv.current').count(), 0);
  assert.equal(await page.locator('#g-board .pc[data-sq="h2"] text').textContent(), '炮');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.textContent('#g-moves .mv.current'), '炮二平五');
  await page.selectOption('#notation', 'wxf');
  assert.equal(await page.textContent('#g-moves .mv.current'), 'C2.5');
  await page.selectOption('#notation', 'iccs');
  assert.equal(await page.textContent('#g-moves .mv.current'), 'h2e2');
  const href = await page.getAttribute('#g-pgn', 'href');
  assert.equal(href, '/api/rounds/1/1.pgn?notation=iccs');
  const pgn = await (await fetch(base + href)).text();
  assert.match(pgn, /H2-E2/);
  await page.selectOption('#notation', 'zh');
  await shot('04-viewer');
  assert.deepEqual(problems, []);
});

test('the arbiter sees the foul and sets a result with one click', async () => {
  await page.goto(base + '/#arbiter');
  await page.fill('#token', tokens.arbiter);
  await page.click('#token-form button[type="submit"]');
  const item = page.locator('#attention .item[data-table="1"]');
  await item.waitFor({ timeout: WAIT });
  assert.match(await item.textContent(), /犯规 红0 黑1/);
  assert.match(await page.textContent('#role'), /裁判/);
  assert.equal(await page.evaluate(() => sessionStorage.getItem('xqref.token')), tokens.arbiter);
  // a game in play ends only when confirmed (issue 35)
  await item.locator('button[data-action="a_10"]').click();
  await item.locator('.confirm[data-live] button[data-action="yes"]').click();
  await page.waitForSelector('#arbiter-games tr[data-table="1"] td.result[data-result="1-0"]', { timeout: WAIT });
  // the desk's own line says it (no banner on the staff's views)
  await page.waitForSelector('#op-result:has-text("第1台")', { timeout: WAIT });
  const pairings = await api('/api/rounds/1/pairings.json');
  assert.equal(pairings.boards[0].result, '1-0');
  // a foul recorded with one click lists the game; confirming the ruling
  // takes it off the list
  await page.locator('#arbiter-games tr[data-table="2"] button[data-action="a_foul_black"]').click();
  const item2 = page.locator('#attention .item[data-table="2"]');
  await item2.waitFor({ timeout: WAIT });
  assert.match(await item2.textContent(), /犯规 红0 黑1/);
  await shot('05-arbiter');
  await item2.locator('button[data-action="a_confirm"]').click();
  await item2.waitFor({ state: 'detached', timeout: WAIT });
  const g2 = (await api('/api/rounds/1/games.json')).games.find(g => g.table === 2);
  assert.deepEqual(g2.fouls, [0, 1]);
  // a board token is no arbiter's
  await page.fill('#token', tokens.boards['1.2']);
  await page.click('#token-form button[type="submit"]');
  await page.waitForSelector('#op-result.error', { timeout: WAIT });
  assert.equal(await page.locator('#arbiter-body').isHidden(), true);
  assert.deepEqual(problems, []);
});

test('the standings follow the result; English; a phone screen', async () => {
  await page.goto(base + '/#standings');
  const json = await api('/api/standings.json');
  const winner = json.standings.find(r => r.tb.PTS > 0);
  assert.ok(winner, 'the result counts');
  await page.waitForFunction(([id, pts]) => {
    const td = document.querySelector(`#standings tr[data-id="${id}"] td[data-tb="PTS"]`);
    return td && td.textContent === String(pts);
  }, [winner.id, winner.tb.PTS], { timeout: WAIT });
  await page.click('#lang');
  assert.equal(await page.textContent('#tabs a[data-view="standings"]'), 'Standings');
  assert.equal(await page.textContent('#standings th[data-tb="PTS"]'), 'Points');
  await page.click('#lang');
  assert.equal(await page.textContent('#tabs a[data-view="standings"]'), '排名');
  await page.setViewportSize({ width: 375, height: 760 });
  await page.goto(base + '/#live');
  await page.waitForSelector('#boards .card svg', { timeout: WAIT });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling on a phone (${overflow} px)`);
  await shot('06-phone');
  await page.goto(base + '/#game/1/1');
  await page.waitForSelector('#g-moves .mv', { timeout: WAIT });
  await shot('07-phone-viewer');
  assert.deepEqual(problems, []);
});

test('a round published while the page is open is shown', async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(base + '/#pairings');
  await page.waitForSelector('#pairings tbody tr', { timeout: WAIT });
  // the organiser finishes round 1 and publishes round 2, over POST /api/op
  const r1 = await api('/api/rounds/1/pairings.json');
  const lines = r1.boards.filter(b => !b.bye && b.result === '*')
    .map(b => JSON.stringify({ id: b.table, op: 'result', round: 1, table: b.table, result: '=' }));
  lines.push(JSON.stringify({ id: 'pair', op: 'pair', publish: true }));
  const resp = await fetch(base + '/api/op', {
    method: 'POST', headers: { Authorization: 'Bearer ' + tokens.admin }, body: lines.join('\n'),
  });
  assert.equal(resp.status, 200);
  const replies = (await resp.text()).trim().split('\n').map(l => JSON.parse(l));
  assert.equal(replies.length, lines.length);
  for (const r of replies) assert.equal(r.ok, true, JSON.stringify(r));
  await page.waitForFunction(() => document.querySelector('#round').value === '2', null, { timeout: WAIT });
  const r2 = await api('/api/rounds/2/pairings.json');
  await page.waitForFunction(n => document.querySelectorAll('#pairings tbody tr').length === n,
    r2.boards.length, { timeout: WAIT });
  const first = await page.textContent('#pairings tbody tr[data-table="1"] td.red-name');
  assert.equal(first, `${r2.boards[0].red.name} (${r2.boards[0].red.rating})`);
  await shot('08-round-2');
  assert.deepEqual(problems, []);
});

test('the knockout tables are shown as the knockout round', async () => {
  await page.goto(base + '/#pairings');
  await page.waitForSelector('#pairings tbody tr', { timeout: WAIT });
  // round 2 finished, the top 4 seeded and their semi-finals published
  const r2 = await api('/api/rounds/2/pairings.json');
  const lines = r2.boards.filter(b => !b.bye && b.result === '*')
    .map(b => JSON.stringify({ id: 'r' + b.table, op: 'result', round: 2, table: b.table, result: '1-0' }));
  lines.push(JSON.stringify({ id: 'ko', op: 'ko_start', after: 2, size: 4, format: 'xinjiang' }));
  lines.push(JSON.stringify({ id: 'pub', op: 'ko_publish' }));
  const resp = await fetch(base + '/api/op', {
    method: 'POST', headers: { Authorization: 'Bearer ' + tokens.admin }, body: lines.join('\n'),
  });
  assert.equal(resp.status, 200);
  const replies = (await resp.text()).trim().split('\n').map(l => JSON.parse(l));
  for (const r of replies) assert.equal(r.ok, true, JSON.stringify(r));
  const ko = await api('/api/knockout');
  assert.equal(ko.started, true);
  const round = String(ko.round);
  await page.waitForFunction(r => document.querySelector('#round').value === r, round, { timeout: WAIT });
  const label = await page.textContent(`#round option[value="${round}"]`);
  assert.ok(label === 'Knockout' || label === '淘汰赛', label);
  await page.waitForFunction(() => document.querySelectorAll('#pairings tbody tr').length === 2, null,
    { timeout: WAIT });
  const first = await page.textContent('#pairings tbody tr[data-table="1"] td.red-name');
  assert.ok(first.startsWith(ko.tables[0].red.name), first);
  // a knockout table names its stage and game type (issue 35)
  await page.waitForSelector('#pairings tbody tr[data-table="1"] .ko-tag', { timeout: WAIT });
  assert.match(await page.textContent('#pairings tbody tr[data-table="1"] .ko-tag'), /^(半决赛 · 慢棋|Semi-finals · standard)$/);
  // the bracket: two semi-finals and the final, each match's players
  await page.waitForSelector('#bracket li[data-match="3"]', { timeout: WAIT });
  assert.equal(await page.locator('#bracket li').count(), 3);
  const semi = await page.textContent('#bracket li[data-match="1"] .ko-players');
  assert.ok(semi.includes(ko.tables[0].red.name) && semi.includes(ko.tables[0].black.name), semi);
  // the final, its players not known yet, is named by the matches it waits for, not "?"
  assert.deepEqual(ko.matches[2].from, { matches: [1, 2], losers: false });
  const fin = await page.textContent('#bracket li[data-match="3"] .ko-players');
  assert.ok(['半决赛第1场胜者 – 半决赛第2场胜者', 'winner of Semi-finals 1 – winner of Semi-finals 2'].includes(fin), fin);
  // the arbiter decides table 1: its winner shows in the bracket
  const res = await fetch(base + '/api/op', {
    method: 'POST', headers: { Authorization: 'Bearer ' + tokens.admin },
    body: JSON.stringify({ id: 'k1', op: 'result', round: ko.round, table: 1, result: '0-1' }),
  });
  assert.equal(res.status, 200);
  await page.waitForSelector('#bracket li[data-match="1"] .ko-winner', { timeout: WAIT });
  const won = await page.textContent('#bracket li[data-match="1"] .ko-winner');
  assert.ok(won.includes(ko.tables[0].black.name), won);
  await shot('09-knockout');
  assert.deepEqual(problems, []);
});

/* ------------------------------------------------------------------ */
/* What a viewer sees (issue D-items): each test on a page of its own   */
/* ------------------------------------------------------------------ */

async function freshPage(width, height, setup) {
  const ctx = await browser.newContext({ locale: 'zh-CN', viewport: { width, height } });
  const p = await ctx.newPage();
  const errors = [];
  p.on('pageerror', e => errors.push(String(e)));
  if (setup) await setup(p);
  return { ctx, p, errors };
}

test('i35: the live filter finds the boards of a club, and says so when none matches', async () => {
  const { ctx, p, errors } = await freshPage(1280, 900);
  try {
    await p.goto(base + '/#live');
    await p.waitForSelector('#boards .card', { timeout: WAIT });
    const players = new Map((await api('/api/event')).players.map(x => [x.id, x]));
    const round = await p.$eval('#round', s => s.value); // the round on screen (later tests publish more)
    await p.waitForFunction(() => document.querySelectorAll('#boards .card').length > 0, null, { timeout: WAIT });
    const games = (await api(`/api/rounds/${round}/games.json`)).games;
    await p.waitForFunction(n => document.querySelectorAll('#boards .card').length === n, games.length, { timeout: WAIT });
    const club = players.get(games[0].red.id).club;
    assert.ok(club, 'the demo players have clubs');
    const want = games.filter(g => [g.red, g.black].some(q => q && (players.get(q.id).club || '').includes(club)))
      .map(g => g.table).sort((a, b) => a - b);
    const visible = () => p.$$eval('#boards .card:not([hidden])', cs => cs.map(c => +c.dataset.table).sort((a, b) => a - b));
    await p.fill('#filter', club);
    await p.waitForFunction(n => document.querySelectorAll('#boards .card:not([hidden])').length === n, want.length,
      { timeout: WAIT });
    assert.deepEqual(await visible(), want);
    await p.fill('#filter', '没有这个单位');
    await p.waitForSelector('#boards [data-empty="no-match"]', { timeout: WAIT });
    assert.equal(await p.textContent('#boards [data-empty="no-match"]'), '没有对局符合“没有这个单位”');
    await p.fill('#filter', '');
    await p.waitForFunction(n => document.querySelectorAll('#boards .card:not([hidden])').length === n, games.length,
      { timeout: WAIT });
    assert.equal(await p.locator('#boards [data-empty="no-match"]').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});

test('i35: a new view or game opens at its top, not at the old scroll position', async () => {
  const { ctx, p, errors } = await freshPage(390, 300); // a short phone screen: every view scrolls
  try {
    await p.goto(base + '/#standings');
    await p.waitForSelector('#standings tbody tr', { timeout: WAIT });
    await p.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await p.waitForFunction(() => window.scrollY > 0, null, { timeout: WAIT });
    await p.click('#tabs a[data-view="live"]');
    await p.waitForFunction(() => document.body.dataset.view === 'live', null, { timeout: WAIT });
    assert.equal(await p.evaluate(() => window.scrollY), 0, 'the live view at its top');
    await p.waitForSelector('#boards .card', { timeout: WAIT });
    await p.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await p.waitForFunction(() => window.scrollY > 0, null, { timeout: WAIT });
    const card = p.locator('#boards .card:not([hidden])').last();
    await card.click();
    await p.waitForFunction(() => document.body.dataset.view === 'game', null, { timeout: WAIT });
    assert.equal(await p.evaluate(() => window.scrollY), 0, 'the game at its top: the board whole');
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});

test('D1: a long move list scrolls down inside its box, never sideways', async () => {
  for (const [w, h, name] of [[1400, 900, '10-long-game'], [390, 844, '11-long-game-phone']]) {
    const { ctx, p, errors } = await freshPage(w, h);
    await p.goto(base + '/#game/1/2');
    await p.waitForSelector('#g-title:not(:empty)', { timeout: WAIT });
    // a game of 159 plies with long Chinese moves, as the page holds it
    await p.evaluate(async () => {
      const [{ S }, { renderViewer }] = await Promise.all([import('/web/core.js'), import('/web/views.js')]);
      const g = S.games.get(2);
      const zh = ['马二进三', '炮８平５', '车一平二', '马８进７'];
      g.moves = Array.from({ length: 159 }, (_, i) => ['h0g2', 'h7e7', 'i0h0', 'h9g7'][i % 4]);
      g.zh = Array.from({ length: 159 }, (_, i) => zh[i % 4]);
      g.wxf = Array.from({ length: 159 }, () => 'H2+3');
      renderViewer();
    });
    const box = await p.evaluate(() => {
      const ol = document.querySelector('#g-moves');
      const last = ol.querySelector('.mv[data-ply="159"]').getBoundingClientRect();
      const r = ol.getBoundingClientRect();
      return { sw: ol.scrollWidth, cw: ol.clientWidth, inside: last.left >= r.left && last.right <= r.right + 1 &&
        last.top >= r.top && last.bottom <= r.bottom + 1, page: document.documentElement.scrollWidth, vw: innerWidth };
    });
    assert.ok(box.sw <= box.cw + 1, `the list is ${box.sw} px wide in a ${box.cw} px box (${w} px screen)`);
    assert.ok(box.inside, `the last move is in sight (${w} px screen)`);
    assert.ok(box.page <= box.vw + 1, `the page is ${box.page} px wide on a ${box.vw} px screen`);
    await p.screenshot({ path: join(ART, name + '.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test('D7: the round is in the URL: a reload keeps it, and the standings are of that round', async () => {
  const { ctx, p, errors } = await freshPage(1280, 900);
  await p.goto(base + '/#standings/1');
  await p.waitForFunction(() => document.querySelector('#round').value === '1', null, { timeout: WAIT });
  await p.waitForSelector('#standings-caption:text-is("第1轮后")', { timeout: WAIT });
  assert.equal(await p.getAttribute('#tabs a[data-view="live"]', 'href'), '#live/1');
  await p.reload();
  await p.waitForFunction(() => document.querySelector('#round').value === '1', null, { timeout: WAIT });
  // the reload opens the standings view again (the round select shows round 1 before the view is routed)
  await p.waitForSelector('#view-standings', { state: 'visible', timeout: WAIT });
  await p.waitForSelector('#standings-caption:text-is("第1轮后")', { timeout: WAIT });
  const st1 = await api('/api/standings.json?round=1');
  await p.waitForFunction(n => document.querySelector('#standings tbody tr:first-child [data-col="name"]')?.textContent === n,
    st1.standings[0].name, { timeout: WAIT });
  await p.selectOption('#round', '2');
  await p.waitForFunction(() => location.hash === '#standings/2', null, { timeout: WAIT });
  await p.waitForSelector('#standings-caption:text-is("第2轮后")', { timeout: WAIT });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('D8: on a phone at most two banners show, a line each', async () => {
  const { ctx, p, errors } = await freshPage(390, 844);
  await p.goto(base + '/');
  await p.waitForSelector('#boards .card', { timeout: WAIT });
  await p.evaluate(async () => {
    const { banner } = await import('/web/views.js');
    for (let i = 1; i <= 6; i++) banner('foul', i, `第${i}台：黑方犯规，车不能越子（第二次犯规判负前的警告，请注意行棋规则）`);
  });
  assert.equal(await p.locator('#banners .banner').count(), 2);
  const h = (await p.locator('#banners').boundingBox()).height;
  assert.ok(h <= 80, `the banners take ${h} px`);
  await p.screenshot({ path: join(ART, '12-phone-banners.png') });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('D9: a lost connection says so in words, not only with a red dot', async () => {
  const { ctx, p } = await freshPage(1280, 900, p => p.route('**/api/events*', r => r.abort()));
  await p.goto(base + '/');
  const st = p.locator('#status[data-state="down"]');
  await st.waitFor({ timeout: WAIT });
  assert.match(await st.textContent(), /连接中断/);
  assert.ok((await st.boundingBox()).width > 40, 'the words are shown');
  await ctx.close();
});

test('D10: cards and moves are reached from the keyboard; boards have a label', async () => {
  const { ctx, p, errors } = await freshPage(1280, 900);
  await p.goto(base + '/#live');
  await p.waitForSelector('#boards .card', { timeout: WAIT });
  const label = await p.getAttribute('#boards .card[data-table="1"] svg', 'aria-label');
  assert.match(label || "", /^第1台：红方 .+，黑方 .+；/);
  assert.equal(await p.getAttribute('#boards .card[data-table="1"] svg', 'role'), 'img');
  let focused = '';
  for (let i = 0; i < 40 && !focused; i++) {
    await p.keyboard.press('Tab');
    focused = await p.evaluate(() => document.activeElement.closest('.card')?.dataset.table || '');
  }
  assert.ok(focused, 'a card takes the focus');
  await p.keyboard.press('Enter');
  await p.waitForFunction(t => location.hash === `#game/${document.querySelector('#round').value}/${t}`, focused,
    { timeout: WAIT });
  await p.goto(base + '/#game/1/1');
  await p.waitForSelector('#g-moves button.mv[data-ply="1"]', { timeout: WAIT });
  await p.focus('#g-moves button.mv[data-ply="1"]');
  await p.keyboard.press('Enter');
  assert.equal(await p.getAttribute('#g-moves .mv[data-ply="1"]', 'aria-current'), 'step');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('D6: every reason of the adjudicator has Chinese words on the Chinese page', async () => {
  // the reason names, as the adjudicator defines them
  const src = readFileSync(new URL('../../adjudicator/reason.c', import.meta.url), 'utf8');
  const names = [...src.matchAll(/\{XQ_REASON_\w+, "([a-z_]+)"/g)].map(m => m[1]).filter(n => n !== 'none');
  assert.ok(names.length >= 30, `${names.length} reasons`);
  const { ctx, p, errors } = await freshPage(1280, 900);
  await p.goto(base + '/');
  await p.waitForSelector('#boards .card', { timeout: WAIT });
  const words = await p.evaluate(async ns => {
    const { resultText, reasonText } = await import('/web/core.js');
    return ns.map(n => [n, resultText('0-1') + reasonText(n)]);
  }, names);
  for (const [n, w] of words) assert.doesNotMatch(w, /[A-Za-z_]/, `${n}: ${w}`);
  assert.equal(words.find(([n]) => n === 'flag_fall')[1], '黑胜 0-1（超时）');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('D2: the arbiter still reads why a game needs attention after a reload', async () => {
  const ko = await api('/api/knockout');
  const table = 2; // the second semi-final: not decided yet
  const res = await fetch(base + '/api/op', {
    method: 'POST', headers: { Authorization: 'Bearer ' + tokens.arbiter },
    body: JSON.stringify({ id: 'f2', op: 'foul', round: ko.round, table, side: 'red' }),
  });
  assert.equal(res.status, 200);
  const { ctx, p, errors } = await freshPage(1280, 900);
  await p.goto(base + `/#arbiter/${ko.round}`);
  await p.fill('#token', tokens.arbiter);
  await p.click('#token-form button[type="submit"]');
  const verdict = p.locator(`#attention .item[data-table="${table}"] .verdict`);
  await verdict.waitFor({ timeout: WAIT });
  const said = await verdict.textContent();
  assert.match(said, /犯规/);
  await p.reload();
  await verdict.waitFor({ timeout: WAIT });
  assert.equal(await verdict.textContent(), said, 'the sentence comes from the server, not the page');
  // and in the other language, with the article of the rules it applies
  const other = await p.textContent(`#attention .item[data-table="${table}"] .verdict-other`);
  assert.match(other, /[a-z]{3}.*\[条款 .+\]$/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('D4: a finished result changes only when confirmed, and one click undoes it; headings; a phone row', async () => {
  const { ctx, p, errors } = await freshPage(1280, 900);
  await p.goto(base + '/#arbiter/1');
  await p.fill('#token', tokens.arbiter);
  await p.click('#token-form button[type="submit"]');
  const row = p.locator('#arbiter-games tr[data-table="3"]');
  await row.waitFor({ timeout: WAIT });
  assert.equal(await p.locator('#arbiter-games thead th').count(), 6);
  assert.equal(await p.textContent('#arbiter-games thead th:nth-child(4)'), '结果');
  const before = (await api('/api/rounds/1/pairings.json')).boards.find(b => b.table === 3).result;
  assert.notEqual(before, '*');
  const other = before === '0-1' ? 'a_10' : 'a_01';
  await row.locator(`button[data-action="${other}"]`).click();
  await row.locator('.confirm').waitFor({ timeout: WAIT });
  assert.equal((await api('/api/rounds/1/pairings.json')).boards.find(b => b.table === 3).result, before,
    'nothing changed before the confirmation');
  await row.locator('.confirm button[data-action="no"]').click();
  assert.equal(await row.locator('.confirm').count(), 0);
  await row.locator(`button[data-action="${other}"]`).click();
  await row.locator('.confirm button[data-action="yes"]').click();
  const want = other === 'a_10' ? '1-0' : '0-1';
  const result = async () => (await api('/api/rounds/1/pairings.json')).boards.find(b => b.table === 3).result;
  // once a knockout is seeded after round 1 or later (an earlier test
  // seeds one), the server refuses the change and the desk offers it
  // again, saying why: changed anyway
  for (let i = 0; i < 50 && await result() !== want; i++) {
    if (await p.locator('#op-result button.force').count()) {
      assert.match(await p.textContent('#op-result'), /decided the knockout/);
      // the line under the desk is drawn again by each answer: a button
      // replaced while it is clicked is clicked again on the next turn
      await p.click('#op-result button.force', { timeout: 2000 }).catch(() => {});
    }
    await new Promise(r => setTimeout(r, 100));
  }
  assert.equal(await result(), want, await p.textContent('#op-result'));
  await p.click('#op-result button.undo');
  for (let i = 0; i < 50 && await result() !== before; i++) await new Promise(r => setTimeout(r, 100));
  assert.equal(await result(), before, 'undone');
  // the page keeps the result as the API says it (a draw is 1/2-1/2, not the log's '=')
  await p.waitForSelector(`#arbiter-games tr[data-table="3"] td.result[data-result="${before}"]`, { timeout: WAIT });
  // on a phone a game's buttons stay in one row
  await p.setViewportSize({ width: 390, height: 844 });
  const tops = await row.locator('.actions button').evaluateAll(bs => bs.map(b => Math.round(b.getBoundingClientRect().top)));
  assert.ok(tops.length >= 3 && new Set(tops).size === 1, `the buttons' tops: ${tops}`);
  await p.screenshot({ path: join(ART, '13-arbiter-phone.png') });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('D5: knockout cards name their stage and game; the bracket says who had Red; the final places are shown', async () => {
  const { ctx, p, errors } = await freshPage(1280, 900);
  let ko = await api('/api/knockout');
  await p.goto(base + `/#live/${ko.round}`);
  const card = p.locator('#boards .card[data-table="2"] .head');
  await card.filter({ hasText: '半决赛' }).waitFor({ timeout: WAIT });
  assert.match(await card.textContent(), /第2台 · 半决赛 · 慢棋/);
  // the semi-final still in play is decided, then the final and the third-place match
  const post = async body => {
    const r = await fetch(base + '/api/op', { method: 'POST', headers: { Authorization: 'Bearer ' + tokens.admin }, body });
    assert.equal(r.status, 200);
    for (const l of (await r.text()).trim().split('\n')) assert.equal(JSON.parse(l).ok, true, l);
  };
  await post(JSON.stringify({ id: 's2', op: 'result', round: ko.round, table: 2, result: '1-0' }));
  ko = await api('/api/knockout');
  if (!ko.tables.some(tb => !tb.result || tb.result === '*')) await post(JSON.stringify({ id: 'p2', op: 'ko_publish' }));
  ko = await api('/api/knockout');
  const open = ko.tables.filter(tb => !tb.result || tb.result === '*');
  assert.ok(open.length >= 1, JSON.stringify(ko.tables));
  await post(open.map(tb => JSON.stringify({ id: 't' + tb.table, op: 'result', round: ko.round, table: tb.table, result: '1-0' })).join('\n'));
  ko = await api('/api/knockout');
  assert.equal(ko.decided, true, JSON.stringify(ko.matches.map(m => m.winner)));
  await p.goto(base + `/#pairings/${ko.round}`);
  const semi = p.locator('#bracket li[data-match="1"] .ko-games');
  await semi.waitFor({ timeout: WAIT });
  const g1 = ko.matches[0].games[0];
  const red = ko.matches[0].players.find(x => x.id === g1.red);
  const said = await p.evaluate(async r => (await import('/web/core.js')).resultText(r), g1.result);
  assert.ok(/^(红胜 1-0|黑胜 0-1|和 ½-½)$/.test(said), said);
  assert.ok((await semi.textContent()).includes(`慢棋 ${red.name}（红） ${said}`), await semi.textContent());
  await p.goto(base + `/#standings/${ko.round}`);
  const places = p.locator('#final-places li');
  await places.first().waitFor({ timeout: WAIT });
  assert.equal(await places.count(), ko.places.length);
  assert.equal(await places.first().textContent(), ko.places[0].name);
  assert.match(await p.textContent('#standings-caption'), /积分编排排名（淘汰赛前）/);
  await p.screenshot({ path: join(ART, '14-final-places.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await ctx.close();
});


test('the boards filter by table or player', async () => {
  const { ctx, p, errors } = await freshPage(1280, 900);
  await p.goto(base + '/#live/1');
  await p.waitForSelector('#boards .card', { timeout: WAIT });
  const all = await p.locator('#boards .card').count();
  await p.fill('#filter', '3');
  assert.equal(await p.locator('#boards .card:not([hidden])').count(), 1);
  assert.equal(await p.getAttribute('#boards .card:not([hidden])', 'data-table'), '3');
  const games = (await api('/api/rounds/1/games.json')).games;
  const name = games.find(g => g.table === 5).black.name;
  await p.fill('#filter', name.slice(0, 2));
  const tables = await p.locator('#boards .card:not([hidden])').evaluateAll(cs => cs.map(c => +c.dataset.table));
  assert.ok(tables.includes(5), `${name}: ${tables}`);
  await p.fill('#filter', '');
  assert.equal(await p.locator('#boards .card:not([hidden])').count(), all);
  await ctx.close();
  assert.deepEqual(errors, []);
});

/* ------------------------------------------------------------------ */
/* The organiser's console, on a server of its own                      */
/* ------------------------------------------------------------------ */

/* A new event (no player yet) served on free ports: its admin token and base URL. */
/* A new event of its own (no players), served on free ports (lib.mjs). */
const startEmpty = name => startEmptyIn(dir, name);

test('the organiser edits a player, withdraws one and draws the numbers by lot', async () => {
  const ev = await startEmpty('players');
  try {
    const rows = ['姓名,性别,出生日期,单位,等级分'];
    for (let i = 1; i <= 8; i++) rows.push(`选手${i},${i % 2 ? '男' : '女'},19${80 + i}-03-0${i},队${i % 3},${2400 - i * 20}`);
    const { ctx, p, errors } = await freshPage(1280, 900);
    await openConsole(p, ev.base, ev.admin);
    await p.setInputFiles('#c-file', { name: 'players.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n') + '\n') });
    await p.waitForSelector('#c-do-import', { timeout: WAIT });
    await p.click('#c-do-import');
    await p.waitForFunction(() => document.querySelectorAll('#c-players tbody tr').length === 8, null, { timeout: WAIT });
    // edit player 3: the form comes filled with the row; cancel leaves it, save stores it
    const row3 = '#c-players tbody tr[data-id="3"]';
    await p.click(`${row3} button[data-action="edit"]`);
    await p.waitForSelector(`${row3}.editing form`, { timeout: WAIT });
    assert.equal(await p.inputValue(`${row3} input[name="name"]`), '选手3');
    assert.equal(await p.inputValue(`${row3} input[name="rating"]`), '2340');
    assert.equal(await p.inputValue(`${row3} select[name="sex"]`), 'm');
    await p.fill(`${row3} input[name="name"]`, '改名三');
    await p.click(`${row3} button[data-action="cancel"]`);
    await p.waitForSelector(`${row3}:not(.editing)`, { timeout: WAIT });
    assert.match(await p.textContent(row3), /选手3/);
    await p.click(`${row3} button[data-action="edit"]`);
    await p.fill(`${row3} input[name="name"]`, '张三丰');
    await p.fill(`${row3} input[name="rating"]`, '2555');
    await p.fill(`${row3} input[name="club"]`, '武当');
    await p.click(`${row3} button[data-action="save"]`);
    await p.waitForFunction(() => /张三丰/.test(document.querySelector('#c-players tbody tr[data-id="3"]')?.textContent || ''),
      null, { timeout: WAIT });
    let api = await (await fetch(ev.base + '/api/event')).json();
    const three = api.players.find(x => x.id === 3);
    assert.equal(three.name, '张三丰');
    assert.equal(three.rating, 2555);
    assert.equal(three.club, '武当');
    const log = execFileSync(XQREF, ['tourney', 'log', '--db', join(dir, 'players.db')]).toString();
    assert.match(log, /player=3 name: 选手3 -> 张三丰/);
    // withdraw player 5, asked first: "no" keeps them, "yes" withdraws
    const row5 = '#c-players tbody tr[data-id="5"]';
    await p.click(`${row3} button[data-action="edit"]`);
    await p.click(`${row5} button[data-action="withdraw"]`);
    await p.waitForSelector(`${row5} .confirm[role="alertdialog"]`, { timeout: WAIT });
    await p.locator('#c-players').screenshot({ path: join(ART, '16-console-players-edit.png') });
    await p.click(`${row3} button[data-action="cancel"]`);
    assert.match(await p.textContent(`${row5} .confirm`), /选手5/);
    await p.click(`${row5} .confirm button[data-action="no"]`);
    await p.waitForSelector(`${row5} .confirm`, { state: 'detached', timeout: WAIT });
    assert.equal((await (await fetch(ev.base + '/api/event')).json()).players.find(x => x.id === 5).withdrawn, undefined);
    await p.click(`${row5} button[data-action="withdraw"]`);
    await p.click(`${row5} .confirm button[data-action="yes"]`);
    await p.waitForSelector(`${row5}.withdrawn`, { timeout: WAIT });
    api = await (await fetch(ev.base + '/api/event')).json();
    assert.equal(api.players.find(x => x.id === 5).withdrawn, 1);
    // the pairing preview leaves them out: 7 players, 3 boards and the bye
    await p.click('#c-pair');
    await p.waitForSelector('#c-pairing table[data-published="no"] tbody tr', { timeout: WAIT });
    assert.equal(await p.locator('#c-pairing tbody tr').count(), 4);
    assert.doesNotMatch(await p.textContent('#c-pairing'), /选手5/);
    // numbers by hand: an input per player; a number given twice is refused, nothing stored
    await p.waitForSelector('#c-num-method', { timeout: WAIT });
    await p.selectOption('#c-num-method', 'manual');
    await p.waitForSelector('#c-num-manual tbody tr', { timeout: WAIT });
    assert.equal(await p.locator('#c-num-manual input').count(), 8);
    assert.equal(await p.inputValue('#c-num-manual input[data-id="4"]'), '4');
    await p.fill('#c-num-manual input[data-id="1"]', '2');
    await p.click('#c-num-preview');
    await p.waitForSelector('#c-result.error', { timeout: WAIT });
    assert.match(await p.textContent('#c-result'), /number 2 is given twice/);
    assert.equal(await p.locator('#c-num-result').count(), 0);
    // numbers drawn by lot: a preview with its seed, then stored
    await p.selectOption('#c-num-method', 'lot');
    await p.click('#c-num-preview');
    await p.waitForSelector('#c-num-result tbody tr', { timeout: WAIT });
    assert.equal(await p.locator('#c-num-result tbody tr').count(), 8);
    const seed = await p.inputValue('#c-num-seed');
    assert.match(seed, /^\d+$/, 'the random seed is shown');
    const drawn = await p.$$eval('#c-num-result tbody tr', trs => trs.map(tr => [+tr.dataset.no, +tr.dataset.id]));
    assert.deepEqual((await (await fetch(ev.base + '/api/event')).json()).players.map(x => x.pno), [0, 0, 0, 0, 0, 0, 0, 0],
      'a preview stores nothing');
    await p.click('#c-num-store');
    await p.waitForFunction(() => document.querySelector('#c-players thead th')?.textContent === '序号', null, { timeout: WAIT });
    api = await (await fetch(ev.base + '/api/event')).json();
    for (const [no, id] of drawn) assert.equal(api.players.find(x => x.id === id).pno, no, `player ${id} has number ${no}`);
    // the table is in number order and agrees with the API
    const table = await p.$$eval('#c-players tbody tr', trs => trs.map(tr => [+tr.dataset.no, +tr.dataset.id]));
    assert.deepEqual(table, drawn);
    assert.deepEqual(table.map(([no]) => no), [1, 2, 3, 4, 5, 6, 7, 8]);
    assert.equal(await p.textContent('#c-players tbody tr:first-child td.num'), '1');
    const dump = execFileSync(XQREF, ['tourney', 'log', '--db', join(dir, 'players.db')]).toString();
    assert.match(dump, new RegExp(`numbering  by=lot seed=${seed}\n`));
    // the pairing preview follows the numbers: the old one is gone; table 1 is the two lowest numbers still in
    await p.waitForFunction(() => !document.querySelector('#c-pairing table'), null, { timeout: WAIT });
    await p.click('#c-pair');
    await p.waitForSelector('#c-pairing table[data-published="no"] tbody tr', { timeout: WAIT });
    const cells = await p.$$eval('#c-pairing tbody tr[data-table="1"] td:is(.red-name, .black-name)', tds => tds.map(td => td.textContent));
    const in1 = drawn.filter(([, id]) => id !== 5).slice(0, 2).map(([no]) => no);
    assert.deepEqual(cells.map(x => +x.split('.')[0]).sort((a, b) => a - b), in1, cells.join(' | '));
    await p.screenshot({ path: join(ART, '16-console-players.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await ctx.close();
  } finally {
    ev.srv.kill('SIGTERM');
  }
});

test('a GBK list whose bytes are valid UTF-8 as well is read as GBK', async () => {
  // 郑惟桐 in GBK is D6 A3 CE A9 CD A9: valid UTF-8 too ("\u05A3\u03A9\u0369")
  const ev = await startEmpty('gbk-utf8');
  try {
    const gbk = execFileSync('iconv', ['-f', 'UTF-8', '-t', 'GBK'], { input: 'name,rating\r\n郑惟桐,2600\r\n' });
    assert.doesNotThrow(() => new TextDecoder('utf-8', { fatal: true }).decode(gbk), 'the bytes are valid UTF-8');
    const { ctx, p, errors } = await freshPage(1280, 900);
    await openConsole(p, ev.base, ev.admin);
    await p.setInputFiles('#c-file', { name: 'players.csv', mimeType: 'text/csv', buffer: gbk });
    await p.waitForSelector('#c-preview tr[data-line]', { timeout: WAIT });
    const text = await p.textContent('#c-preview');
    assert.match(text, /郑惟桐/);
    assert.match(text, /GBK/);
    // ordinary UTF-8 Chinese stays UTF-8
    await p.setInputFiles('#c-file', { name: 'players.csv', mimeType: 'text/csv', buffer: Buffer.from('name,rating\r\n郑惟桐,2600\r\n') });
    await p.waitForFunction(() => /UTF-8/.test(document.querySelector('#c-preview').textContent), null, { timeout: WAIT });
    assert.match(await p.textContent('#c-preview'), /郑惟桐/);
    assert.deepEqual(errors, []);
    await ctx.close();
  } finally {
    ev.srv.kill('SIGTERM');
  }
});

/* Issue 35 (Major 3, Deliver 5): the same list imported twice adds nobody
 * the second time, whatever form its birth dates are written in: the
 * preview reports every row as registered already and offers nothing to
 * import. */
test('the organiser imports the same list twice: the second preview finds every row registered already', async () => {
  const ev = await startEmpty('twice');
  try {
    const names = ['罗国华', '王天一', '唐丹', '赵鑫鑫'];
    const file = birth => Buffer.from(['姓名,性别,出生日期,单位,等级分',
      ...names.map((n, i) => `${n},${i % 2 ? '女' : '男'},${birth(1985 + i, 3, 10 + i)},北屯,${2300 - i * 10}`)].join('\r\n') + '\r\n');
    const pad = x => String(x).padStart(2, '0');
    const { ctx, p, errors } = await freshPage(1280, 900);
    await openConsole(p, ev.base, ev.admin);
    await p.setInputFiles('#c-file', { name: 'a.csv', mimeType: 'text/csv', buffer: file((y, m, d) => `${y}-${pad(m)}-${d}`) });
    await p.waitForSelector('#c-do-import:not([disabled])', { timeout: WAIT });
    await p.click('#c-do-import');
    await p.waitForFunction(() => document.querySelectorAll('#c-players tbody tr').length === 4, null, { timeout: WAIT });
    const listed = execFileSync(XQREF, ['tourney', 'players', '--db', join(dir, 'twice.db')]).toString();
    assert.match(listed, /1985\/03\/10/, 'stored in its one form');
    // the same players, their dates written three other ways
    for (const birth of [(y, m, d) => `${y}-${pad(m)}-${d}`, (y, m, d) => `${y}/${m}/${d}`, (y, m, d) => `${y}年${m}月${d}日`]) {
      await p.setInputFiles('#c-file', { name: 'b.csv', mimeType: 'text/csv', buffer: file(birth) });
      await p.waitForFunction(() => document.querySelectorAll('#c-preview tr.bad').length === 4, null, { timeout: WAIT });
      assert.equal(await p.locator('#c-preview tr[data-line]').count(), 4);
      const why = await p.$$eval('#c-preview tr.bad td.error', tds => tds.map(td => td.textContent));
      assert.deepEqual(why, names.map((n, i) => `已报名：${i + 1}. ${n}`));
      assert.ok(await p.isDisabled('#c-do-import'), 'nothing to import');
    }
    assert.equal((await (await fetch(ev.base + '/api/event')).json()).players.length, 4, 'nobody added');
    assert.deepEqual(errors, []);
    await ctx.close();
  } finally {
    ev.srv.kill('SIGTERM');
  }
});

/* Issue 35 (Deliver 5): a player registered by mistake is deleted from
 * the players' list before round 1 is paired, after a confirmation that
 * names him; the players after him move up one; once round 1 is
 * published the list offers no delete (withdraw then). */
test('the organiser deletes a player before round 1, after a confirmation', async () => {
  const ev = await startEmpty('remove');
  try {
    const rows = ['姓名,等级分', '甲,2400', '乙,2300', '丙,2200', '丁,2100', '戊,2000'];
    const { ctx, p, errors } = await freshPage(1280, 900);
    await openConsole(p, ev.base, ev.admin);
    await p.setInputFiles('#c-file', { name: 'p.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n') + '\n') });
    await p.waitForSelector('#c-do-import:not([disabled])', { timeout: WAIT });
    await p.click('#c-do-import');
    await p.waitForFunction(() => document.querySelectorAll('#c-players tbody tr').length === 5, null, { timeout: WAIT });
    const row2 = '#c-players tbody tr[data-id="2"]';
    // asked first, naming him; 不修改 leaves him
    await p.click(`${row2} button[data-action="remove"]`);
    await p.waitForSelector(`${row2} .confirm`, { timeout: WAIT });
    assert.match(await p.textContent(`${row2} .confirm`), /删除 乙（报名号 2）？/);
    await p.click(`${row2} .confirm button[data-action="no"]`);
    await p.waitForFunction(() => !document.querySelector('#c-players .confirm'), null, { timeout: WAIT });
    assert.equal((await (await fetch(ev.base + '/api/event')).json()).players.length, 5, 'nothing deleted');
    await p.click(`${row2} button[data-action="remove"]`);
    await p.click(`${row2} .confirm button[data-action="yes-remove"]`);
    await p.waitForFunction(() => document.querySelectorAll('#c-players tbody tr').length === 4, null, { timeout: WAIT });
    const api = (await (await fetch(ev.base + '/api/event')).json()).players;
    assert.deepEqual(api.map(x => [x.id, x.name]), [[1, '甲'], [2, '丙'], [3, '丁'], [4, '戊']]);
    assert.match(await p.textContent(row2), /丙/);
    const log = execFileSync(XQREF, ['tourney', 'log', '--db', join(dir, 'remove.db')]).toString();
    assert.match(log, /withdrawal player=2 deleted/);
    // round 1 published: no delete any more
    await p.click('#c-pair');
    await p.waitForSelector('#c-pairing table[data-published="no"] tbody tr', { timeout: WAIT });
    await asked(p, '#c-publish');
    await answer(p, true);
    await p.waitForSelector('#c-pairing table[data-published="yes"]', { timeout: WAIT });
    await p.waitForFunction(() => !document.querySelector('#c-players button[data-action="remove"]'), null, { timeout: WAIT });
    assert.equal(await p.locator('#c-players button[data-action="withdraw"]').count(), 4);
    assert.deepEqual(errors, []);
    await ctx.close();
  } finally {
    ev.srv.kill('SIGTERM');
  }
});

test('the organiser imports a GBK list with a bad line, previews the pairing, then publishes it', async () => {
  const ev = await startEmpty('console');
  try {
    const rows = ['姓名,性别,出生日期,单位,等级分'];
    for (let i = 1; i <= 12; i++) rows.push(`棋手${'一二三四五六七八九十'[i % 10]}${i},${i % 3 ? '男' : '女'},19${70 + i}-0${1 + i % 9}-1${i % 9},队${i % 4},${2300 - i * 10}`);
    rows.splice(6, 0, '坏行,不详,1990-01-01,队9,2000'); // line 7: a sex that is neither 男 nor 女
    const gbk = execFileSync('iconv', ['-f', 'UTF-8', '-t', 'GBK'], { input: rows.join('\r\n') + '\r\n' });
    const { ctx, p, errors } = await freshPage(1280, 900);
    await openConsole(p, ev.base, ev.admin);
    await p.setInputFiles('#c-file', { name: 'players.csv', mimeType: 'text/csv', buffer: gbk });
    await p.waitForSelector('#c-preview tr[data-line]', { timeout: WAIT });
    assert.equal(await p.locator('#c-preview tr[data-line]').count(), 13);
    assert.equal(await p.locator('#c-preview tr.bad').count(), 1);
    assert.equal(await p.getAttribute('#c-preview tr.bad', 'data-line'), '7');
    assert.match(await p.textContent('#c-preview'), /GBK/);
    const before = await (await fetch(ev.base + '/api/event')).json();
    assert.equal(before.players.length, 0, 'nothing is stored before the import');
    await p.click('#c-do-import');
    await p.waitForFunction(() => document.querySelectorAll('#c-players tbody tr').length === 12, null, { timeout: WAIT });
    const after = await (await fetch(ev.base + '/api/event')).json();
    assert.equal(after.players.length, 12);
    assert.ok(after.players.some(x => x.name === '棋手三12'), JSON.stringify(after.players.map(x => x.name)));
    // the pairing: a preview stores nothing, the publication does
    await p.click('#c-pair');
    await p.waitForSelector('#c-pairing table[data-published="no"] tbody tr', { timeout: WAIT });
    assert.equal(await p.locator('#c-pairing tbody tr').count(), 6);
    assert.deepEqual((await (await fetch(ev.base + '/api/event')).json()).published, []);
    // one manual swap, with its reason: the preview follows it
    const red1 = await p.textContent('#c-pairing tbody tr[data-table="1"] td.red-name');
    const red2 = await p.textContent('#c-pairing tbody tr[data-table="2"] td.red-name');
    const no = x => +x.split('.')[0];
    await p.fill('#c-amend input[name="a"]', String(no(red1)));
    await p.fill('#c-amend input[name="b"]', String(no(red2)));
    await p.fill('#c-amend input[name="reason"]', '同单位回避');
    await p.click('#c-amend button[type="submit"]');
    await p.waitForFunction(r => document.querySelector('#c-pairing tbody tr[data-table="1"] td.red-name')?.textContent === r,
      red2, { timeout: WAIT });
    assert.match(await p.textContent('#c-changes-list'), /同单位回避/);
    // asked first, naming the round and its tables: No sends nothing, Yes publishes
    assert.equal(await asked(p, '#c-publish'), '公布第1轮：6台对阵，公布后各台棋盘即可开始。');
    await answer(p, false, { key: true });
    assert.deepEqual((await (await fetch(ev.base + '/api/event')).json()).published, [], 'Escape publishes nothing');
    await asked(p, '#c-publish');
    await answer(p, true, { key: true });
    await p.waitForSelector('#c-pairing table[data-published="yes"]', { timeout: WAIT });
    const pr = await (await fetch(ev.base + '/api/rounds/1/pairings.json')).json();
    assert.equal(pr.boards.length, 6);
    assert.equal(pr.boards[0].red.name, red2.replace(/^\d+\. /, ''), 'published as changed');
    const log = execFileSync(XQREF, ['tourney', 'log', '--db', join(dir, 'console.db')]).toString();
    assert.match(log, /change 1 swap .*reason=同单位回避/);
    // board slips: a token and a QR code per table; a slip's token is the board's
    await p.waitForFunction(() => document.querySelector('#round').value === '1', null, { timeout: WAIT });
    await p.click('#c-slips-btn');
    assert.match(await p.textContent('#c-slips .confirm span'), /^将为第1轮各台生成新的令牌/, 'the round named once');
    await p.click('#c-slips-go');
    const frame = p.frameLocator('#c-slips-frame');
    await frame.locator('.slip').first().waitFor({ timeout: WAIT });
    assert.equal(await frame.locator('.slip').count(), 6);
    assert.equal(await frame.locator('.slip svg.qr').count(), 6);
    const token = await frame.locator('.slip[data-table="1"] .token code').textContent();
    assert.match(await frame.locator('.slip[data-table="1"] .link').textContent(), new RegExp(`^xqref://127\\.0\\.0\\.1:\\d+/\\?round=1&table=1&token=${token}$`));
    const board = new Board(ev.json);
    const hello = await board.send({ id: 1, op: 'hello', token });
    board.close();
    assert.equal(hello.role, 'board', JSON.stringify(hello));
    assert.equal(hello.table, 1);
    // the address the boards reach, typed once: on every slip, and kept for the next slips
    await p.click('#c-slips-btn');
    assert.equal(await p.inputValue('#c-slips-connect'), '', 'none typed yet: the server\'s own');
    await p.fill('#c-slips-connect', '192.168.9.9:7878');
    await p.click('#c-slips-go');
    await p.frameLocator('#c-slips-frame').locator('.slip').first().waitFor({ timeout: WAIT });
    assert.match(await p.frameLocator('#c-slips-frame').locator('.slip[data-table="1"] .link').textContent(),
      /^xqref:\/\/192\.168\.9\.9:7878\/\?round=1&table=1&token=[0-9a-f]{32}$/);
    await p.click('#c-slips-btn');
    assert.equal(await p.inputValue('#c-slips-connect'), '192.168.9.9:7878', 'remembered on this browser');
    await p.screenshot({ path: join(ART, '15-console.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await ctx.close();
  } finally {
    ev.srv.kill('SIGTERM');
  }
});

/* ------------------------------------------------------------------ */
/* Printing: the print views and the CSV / XLSX downloads               */
/* ------------------------------------------------------------------ */

/* The entries of a ZIP (an XLSX workbook) by name, inflated. */
function unzip(buf) {
  let e = buf.length - 22;
  while (e > 0 && buf.readUInt32LE(e) !== 0x06054b50) e--;
  assert.ok(e > 0, 'a ZIP end record');
  const n = buf.readUInt16LE(e + 10), files = {};
  for (let i = 0, at = buf.readUInt32LE(e + 16); i < n; i++) {
    assert.equal(buf.readUInt32LE(at), 0x02014b50, 'a central directory entry');
    const method = buf.readUInt16LE(at + 10), size = buf.readUInt32LE(at + 20);
    const nl = buf.readUInt16LE(at + 28), xl = buf.readUInt16LE(at + 30), cl = buf.readUInt16LE(at + 32);
    const name = buf.toString('utf8', at + 46, at + 46 + nl), local = buf.readUInt32LE(at + 42);
    const data = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(data, data + size);
    files[name] = (method === 8 ? zlib.inflateRawSync(raw) : raw).toString('utf8');
    at += 46 + nl + xl + cl;
  }
  return files;
}

/* The worksheet's rows: row number -> [cell text or number], strings resolved. */
function sheetRows(files) {
  const strings = [...files['xl/sharedStrings.xml'].matchAll(/<si>(?:<t[^>]*>([^<]*)<\/t>)?<\/si>/g)].map(m => m[1] || '');
  const rows = {};
  for (const m of files['xl/worksheets/sheet1.xml'].matchAll(/<c r="([A-Z]+)(\d+)"([^>]*?)(?:\/>|>(?:<v>([^<]*)<\/v>)?<\/c>)/g)) {
    const col = m[1].charCodeAt(0) - 65, row = +m[2], isStr = /t="s"/.test(m[3]);
    (rows[row] = rows[row] || [])[col] = isStr ? strings[+m[4]] : Number(m[4]);
  }
  return rows;
}

test('the organiser prints the standings and the score sheets and downloads them as XLSX and CSV', async () => {
  const db = join(dir, 'print.db');
  const made = execFileSync(XQREF, ['tourney', 'demo', '--db', db, '--players', '9']).toString();
  const admin = /^admin - - (\w+)/m.exec(made)[1];
  const srv = spawn(XQREF, ['serve', '--quiet', '--db', db, '--listen', '127.0.0.1:0', '--http', '127.0.0.1:0'],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    let out = '';
    const ev = await new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error('no server: ' + out)), WAIT);
      srv.stdout.on('data', d => {
        out += d;
        const http = /^http (\S+)/m.exec(out);
        if (http) { clearTimeout(timer); ok({ admin, base: 'http://' + http[1] }); }
      });
    });
    const { ctx, p, errors } = await freshPage(1280, 900);
    await openConsole(p, ev.base, ev.admin);
    await p.waitForSelector('#p-form #p-preset option[value="xinjiang2018"]', { state: 'attached', timeout: WAIT });
    await p.waitForFunction(() => document.querySelector('#p-round').value === '1', null, { timeout: WAIT });
    const json = await (await fetch(ev.base + '/api/standings.json?round=1')).json();
    const pairs = await (await fetch(ev.base + '/api/rounds/1/pairings.json')).json();
    const tables = pairs.boards.filter(b => b.black).length;
    assert.equal(json.standings.length, 9);
    assert.equal(tables, 4, 'nine players: four tables and the bye');

    // the print view of the standings: the server's page with its print stylesheet
    await p.selectOption('#p-what', 'standings');
    await p.click('#p-view');
    let frame = p.frameLocator('#p-frame[data-what="standings"]');
    await frame.locator('tbody tr').first().waitFor({ timeout: WAIT });
    assert.equal(await frame.locator('tbody tr').count(), 9);
    assert.equal(await frame.locator('thead th').first().textContent(), '名次');
    const names = await frame.locator('tbody tr td:nth-child(3)').allTextContents();
    assert.deepEqual(names, json.standings.map(r => r.name));
    assert.match(await frame.locator('style').textContent(), /@page\{size:A4/);
    await p.locator('#p-out').screenshot({ path: join(ART, '16-print-standings.png') });

    // the score sheets of round 1: one page a table, none for the bye
    await p.selectOption('#p-what', 'scoresheets');
    await p.click('#p-view');
    frame = p.frameLocator('#p-frame[data-what="scoresheets"]');
    await frame.locator('.scoresheet').first().waitFor({ timeout: WAIT });
    assert.equal(await frame.locator('.scoresheet').count(), tables);
    const sheet1 = await frame.locator('.scoresheet[data-table="1"]').textContent();
    assert.ok(sheet1.includes(pairs.boards[0].red.name) && sheet1.includes(pairs.boards[0].black.name), sheet1);
    assert.match(sheet1, /红胜.*和.*黑胜/);
    assert.equal(await frame.locator('.scoresheet[data-table="1"] .moves td.n').count(), 60);
    await p.locator('#p-out').screenshot({ path: join(ART, '17-print-scoresheets.png') });
    // printed, each sheet takes one A4 page of its own
    const printed = await ctx.newPage();
    await printed.setContent(await p.getAttribute('#p-frame', 'srcdoc'));
    const pdf = (await printed.pdf({ preferCSSPageSize: true })).toString('latin1');
    assert.equal((pdf.match(/\/Type\s*\/Page[^s]/g) || []).length, tables, 'a page a table');
    await printed.close();

    // the sheets arbiters print beside them (issue 35): the standings signed, a
    // Swiss event's rounds table, one player's score card, who plays where by name
    await p.selectOption('#p-what', 'standings');
    await p.click('#p-view');
    frame = p.frameLocator('#p-frame[data-what="standings"]');
    await frame.locator('.sign').waitFor({ timeout: WAIT });
    assert.match(await frame.locator('.sign').textContent(), /裁判长签名：_+\s*日期：_+/);
    assert.equal(await p.textContent('#p-what option[value="crosstable"]'), '轮次成绩表', 'a Swiss event\'s cross table');
    await p.selectOption('#p-what', 'crosstable');
    await p.click('#p-view');
    frame = p.frameLocator('#p-frame[data-what="crosstable"]');
    await frame.locator('tbody tr').first().waitFor({ timeout: WAIT });
    assert.equal(await frame.locator('tbody tr').count(), 9, 'a row per player');
    assert.match(await frame.locator('h2').first().textContent(), /轮次成绩表/);
    const red = pairs.boards[0].red, black = pairs.boards[0].black;
    const redRow = (await frame.locator('tbody tr', { hasText: red.name }).locator('td').allTextContents());
    assert.ok(redRow.some(c => c.startsWith(`${black.pno}红`)), `${red.name} meets ${black.pno} with Red: ${redRow}`);
    await p.selectOption('#p-what', 'cards');
    assert.equal(await p.isVisible('#p-player'), true, 'the card asks for a number');
    await p.fill('#p-player', String(red.pno));
    await p.click('#p-view');
    frame = p.frameLocator('#p-frame[data-what="cards"]');
    await frame.locator('tbody tr').first().waitFor({ timeout: WAIT });
    assert.match(await frame.locator('h2').first().textContent(), new RegExp(`成绩卡 ${red.pno}号 ${red.name}`));
    assert.equal(await frame.locator('h2').count(), 1, 'one player\'s card');
    assert.match(await frame.locator('tbody tr').first().textContent(), new RegExp(black.name));
    await p.selectOption('#p-what', 'where');
    await p.click('#p-view');
    frame = p.frameLocator('#p-frame[data-what="where"]');
    await frame.locator('tbody tr').first().waitFor({ timeout: WAIT });
    assert.equal(await frame.locator('tbody tr').count(), 9, 'every player, the bye too');
    const whereRow = await frame.locator('tbody tr', { hasText: black.name }).first().locator('td').allTextContents();
    assert.deepEqual([whereRow[3], whereRow[4], whereRow[5]], ['1', '黑', red.name], `${black.name} plays Black at table 1`);

    // the standings as XLSX: the names and numbers the API gives, numbers as numbers
    await p.selectOption('#p-what', 'standings');
    const [dl] = await Promise.all([p.waitForEvent('download', { timeout: WAIT }), p.click('#p-xlsx')]);
    assert.equal(dl.suggestedFilename(), 'xqref-standings-r1.xlsx');
    const book = readFileSync(await dl.path());
    assert.equal(book.subarray(0, 4).toString('latin1'), 'PK\x03\x04');
    const rows = sheetRows(unzip(book));
    assert.equal(rows[1][0], 'xqref demo open');
    assert.deepEqual(rows[4].slice(0, 3), ['名次', '序号', '姓名']);
    const got = Object.keys(rows).map(Number).filter(r => r > 4).sort((a, b) => a - b).map(r => rows[r]);
    assert.deepEqual(got.map(r => [r[0], r[1], r[2]]), json.standings.map(r => [r.rank, r.pno, r.name]));
    assert.deepEqual(rows[4].slice(3, 5), ['单位', '积分'], 'the 单位 column before the points');
    assert.deepEqual(got.map(r => r[4]), json.standings.map(r => r.tb.PTS));

    // and as CSV, with a BOM for spreadsheets
    const [dc] = await Promise.all([p.waitForEvent('download', { timeout: WAIT }), p.click('#p-csv')]);
    assert.equal(dc.suggestedFilename(), 'xqref-standings-r1.csv');
    const csv = readFileSync(await dc.path(), 'utf8');
    assert.equal(csv.charCodeAt(0), 0xfeff);
    assert.equal(csv.trim().split('\r\n').length, 10);
    assert.ok(csv.includes(json.standings[0].name));

    // prizes need a table: a preset chosen, the print view lists them
    await p.selectOption('#p-what', 'prizes');
    await p.click('#p-view');
    await p.waitForSelector('#p-result.error', { timeout: WAIT });
    await p.selectOption('#p-preset', 'xinjiang2018');
    await p.click('#p-view');
    frame = p.frameLocator('#p-frame[data-what="prizes"]');
    await frame.locator('h2').first().waitFor({ timeout: WAIT });
    assert.match(await frame.locator('h2').first().textContent(), /获奖名单/);
    assert.deepEqual(errors, []);
    await ctx.close();
  } finally {
    srv.kill('SIGTERM');
  }
});

/* ------------------------------------------------------------------ */
/* The viewer, the desk and the standings as an arbiter found them     */
/* ------------------------------------------------------------------ */

/* Sign a fresh page in as the arbiter on round r's desk. */
async function deskPage(w, h, r) {
  const fp = await freshPage(w, h);
  await fp.p.goto(base + `/#arbiter/${r}`);
  await fp.p.fill('#token', tokens.arbiter);
  await fp.p.click('#token-form button[type="submit"]');
  await fp.p.waitForSelector('#arbiter-games tbody tr[data-table="1"]', { timeout: WAIT });
  return fp;
}

/* The words of a result as the page says them. */
const WORDS_OF = { '1-0': '红胜 1-0', '0-1': '黑胜 0-1', '1/2-1/2': '和 ½-½' };

async function postOp(req) {
  const r = await fetch(base + '/api/op', { method: 'POST', headers: { Authorization: 'Bearer ' + tokens.arbiter },
    body: JSON.stringify(req) });
  assert.equal(r.status, 200);
  const reply = JSON.parse((await r.text()).trim().split('\n')[0]);
  assert.equal(reply.ok, true, JSON.stringify(reply));
}

test('i24.1: on a phone desk a result button clicked keeps the table number and Red in sight', async () => {
  const { ctx, p, errors } = await deskPage(390, 844, 1);
  for (const table of [1, 5]) {
    const row = p.locator(`#arbiter-games tr[data-table="${table}"]`);
    // the rightmost result button, the one a phone must scroll to; a
    // question that it asks is answered no
    await row.locator('.actions button[data-action="a_01"]').click();
    if (await row.locator('.confirm').count()) await row.locator('.confirm button[data-action="no"]').click();
    const seen = await row.evaluate(tr => {
      const box = c => { const r = c.getBoundingClientRect(); return { l: r.left, r: r.right, y: r.top + r.height / 2 }; };
      const num = box(tr.children[0]), red = box(tr.children[1]);
      const top = (b, cell) => document.elementFromPoint((b.l + b.r) / 2, b.y)?.closest('td') === cell;
      return { num, red, numOnTop: top(num, tr.children[0]), redOnTop: top(red, tr.children[1]),
        scrolled: tr.closest('.scroll').scrollLeft, vw: innerWidth };
    });
    assert.ok(seen.scrolled > 0, `the actions were scrolled to (${seen.scrolled} px)`);
    assert.ok(seen.num.l >= 0 && seen.num.r <= seen.vw && seen.numOnTop, `table ${table}'s number in sight: ${JSON.stringify(seen)}`);
    assert.ok(seen.red.l >= 0 && seen.red.r <= seen.vw && seen.redOnTop, `Red's name in sight: ${JSON.stringify(seen)}`);
  }
  await p.screenshot({ path: join(ART, '30-desk-phone-scrolled.png') });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('i24.2: banners never move the page; the staff views show none for a result', async () => {
  const viewer = await freshPage(1280, 900);
  await viewer.p.goto(base + '/#live/1');
  await viewer.p.waitForSelector('#boards .card[data-table="4"]', { timeout: WAIT });
  const desk = await deskPage(1280, 900, 1);
  const top = (p, sel) => p.evaluate(s => document.querySelector(s).getBoundingClientRect().top + scrollY, sel);
  const card0 = await top(viewer.p, '#boards .card[data-table="1"]');
  const row0 = await top(desk.p, '#arbiter-games tr[data-table="6"]');
  // a correction of table 4 entered elsewhere, and taken back
  const before = (await api('/api/rounds/1/pairings.json')).boards.find(b => b.table === 4).result;
  const code = { '1-0': '1-0', '0-1': '0-1', '1/2-1/2': '=' };
  assert.ok(code[before], `table 4 has a result (${before})`);
  const other = before === '1/2-1/2' ? '1-0' : '=';
  await postOp({ id: 'b1', op: 'result', round: 1, table: 4, result: other, confirm: true }); // a knockout is seeded after round 2
  const banner = viewer.p.locator('#banners .banner[data-kind="result"][data-table="4"]').first();
  await banner.waitFor({ timeout: WAIT });
  assert.equal(await top(viewer.p, '#boards .card[data-table="1"]'), card0, 'a banner shown: the boards did not move');
  assert.match(await banner.textContent(), other === '=' ? /^第4台 和 ½-½/ : /^第4台 红胜 1-0/, 'the result in words');
  await desk.p.waitForSelector(`#arbiter-games tr[data-table="4"] td.result[data-result="${other === '=' ? '1/2-1/2' : other}"]`,
    { timeout: WAIT });
  await postOp({ id: 'b2', op: 'result', round: 1, table: 4, result: code[before], confirm: true });
  await viewer.p.waitForFunction(() => document.querySelectorAll('#banners .banner').length >= 2, null, { timeout: WAIT });
  await viewer.p.evaluate(async () => {
    const { banner } = await import('/web/views.js');
    for (let i = 1; i <= 4; i++) banner('foul', i, `第${i}台：黑方犯规`);
  });
  assert.equal(await top(viewer.p, '#boards .card[data-table="1"]'), card0, 'the boards did not move');
  const style = await viewer.p.evaluate(() => getComputedStyle(document.querySelector('#banners')).position);
  assert.equal(style, 'fixed', 'the banners take no layout space');
  await desk.p.waitForSelector(`#arbiter-games tr[data-table="4"] td.result[data-result="${before}"]`, { timeout: WAIT });
  assert.equal(await desk.p.evaluate(() => [...document.querySelectorAll('#banners .banner')].filter(b => b.offsetParent).length), 0,
    'no banner on the desk');
  assert.equal(await top(desk.p, '#arbiter-games tr[data-table="6"]'), row0, 'the desk\'s rows did not move');
  // a banner that the desk would have got stays off the console too
  await desk.p.click('#tabs a[data-view="console"]');
  await desk.p.evaluate(async () => (await import('/web/views.js')).banner('result', 2, '第2台 红胜 1-0'));
  assert.equal(await desk.p.locator('#banners .banner').count(), 0);
  await viewer.p.screenshot({ path: join(ART, '31-banners-overlay.png') });
  assert.deepEqual([...viewer.errors, ...desk.errors], []);
  await viewer.ctx.close();
  await desk.ctx.close();
});

test('i24.3: results are words everywhere: pairings, desk, bracket, banners; a game in play is no code', async () => {
  const { ctx, p, errors } = await deskPage(1280, 900, 1);
  const pairs = await api('/api/rounds/1/pairings.json');
  const desk = await p.$$eval('#arbiter-games tbody tr', trs => trs.map(tr => tr.querySelector('td.result').textContent));
  assert.deepEqual(desk, pairs.boards.filter(b => !b.bye).map(b => WORDS_OF[b.result] || ''));
  await p.click('#tabs a[data-view="pairings"]');
  await p.waitForSelector('#pairings tbody tr', { timeout: WAIT });
  const shown = await p.$$eval('#pairings tbody td.result', tds => tds.map(td => td.textContent));
  assert.deepEqual(shown, pairs.boards.map(b => b.bye ? '轮空' : WORDS_OF[b.result] || '进行中'));
  for (const s of shown) assert.doesNotMatch(s, /^(\*|=|1\/2-1\/2|1-0|0-1)$/);
  // a game in play, the log's '=', forfeits: words
  assert.deepEqual(await p.evaluate(async () => ['*', '=', '+-', '-+', '--'].map((await import('/web/core.js')).resultText)),
    ['', '和 ½-½', '红胜（黑方弃权）', '黑胜（红方弃权）', '双方弃权']);
  await p.click('#lang');
  assert.deepEqual(await p.evaluate(async () => ['1-0', '0-1', '1/2-1/2', '+-'].map((await import('/web/core.js')).resultText)),
    ['Red wins 1-0', 'Black wins 0-1', 'Draw ½-½', 'Red wins (Black forfeits)']);
  assert.doesNotMatch(await p.textContent('#pairings tbody'), /1\/2-1\/2/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('i24.4: the same result again is no change: no question, nothing sent, a short note', async () => {
  const { ctx, p, errors } = await deskPage(1280, 900, 1);
  await p.evaluate(() => {
    window.__ops = [];
    const f = window.fetch;
    window.fetch = (u, o) => { if (String(u).endsWith('/api/op')) window.__ops.push(o.body); return f(u, o); };
  });
  const b3 = (await api('/api/rounds/1/pairings.json')).boards.find(b => b.table === 3);
  const key = { '1-0': 'a_10', '0-1': 'a_01', '1/2-1/2': 'a_draw' }[b3.result];
  assert.ok(key, b3.result);
  const row = p.locator('#arbiter-games tr[data-table="3"]');
  await row.locator(`button[data-action="${key}"]`).click();
  assert.equal(await row.locator('.confirm').count(), 0, 'no question');
  assert.equal(await p.evaluate(() => window.__ops.length), 0, 'no op sent');
  assert.equal(await p.textContent('#op-result'), `第3台已是 ${WORDS_OF[b3.result]}，未更改`);
  // a different result still asks first
  await row.locator(`button[data-action="${key === 'a_01' ? 'a_10' : 'a_01'}"]`).click();
  await row.locator('.confirm').waitFor({ timeout: WAIT });
  assert.match(await row.locator('.confirm').textContent(), new RegExp(`第3台已有结果 ${WORDS_OF[b3.result]}，改为`));
  await row.locator('.confirm button[data-action="no"]').click();
  assert.equal(await p.evaluate(() => window.__ops.length), 0);
  assert.equal((await api('/api/rounds/1/pairings.json')).boards.find(b => b.table === 3).result, b3.result);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('i24.5: the standings give 序号 and 单位, leave the lots out, and say a bye', async () => {
  const { ctx, p, errors } = await freshPage(1280, 900);
  await p.goto(base + '/#standings/1');
  await p.waitForSelector('#standings-caption:has-text("第1轮后")', { timeout: WAIT });
  const json = await api('/api/standings.json?round=1');
  const event = await api('/api/event');
  const heads = await p.$$eval('#standings thead th', ths => ths.map(th => th.textContent));
  assert.deepEqual(heads.slice(0, 5), ['名次', '序号', '姓名', '单位', '等级分']);
  assert.equal(await p.locator('#standings [data-tb="LOT"]').count(), 0, 'no lot column');
  const rows = await p.$$eval('#standings tbody tr', trs => trs.map(tr =>
    [+tr.dataset.id, tr.querySelector('[data-col="no"]').textContent, tr.querySelector('[data-col="club"]').textContent]));
  assert.deepEqual(rows, json.standings.map(r => {
    const pl = event.players.find(x => x.id === r.id);
    return [r.id, String(pl.pno || pl.id), pl.club || pl.region || ''];
  }));
  // the 积分 heading over its numbers: both right-aligned
  const align = await p.$$eval('#standings th[data-tb="PTS"], #standings td[data-tb="PTS"], #pairings th:nth-child(3)',
    es => es.map(e => getComputedStyle(e).textAlign));
  assert.ok(align.every(a => a === 'right'), align.join());
  assert.deepEqual(errors, []);
  await ctx.close();

  // an odd event: a bye's 2 points are said, not left to a 0-0-0
  const ev = await startEmpty('bye');
  try {
    const body = ['甲', '乙', '丙', '丁', '戊'].map((name, i) =>
      JSON.stringify({ id: 'a' + i, op: 'add_player', player: { name, club: '队' + (i % 2), rating: 2000 - i } }))
      .concat([JSON.stringify({ id: 'p', op: 'pair', publish: true })]).join('\n');
    const r = await fetch(ev.base + '/api/op', { method: 'POST', headers: { Authorization: 'Bearer ' + ev.admin }, body });
    for (const l of (await r.text()).trim().split('\n')) assert.equal(JSON.parse(l).ok, true, l);
    const pr = await (await fetch(ev.base + '/api/rounds/1/pairings.json')).json();
    const bye = pr.boards.find(b => b.bye).red;
    const lines = pr.boards.filter(b => !b.bye).map((b, i) =>
      JSON.stringify({ id: 'r' + i, op: 'result', round: 1, table: b.table, result: '1-0' })).join('\n');
    await fetch(ev.base + '/api/op', { method: 'POST', headers: { Authorization: 'Bearer ' + ev.admin }, body: lines });
    const fp = await freshPage(1280, 900);
    await fp.p.goto(ev.base + '/#standings/1');
    await fp.p.waitForSelector('#standings-caption:text-is("第1轮后")', { timeout: WAIT });
    const row = fp.p.locator(`#standings tr[data-id="${bye.id}"]`);
    assert.equal(await row.locator('[data-col="wdl"]').textContent(), '0-0-0');
    assert.equal(await row.locator('[data-col="byes"]').textContent(), '1', 'the bye is said');
    assert.equal(await fp.p.textContent('#standings th[data-col="byes"]'), '轮空');
    assert.equal(await fp.p.locator('#standings td[data-col="byes"]:text-is("1")').count(), 1);
    await fp.p.screenshot({ path: join(ART, '32-standings-bye.png'), fullPage: true });
    assert.deepEqual(fp.errors, []);
    await fp.ctx.close();
  } finally {
    ev.srv.kill('SIGTERM');
  }
});

test('i24.7: the pairings and the standings print with a title and black on white, without the page\'s chrome', async () => {
  const { ctx, p, errors } = await freshPage(1280, 900);
  const event = await api('/api/event');
  await p.goto(base + '/#pairings/1');
  await p.waitForSelector('#pairings tbody tr', { timeout: WAIT });
  await p.evaluate(async () => (await import('/web/views.js')).banner('foul', 1, '第1台：黑方犯规'));
  await p.emulateMedia({ media: 'print' });
  const look = () => p.evaluate(() => {
    const shown = e => !!e && getComputedStyle(e).display !== 'none' && e.getClientRects().length > 0;
    const view = document.querySelector('main .view:not([hidden])');
    const th = view.querySelector('table.grid th'), td = view.querySelector('table.grid td');
    return {
      title: shown(view.querySelector('.print-title')) ? view.querySelector('.print-title').textContent : null,
      header: shown(document.querySelector('header')), banners: shown(document.querySelector('#banners')),
      buttons: [...document.querySelectorAll('button, input, select')].filter(shown).length,
      th: [getComputedStyle(th).color, getComputedStyle(th).backgroundColor],
      td: [getComputedStyle(td).color, getComputedStyle(td).backgroundColor],
      body: getComputedStyle(document.body).backgroundColor,
    };
  });
  let seen = await look();
  assert.equal(seen.title, `${event.name} 第1轮对阵表`);
  assert.equal(seen.header, false, 'no header or tabs');
  assert.equal(seen.banners, false, 'no banners');
  assert.equal(seen.buttons, 0, 'no buttons or filters');
  const ink = ['rgb(0, 0, 0)', 'rgb(255, 255, 255)'];
  assert.deepEqual(seen.th, ink);
  assert.deepEqual(seen.td, ink);
  assert.equal(seen.body, 'rgb(255, 255, 255)');
  const pdf = await p.pdf();
  assert.ok(pdf.length > 1000);
  await p.emulateMedia({ media: 'screen' });
  await p.click('#tabs a[data-view="standings"]');
  await p.waitForSelector('#standings-caption:has-text("第1轮后")', { timeout: WAIT });
  await p.emulateMedia({ media: 'print' });
  seen = await look();
  assert.equal(seen.title, `${event.name} 第1轮后排名`);
  assert.equal(seen.buttons, 0);
  assert.deepEqual(seen.td, ink);
  await p.screenshot({ path: join(ART, '33-standings-print-media.png'), fullPage: true });
  await p.emulateMedia({ media: 'screen' });
  assert.equal(await p.isVisible('#standings-title'), false, 'the title is for paper');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('i24.8: the game viewer numbers each move pair', async () => {
  const { ctx, p, errors } = await freshPage(1280, 900);
  await p.goto(base + '/#game/1/1');
  await p.waitForSelector('#g-moves .mv[data-ply="1"]', { timeout: WAIT });
  // five plies, as the page holds a game
  const g = await p.evaluate(async () => {
    const [{ S }, { renderViewer }] = await Promise.all([import('/web/core.js'), import('/web/views.js')]);
    const x = S.games.get(1);
    x.moves = ['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0'];
    x.zh = ['炮二平五', '马８进７', '马二进三', '车９平８', '车一平二'];
    renderViewer();
    return { moves: x.moves, zh: x.zh };
  });
  const rows = await p.$$eval('#g-moves li', lis => lis.map(li =>
    [li.querySelector('.no').textContent, ...[...li.querySelectorAll('button.mv')].map(b => +b.dataset.ply)]));
  assert.equal(rows.length, Math.ceil(g.moves.length / 2));
  rows.forEach((r, i) => assert.deepEqual(r, [`${i + 1}.`, 2 * i + 1, ...(2 * i + 2 <= g.moves.length ? [2 * i + 2] : [])]));
  assert.equal(await p.textContent('#g-moves li:first-child'), `1.${g.zh[0]}${g.zh[1]}`);
  // a game that starts with Black to move, from move 12: "12. … move"
  await p.evaluate(async () => {
    const [{ S }, { renderViewer }] = await Promise.all([import('/web/core.js'), import('/web/views.js')]);
    const x = S.games.get(1);
    x.start = '4k4/9/9/9/9/9/9/9/4R4/4K4 b - - 0 12';
    x.moves = ['e9d9', 'e1d1', 'd9e9'];
    x.zh = ['将5平6', '车五平六', '将6平5'];
    renderViewer();
  });
  const rows2 = await p.$$eval('#g-moves li', lis => lis.map(li => li.textContent));
  assert.deepEqual(rows2, ['12.…将5平6', '13.车五平六将6平5']);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('i24.9: the English page has no Chinese words of its own', async () => {
  const { ctx, p, errors } = await freshPage(1280, 900, p => p.addInitScript(() => localStorage.setItem('xqref.lang', 'en')));
  await p.goto(base + '/#live/1');
  await p.waitForSelector('#boards .card .last', { timeout: WAIT });
  const han = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;
  // the page's own words: the cards but the names, the viewer, the headings
  const own = await p.$$eval('#boards .card', cs => cs.map(c => [c.querySelector('.head').textContent,
    c.querySelector('.last').textContent, c.querySelector('.flags').textContent]).flat());
  for (const s of own) assert.doesNotMatch(s, han, s);
  await p.goto(base + '/#game/1/1');
  await p.waitForSelector('#g-moves .mv', { timeout: WAIT });
  for (const sel of ['#g-title', '#g-state', '#g-moves', '#nav-ply', '.links'])
    assert.doesNotMatch(await p.textContent(sel), han, sel);
  assert.equal(await p.inputValue('#notation'), 'wxf', 'WXF moves on the English page until Chinese is chosen');
  await p.click('#lang');
  assert.equal(await p.inputValue('#notation'), 'zh');
  await p.click('#lang');
  await p.goto(base + '/#standings/1');
  await p.waitForSelector('#standings tbody tr', { timeout: WAIT });
  for (const sel of ['#standings thead', '#standings-caption', '#tabs', 'footer'])
    assert.doesNotMatch(await p.textContent(sel), han, sel);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('i24.10: a new event with no round yet says so on live, pairings and standings', async () => {
  const ev = await startEmpty('no-round');
  try {
    const { ctx, p, errors } = await freshPage(1280, 900);
    await p.goto(ev.base + '/#live');
    await p.waitForSelector('#boards .empty[data-empty="no-round"]', { timeout: WAIT });
    assert.equal(await p.textContent('#boards .empty'), '尚未编排对阵');
    assert.equal(await p.isVisible('#round'), false, 'no empty round select');
    await p.click('#tabs a[data-view="pairings"]');
    assert.equal(await p.textContent('#pairings-caption'), '尚未编排对阵');
    assert.equal(await p.isVisible('#pairings-caption'), true);
    await p.click('#tabs a[data-view="standings"]');
    await p.waitForSelector('#standings-caption:has-text("尚未编排对阵")', { timeout: WAIT });
    assert.match(await p.textContent('#standings-caption'), /尚无棋手报名/);
    await p.screenshot({ path: join(ART, '34-no-round.png') });
    // players registered: listed in number order, still no round
    const body = ['甲', '乙', '丙'].map((name, i) =>
      JSON.stringify({ id: 'a' + i, op: 'add_player', player: { name, rating: 1900 + i } })).join('\n');
    await fetch(ev.base + '/api/op', { method: 'POST', headers: { Authorization: 'Bearer ' + ev.admin }, body });
    await p.reload();
    await p.waitForFunction(() => document.querySelectorAll('#standings tbody tr').length === 3, null, { timeout: WAIT });
    assert.deepEqual(await p.$$eval('#standings tbody [data-col="name"]', ts => ts.map(x => x.textContent)), ['甲', '乙', '丙']);
    assert.equal(await p.textContent('#standings-caption'), '尚未编排对阵');
    await p.click('#lang');
    assert.equal(await p.textContent('#standings-caption'), 'No round has been paired yet');
    await p.click('#tabs a[data-view="live"]');
    assert.equal(await p.textContent('#boards .empty'), 'No round has been paired yet');
    // the first round published: the boards come
    await fetch(ev.base + '/api/op', { method: 'POST', headers: { Authorization: 'Bearer ' + ev.admin },
      body: JSON.stringify({ id: 'p', op: 'pair', publish: true }) });
    await p.waitForSelector('#boards .card', { timeout: WAIT });
    assert.equal(await p.locator('#boards .empty').count(), 0);
    assert.equal(await p.isVisible('#round'), true);
    assert.deepEqual(errors, []);
    await ctx.close();
  } finally {
    ev.srv.kill('SIGTERM');
  }
});

test('i35.2: results of every kind from the desk and the console; a game in play ends only when confirmed and resumes', async () => {
  const ev = await startEmpty('results');
  try {
    const post = async req => {
      const r = await fetch(ev.base + '/api/op', { method: 'POST', headers: { Authorization: 'Bearer ' + ev.admin },
        body: JSON.stringify(req) });
      return JSON.parse((await r.text()).trim().split('\n')[0]);
    };
    const body = ['甲一', '乙二', '丙三', '丁四', '戊五', '己六', '庚七', '辛八', '壬九', '癸十'].map((name, i) =>
      JSON.stringify({ id: 'a' + i, op: 'add_player', player: { name, rating: 2000 - i } })).join('\n');
    await fetch(ev.base + '/api/op', { method: 'POST', headers: { Authorization: 'Bearer ' + ev.admin }, body });
    assert.equal((await post({ id: 'p', op: 'pair', publish: true })).ok, true);
    const pairs = async () => (await (await fetch(ev.base + '/api/rounds/1/pairings.json')).json()).boards;
    const board = async t => (await pairs()).find(b => b.table === t);
    const until = async (fn, what) => {
      for (let i = 0; i < 100 && !(await fn()); i++) await new Promise(r => setTimeout(r, 100));
      assert.ok(await fn(), what);
    };
    const { ctx, p, errors } = await freshPage(1280, 900);
    await p.goto(ev.base + '/#arbiter/1');
    await p.fill('#token', ev.admin);
    await p.click('#token-form button[type="submit"]');
    await p.waitForSelector('#arbiter-games tbody tr[data-table="5"]', { timeout: WAIT });
    // every kind of result has its button
    const keys = await p.$$eval('#arbiter-games tr[data-table="1"] .actions button', bs => bs.map(b => b.dataset.action));
    for (const k of ['a_10', 'a_draw', 'a_01', 'a_f10', 'a_f01', 'a_f00']) assert.ok(keys.includes(k), `${k} in ${keys}`);
    // typed: "1 1-0" asks first, naming the game; nothing is sent before Yes
    const b1 = await board(1);
    const field = p.locator('#entry input[name="line"]');
    await field.fill('1 1-0');
    await field.press('Enter');
    const ask = p.locator('#entry .confirm[data-live]');
    await ask.waitFor({ timeout: WAIT });
    const asked = await ask.textContent();
    for (const s of ['第1台', b1.red.name, b1.black.name, '红胜 1-0']) assert.ok(asked.includes(s), `"${s}" in "${asked}"`);
    assert.equal((await board(1)).result, '*', 'nothing changed before the confirmation');
    // Yes has the focus (given on the page's next turn): Enter answers it; the field is emptied and has the focus again
    await p.waitForFunction(() => document.activeElement?.matches('#entry .confirm button[data-action="yes"]'), null,
      { timeout: WAIT });
    await p.keyboard.press('Enter');
    await until(async () => (await board(1)).result === '1-0', 'table 1 is 1-0');
    assert.equal(await field.inputValue(), '');
    assert.equal(await p.evaluate(() => document.activeElement.name), 'line');
    // undo resumes the game: in play again, and the tournament has no result
    const resume = p.locator('#op-result button.undo');
    assert.equal(await resume.textContent(), '恢复对局');
    await resume.click();
    await until(async () => (await board(1)).result === '*', 'table 1 in play again');
    await p.waitForSelector('#op-result:has-text("已恢复：第1台继续对局")', { timeout: WAIT });
    await p.waitForSelector('#arbiter-games tr[data-table="1"] td.result[data-result="*"]', { timeout: WAIT });
    const g1 = (await (await fetch(ev.base + '/api/rounds/1/games.json')).json()).games.find(g => g.table === 1);
    assert.equal(g1.result, '*');
    // Escape says no
    await field.fill('2 -+');
    await field.press('Enter');
    await ask.waitFor({ timeout: WAIT });
    // (as for Enter: the question has the focus on the page's next turn)
    await p.waitForFunction(() => document.activeElement?.matches('#entry .confirm button[data-action="yes"]'), null,
      { timeout: WAIT });
    await p.keyboard.press('Escape');
    await p.locator('#entry .confirm').waitFor({ state: 'detached', timeout: WAIT });
    assert.equal((await board(2)).result, '*');
    // forfeits typed (full-width too) and clicked; a double forfeit
    for (const [line, code] of [['2 -+', '-+'], ['３　＋－', '+-']]) {
      await field.fill(line);
      await field.press('Enter');
      await p.click('#entry .confirm[data-live] button[data-action="yes"]');
      const t = line.startsWith('2') ? 2 : 3;
      await until(async () => (await board(t)).result === code, `table ${t} is ${code}`);
    }
    const row4 = p.locator('#arbiter-games tr[data-table="4"]');
    await row4.locator('button[data-action="a_f00"]').click();
    assert.match(await row4.locator('.confirm[data-live]').textContent(), /第4台 .+ 对 .+ 正在对局，判为 双方弃权 --/);
    await row4.locator('.confirm button[data-action="yes"]').click();
    await until(async () => (await board(4)).result === '--', 'table 4 is --');
    await p.waitForSelector('#arbiter-games tr[data-table="4"] td.result[data-result="--"]', { timeout: WAIT });
    assert.equal(await p.textContent('#arbiter-games tr[data-table="4"] td.result'), '双方弃权');
    // lines that say nothing sensible are refused, in words
    await field.fill('x 1-0');
    await field.press('Enter');
    await p.waitForSelector('#op-result.error:has-text("无法识别")', { timeout: WAIT });
    await field.fill('99 1-0');
    await field.press('Enter');
    await p.waitForSelector('#op-result.error:has-text("没有第99台")', { timeout: WAIT });
    await p.screenshot({ path: join(ART, '35-desk-results.png') });
    // the console's own line: a changed result asked, then undone
    await p.click('#tabs a[data-view="console"]');
    await p.waitForSelector('#console-body:not([hidden])', { timeout: WAIT });
    const cfield = p.locator('#c-entry input[name="line"]');
    await cfield.fill('5 =');
    await cfield.press('Enter');
    await p.click('#c-entry .confirm[data-live] button[data-action="yes"]');
    await until(async () => (await board(5)).result === '1/2-1/2', 'table 5 drawn from the console');
    await p.waitForSelector('#c-entry-result:has-text("第5台")', { timeout: WAIT });
    await cfield.fill('2 0-1');
    await cfield.press('Enter');
    const cask = p.locator('#c-entry .confirm');
    await cask.waitFor({ timeout: WAIT });
    assert.match(await cask.textContent(), /第2台已有结果 黑胜（红方弃权），改为 黑胜 0-1/);
    await p.waitForFunction(() => document.activeElement?.matches('#c-entry .confirm button[data-action="yes"]'), null,
      { timeout: WAIT });
    await p.keyboard.press('Enter');
    await until(async () => (await board(2)).result === '0-1', 'table 2 corrected');
    await p.click('#c-entry-result button.undo');
    await until(async () => (await board(2)).result === '-+', 'the correction undone');
    assert.deepEqual(errors, []);
    await ctx.close();
  } finally {
    ev.srv.kill('SIGTERM');
  }
});

test('i37: a delayed broadcast says so, and by how much, in both languages; none says nothing', async () => {
  // the demo's server has no delay: no notice
  const plain = await freshPage(1280, 900);
  await plain.p.goto(base + '/');
  await plain.p.waitForSelector('#boards .card', { timeout: WAIT });
  assert.equal(await plain.p.isVisible('#delay-note'), false);
  await plain.ctx.close();
  // serve --delay 900: fifteen minutes
  const ev = await startEmptyIn(dir, 'delayed', 3, { serve: ['--delay', '900'] });
  try {
    assert.equal((await (await fetch(ev.base + '/api/event')).json()).delay, 900);
    const { ctx, p, errors } = await freshPage(390, 844); // a phone
    await p.goto(ev.base + '/');
    await p.waitForSelector('#delay-note:not([hidden])', { timeout: WAIT });
    assert.match(await p.textContent('#delay-note'), /直播延时 15 分钟/);
    await p.click('#lang');
    await p.waitForFunction(() => /15 min/.test(document.querySelector('#delay-note').textContent), null,
      { timeout: WAIT });
    assert.equal(await p.getAttribute('#delay-note', 'data-delay'), '900');
    await p.screenshot({ path: join(ART, 'delay-note-phone.png') });
    assert.deepEqual(errors, []);
    await ctx.close();
  } finally {
    await stop(ev.srv);
  }
});

test('i37: with a delay the arbiter\'s page has a move at once, a viewer\'s page not', async () => {
  const ev = await startEmptyIn(dir, 'delaydesk', 3, { bare: true, serve: ['--demo', '--delay', '600'] });
  const viewer = await freshPage(1280, 900), staff = await freshPage(1280, 900);
  const board = new Board(ev.json);
  try {
    const tok = await opCall(ev)({ id: 1, op: 'token', role: 'board', round: 1, table: 1 });
    assert.equal((await board.send({ id: 0, op: 'hello', token: tok.token })).ok, true);
    await viewer.p.goto(ev.base + '/');
    await viewer.p.waitForSelector('#boards .card[data-table="1"]', { timeout: WAIT });
    await openConsole(staff.p, ev.base, ev.admin); // signed in as the organiser
    await staff.p.click('#tabs a[data-view="live"]');
    await staff.p.waitForSelector('#boards .card[data-table="1"]', { timeout: WAIT });
    assert.equal((await board.send({ id: 1, op: 'move', seq: 1, move: 'h2e2' })).ok, true);
    // the organiser's page reads the round with its token: the move comes
    await staff.p.waitForSelector('#boards .card[data-table="1"][data-ply="1"]', { timeout: WAIT });
    // the viewer's page, reloaded too, is ten minutes behind
    await viewer.p.reload();
    await viewer.p.waitForSelector('#boards .card[data-table="1"]', { timeout: WAIT });
    assert.equal(await viewer.p.getAttribute('#boards .card[data-table="1"]', 'data-ply'), '0');
    assert.match(await viewer.p.textContent('#delay-note'), /直播延时 10 分钟/);
    assert.deepEqual([...viewer.errors, ...staff.errors], []);
  } finally {
    board.close();
    await viewer.ctx.close();
    await staff.ctx.close();
    await stop(ev.srv);
  }
});
