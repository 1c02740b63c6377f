// The arbiter's desk that rules (docs/web.md "Arbiter's desk", issue 35
// item 3), in headless Chromium: an event under tangshan2018 whose four
// boards end a game by a perpetual check, by a flag fall and by a second
// foul, and ask the arbiter about a natural-limit claim. The desk lists
// every ruling with its sentence in both languages and its article,
// shows any game's board, clocks, ply count and moves (a repetition's
// cycle marked), rules the claim from there; two arbiters share what they
// have seen; the console makes a token and revokes it.
//
//   XQ_BUILD=build node --test tests/web/desk.test.mjs   (tests/web/run.sh)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { XQREF, ART, LAUNCH, WAIT, startEmpty, stop, freshPage, openConsole, asked, answer, opCall } from './lib.mjs';

let browser, dir, ev, call;
const boards = {};   // table -> board token of round 1
const arbiters = []; // two arbiter tokens

/* A unilateral perpetual check by Red's horse from the start position
 * (xqref judge: Red loses at the 19th ply; its cycle is plies 12..19). */
const PERPETUAL = 'c3c4 a9a8 b0c2 a8a9 c2d4 a9a8 d4e6 a8a9 e6d8 a9a8 d8f7 e9e8 f7d6 e8e9 d6f7 e9e8 f7d6 e8e9 d6f7'.split(' ');

/* One operation with `token`, by POST /api/op: its reply. */
async function as(token, req) {
  const r = await fetch(ev.base + '/api/op', { method: 'POST', headers: { 'Authorization': 'Bearer ' + token },
    body: JSON.stringify(req) + '\n' });
  return r.json();
}

/* Board `table` sends its events in order (seq from 1), each accepted. */
async function play(table, events) {
  let seq = 0;
  for (const e of events) {
    const req = Object.assign({ id: ++seq, seq }, typeof e === 'string' ? { op: 'move', move: e } : e);
    const r = await as(boards[table], req);
    assert.equal(r.error, undefined, `table ${table} ${JSON.stringify(req)}: ${JSON.stringify(r)}`);
  }
}

/* A page signed in on the arbiter's tab with `token`. */
async function deskPage(token, width = 1400, height = 900) {
  const f = await freshPage(browser, width, height);
  await f.p.goto(ev.base + '/#arbiter');
  await f.p.fill('#token', token);
  await f.p.click('#token-form button[type="submit"]');
  await f.p.waitForSelector('#arbiter-body:not([hidden])', { timeout: WAIT });
  return f;
}

before(async () => {
  assert.ok(existsSync(XQREF), `${XQREF} is built`);
  dir = mkdtempSync(join(tmpdir(), 'xqref-desk-'));
  mkdirSync(ART, { recursive: true });
  browser = await chromium.launch(LAUNCH);
  ev = await startEmpty(dir, 'desk', 0, { preset: 'tangshan2018', rules: 'tangshan2018' });
  call = opCall(ev);
  const names = ['甲一', '乙二', '丙三', '丁四', '戊五', '己六', '庚七', '辛八'];
  for (const [i, name] of names.entries())
    assert.equal((await call({ id: i, op: 'add_player', player: { name, rating: 2400 - i } })).error, undefined);
  assert.equal((await call({ id: 9, op: 'pair', publish: true })).published, true);
  for (let t = 1; t <= 4; t++) boards[t] = (await call({ id: 10 + t, op: 'token', role: 'board', round: 1, table: t })).token;
  for (let i = 0; i < 2; i++) arbiters.push((await call({ id: 20 + i, op: 'token', role: 'arbiter', label: 'arb ' + i })).token);
});

after(async () => {
  if (browser) await browser.close();
  if (ev) await stop(ev.srv);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('i35.3: the desk says why a perpetual check, a flag fall and a second foul ended their games, and rules a claim seeing the position', async () => {
  const viewer = await freshPage(browser, 1200, 900);
  await viewer.p.goto(ev.base + '/#live');
  await viewer.p.waitForSelector('#boards .card[data-table="4"]', { timeout: WAIT });
  const clock = [1500000, 1500000];
  await play(1, PERPETUAL);
  await play(2, [{ op: 'move', move: 'h2e2', flag: true }]);
  await play(3, ['h0h2', 'h0g2', 'h9g7', 'g2g3']); // a foul, then the second breach loses
  await play(4, [{ op: 'move', move: 'h2e2', clock: [1490000, 1500000] }, { op: 'move', move: 'h9g7', clock: [1490000, 1480000] },
    { op: 'claim', kind: 'natural' }]);
  const games = (await (await fetch(ev.base + '/api/rounds/1/games.json')).json()).games;
  const by = Object.fromEntries(games.map(g => [g.table, g]));
  assert.deepEqual([1, 2, 3].map(t => by[t].result), ['0-1', '0-1', '0-1']);
  assert.deepEqual([1, 2, 3, 4].map(t => by[t].rulings.length), [1, 1, 2, 1], 'every ruling is in the state');
  assert.equal(by[4].needs_arbiter, true, JSON.stringify(by[4]));

  // the viewer: one banner per game end, the result and why in it
  await viewer.p.waitForSelector('#boards .card[data-table="1"][data-result="0-1"]', { timeout: WAIT });
  await viewer.p.waitForFunction(() => /长将/.test(document.querySelector('#banners .banner[data-table="1"]')?.textContent || '') &&
    /黑胜/.test(document.querySelector('#banners .banner[data-table="1"]')?.textContent || ''), null, { timeout: WAIT });
  await viewer.p.waitForTimeout(300);
  assert.equal(await viewer.p.locator('#banners .banner[data-table="1"]').count(), 1, 'one banner for the end of table 1');
  await viewer.ctx.close();

  const { ctx, p, errors } = await deskPage(arbiters[0]);
  try {
    // every automatic ruling listed with its reason in both languages and its article
    const item = t => p.locator(`#attention .item[data-table="${t}"]`);
    await item(4).waitFor({ timeout: WAIT });
    const text = async t => (await item(t).textContent()).replace(/\s+/g, ' ');
    const t1 = await text(1), t2 = await text(2), t3 = await text(3), t4 = await text(4);
    assert.match(t1, /黑胜 0-1（长将）/);
    assert.match(t1, /单方长将，判红方负/);
    assert.match(t1, /perpetual check loses; Red loses \[条款 R8\]/);
    assert.doesNotMatch(t1, /判负，红方负/, 'the loser said once');
    assert.match(t2, /超时/);
    assert.match(t2, /flag fell.*\[条款 clock\]/);
    assert.match(t3, /红方第二次违反行棋规定（马三不能走到三路第4横线），判负/);
    assert.match(t3, /\[条款 P9\]/);
    assert.match(t4, /由裁判按具体局面裁决/);
    assert.match(t4, /arbiter decides on the position \[条款 P5\]/);
    // the Chinese sentences name pieces and squares the Chinese way, no ICCS
    const zh = await p.$$eval('#attention .verdict, #rulings-log .verdict', ps => ps.map(x => x.textContent));
    assert.ok(zh.length >= 5);
    for (const s of zh) assert.doesNotMatch(s, /[a-i][0-9]/, s);
    // the round's log: every ruling, in table order, none seen yet
    const log = await p.$$eval('#rulings-log tbody tr', trs => trs.map(tr => [+tr.dataset.table, tr.dataset.seen,
      tr.querySelector('td.article').textContent]));
    assert.deepEqual(log, [[1, '0', 'R8'], [2, '0', 'clock'], [3, '0', 'P9'], [3, '0', 'P9'], [4, '0', 'P5']]);
    // the first foul said the second loses, not "foul 1 of 3"
    const first = await p.textContent('#rulings-log tbody tr[data-table="3"][data-index="0"]');
    assert.match(first, /再次违反行棋规定即判负/);
    assert.match(first, /foul 1, and a second move against the rules loses/);
    assert.doesNotMatch(first, /of 3/);

    // table 4 clicked: its board, clocks, ply count and moves
    await p.click('#arbiter-games tbody tr[data-table="4"] button[data-action="show"]');
    const shown = p.locator('#desk-game');
    await shown.waitFor({ timeout: WAIT });
    assert.equal(await shown.locator('svg.board .pc').count(), 32);
    assert.equal(await shown.locator('.ply-count').getAttribute('data-ply'), '2');
    assert.equal(await shown.locator('.ply-count').textContent(), '第2步（共2步）');
    assert.equal(await shown.locator('ol.moves .mv').count(), 2);
    assert.deepEqual(await shown.locator('ol.moves .mv').allTextContents(), ['炮二平五', '马８进７']);
    assert.match(await shown.locator('.clock[data-side="0"]').textContent(), /^24:[45]\d$/, 'Red: its last reading, stopped by the claim');
    assert.equal(await shown.locator('.clock[data-side="1"]').textContent(), '24:40');
    assert.match(await shown.textContent(), /由裁判按具体局面裁决/);
    await p.screenshot({ path: join(ART, '40-desk-board.png') });
    // ruled from there: a draw, asked first, naming the game
    await shown.locator('button[data-action="a_draw"]').click();
    assert.match(await shown.locator('.confirm span').textContent(), /第4台 丁四 对 戊五 正在对局|第4台 .* 正在对局/);
    await shown.locator('.confirm button[data-action="yes"]').click();
    await p.waitForSelector('#arbiter-games tbody tr[data-table="4"] td.result[data-result="1/2-1/2"]', { timeout: WAIT });
    const g4 = (await (await fetch(ev.base + '/api/rounds/1/games.json')).json()).games.find(g => g.table === 4);
    assert.equal(g4.result, '1/2-1/2', 'the store has the arbiter\'s ruling');

    // table 1: the perpetual check's cycle marked in the move list
    await p.click('#arbiter-games tbody tr[data-table="1"] button[data-action="show"]');
    await p.waitForSelector('#desk-game .ply-count[data-ply="19"]', { timeout: WAIT });
    const marked = await p.$$eval('#desk-game ol.moves .mv.cycle', bs => bs.map(b => +b.dataset.ply));
    assert.deepEqual(marked, [12, 13, 14, 15, 16, 17, 18, 19]);
    assert.deepEqual(PERPETUAL.slice(11), by[1].rulings[0].moves, 'the marked plies are the ruling\'s cycle');
    assert.equal(await p.locator('#desk-game ol.moves .mv').count(), 19);
    // a move clicked shows that position
    await p.click('#desk-game ol.moves .mv[data-ply="11"]');
    await p.waitForSelector('#desk-game .ply-count[data-ply="11"]', { timeout: WAIT });
    assert.equal(await p.locator('#desk-game svg.board .pc[data-sq="f7"]').count(), 1, 'the horse on f7 at ply 11');
    await p.screenshot({ path: join(ART, '41-desk-cycle.png') });
    await p.locator('#desk-game').screenshot({ path: join(ART, '42-desk-game.png') }); // docs/img/desk-game.png
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});

test('i35.3: a ruling marked seen by one arbiter is seen on another arbiter\'s desk; the English desk names its table column in full', async () => {
  const a = await deskPage(arbiters[0]);
  const b = await deskPage(arbiters[1]);
  try {
    const row = (pg, t) => pg.p.locator(`#rulings-log tbody tr[data-table="${t}"]`).first();
    await row(b, 2).waitFor({ timeout: WAIT });
    assert.equal(await row(b, 2).getAttribute('data-seen'), '0');
    assert.equal(await b.p.locator('#attention .item[data-table="2"]').count(), 1);
    await a.p.click('#attention .item[data-table="2"] button[data-action="a_confirm"]');
    // the other desk follows, with no reload
    await b.p.waitForSelector('#rulings-log tbody tr[data-table="2"][data-seen="1"]', { timeout: WAIT });
    await b.p.waitForSelector('#attention .item[data-table="2"]', { state: 'detached', timeout: WAIT });
    assert.equal(await row(b, 1).getAttribute('data-seen'), '0', 'only what was marked');
    // a reload keeps it (the server has it)
    await b.p.reload();
    await b.p.waitForSelector('#rulings-log tbody tr[data-table="2"][data-seen="1"]', { timeout: WAIT });
    // English: "Table" whole in its column
    await b.p.click('#lang');
    await b.p.waitForFunction(() => document.querySelector('#arbiter-games th')?.textContent === 'Table', null, { timeout: WAIT });
    const [sw, cw] = await b.p.$eval('#arbiter-games th', th => [th.scrollWidth, th.clientWidth]);
    assert.ok(sw <= cw, `the heading fits: ${sw} <= ${cw}`);
    assert.deepEqual([...a.errors, ...b.errors], []);
  } finally {
    await a.ctx.close();
    await b.ctx.close();
  }
});

test('i35.3: the console makes an arbiter token and revokes it; the revoked token is refused', async () => {
  const { ctx, p, errors } = await freshPage(browser, 1400, 900);
  try {
    await openConsole(p, ev.base, ev.admin);
    await p.selectOption('#t-form select[name="role"]', 'arbiter');
    await p.fill('#t-form input[name="label"]', '第三裁判');
    await p.click('#t-form button[type="submit"]');
    const made = p.locator('#t-new code');
    await made.waitFor({ timeout: WAIT });
    const token = await made.textContent();
    assert.match(token, /^[0-9a-f]{32}$/);
    const row = p.locator('#t-list tbody tr', { hasText: '第三裁判' });
    await row.waitFor({ timeout: WAIT });
    assert.match(await row.textContent(), /裁判/);
    // it opens the desk
    const d = await deskPage(token);
    await d.ctx.close();
    // revoked, asked first
    await asked(p, '#t-list tbody tr:has-text("第三裁判") button[data-action="revoke"]');
    await answer(p, true);
    await p.waitForSelector('#t-list tbody tr:has-text("第三裁判")', { state: 'detached', timeout: WAIT });
    assert.equal((await as(token, { id: 1, op: 'games', round: 1 })).error.code, 'BAD_TOKEN');
    const f = await freshPage(browser, 1200, 900);
    await f.p.goto(ev.base + '/#arbiter');
    await f.p.fill('#token', token);
    await f.p.click('#token-form button[type="submit"]');
    await f.p.waitForSelector('#op-result:has-text("令牌无效或已撤销")', { timeout: WAIT });
    assert.equal(await f.p.isHidden('#arbiter-body'), true);
    await f.ctx.close();
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});

test('i35.3: on a phone the game shown on the desk fits the screen: its board first, then its moves', async () => {
  const { ctx, p, errors } = await deskPage(arbiters[0], 390, 844);
  try {
    await p.click('#arbiter-games tbody tr[data-table="1"] button[data-action="show"]');
    await p.waitForSelector('#desk-game .ply-count[data-ply="19"]', { timeout: WAIT });
    const fit = await p.evaluate(() => {
      const board = document.querySelector('#desk-game svg.board').getBoundingClientRect();
      const moves = document.querySelector('#desk-game ol.moves').getBoundingClientRect();
      return { page: document.documentElement.scrollWidth, screen: innerWidth, left: board.left, right: board.right,
        movesTop: moves.top, boardBottom: board.bottom, header: document.querySelector('header').getBoundingClientRect().bottom,
        heading: document.querySelector('#desk-game h2').getBoundingClientRect().top };
    });
    assert.ok(fit.heading >= fit.header, `the game's heading is in sight under the page's header: ${JSON.stringify(fit)}`);
    assert.ok(fit.page <= fit.screen, `the page does not scroll sideways (${fit.page} > ${fit.screen})`);
    assert.ok(fit.left >= 0 && fit.right <= fit.screen && fit.right - fit.left >= 300, JSON.stringify(fit));
    assert.ok(fit.movesTop >= fit.boardBottom, 'the moves under the board');
    await p.locator('#desk-game').screenshot({ path: join(ART, '43-desk-phone.png') });
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});
