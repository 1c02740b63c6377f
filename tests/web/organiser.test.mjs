// The organiser's scenario (docs/web.md, issue "the page runs the event"):
// a 12-player, 3-round event run from the page alone -- a CSV list with a
// bad line, the pairing previewed, a swap by hand, published, the results
// entered at the arbiter's desk, one corrected and undone, rounds 2 and 3,
// the final standings -- and after every step the store, read by another
// process (`xqref tourney ... --db`), says what the page says.
//
//   XQ_BUILD=build node --test tests/web/organiser.test.mjs   (tests/web/run.sh)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, existsSync, writeFileSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { XQREF, ART, CHROMIUM, LAUNCH, WAIT, startEmpty, stop, freshPage, openConsole, asked, answer, opCall, cli, csv } from './lib.mjs';

let browser, dir;

before(async () => {
  assert.ok(existsSync(XQREF), `${XQREF} is built`);
  dir = mkdtempSync(join(tmpdir(), 'xqref-organiser-'));
  mkdirSync(ART, { recursive: true });
  browser = await chromium.launch(LAUNCH);
});

after(async () => {
  if (browser) await browser.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/* A prize table file for the command line, in the test's directory. */
function writePrizes(text) {
  const f = join(dir, 'prizes.txt');
  writeFileSync(f, text);
  return f;
}

/* The store's pairing of round r: [[table, red name, result, black name]]
 * (the rows under the boards, without a table number, are the players on
 * none: offBoard gives them, [name, why]). Columns found by their headings. */
function pairingSheet(db, r) {
  const rows = csv(cli(db, 'export', '--format', 'csv', '--what', 'pairings', '--round', String(r)));
  const h = rows[0], at = w => h.indexOf(w);
  return rows.slice(1).map(f => ({ table: f[0], red: f[at('Red')], result: f[at('Result')], black: f[at('Black')] }));
}

function storedPairing(db, r) {
  return pairingSheet(db, r).filter(b => b.table !== '').map(b => [+b.table, b.red, b.result, b.black]);
}

function offBoard(db, r) {
  return pairingSheet(db, r).filter(b => b.table === '').map(b => [b.red, b.result]);
}

/* The store's standings: [[rank, name, points, W-D-L]]. */
function storedStandings(db) {
  const rows = csv(cli(db, 'export', '--format', 'csv', '--what', 'standings'));
  const h = rows[0];
  return rows.slice(1).map(f => [+f[0], f[h.indexOf('Name')], f[h.indexOf('Points')], f[h.length - 1]]);
}

/* The pairing the console shows: [[table, red "no. name", black]]. */
async function shownPairing(p) {
  return p.$$eval('#c-pairing tbody tr', trs => trs.map(tr => [+tr.dataset.table,
    tr.querySelector('td.red-name').textContent, tr.querySelector('td.black-name').textContent]));
}

/* The arbiter's desk for round r: the result of each table. */
async function deskResults(p) {
  return p.$$eval('#arbiter-games tbody tr', trs => trs.map(tr => [+tr.dataset.table, tr.querySelector('td.result').dataset.result]));
}

async function openRound(p, view, r) {
  await p.selectOption('#round', String(r));
  await p.click(`#tabs a[data-view="${view}"]`);
  await p.waitForFunction(([v, r]) => location.hash === `#${v}/${r}`, [view, r], { timeout: WAIT });
}

/* Enter a result at every game (`games` tables) of round r from the desk:
 * table t gets plan[(t + r) % 3] (1-0, =, 0-1); the store's pairing then
 * shows them. */
async function enterResults(p, db, r, games) {
  await openRound(p, 'arbiter', r);
  await p.waitForSelector(`#arbiter-games tbody tr[data-table="${games}"] button[data-action="a_10"]`, { timeout: WAIT });
  const plan = ['a_10', 'a_draw', 'a_01'], code = { a_10: '1-0', a_draw: '½-½', a_01: '0-1' };
  const want = [];
  for (let table = 1; table <= games; table++) {
    const key = plan[(table + r) % 3];
    await p.click(`#arbiter-games tr[data-table="${table}"] button[data-action="${key}"]`);
    // a game in play ends only when confirmed (issue 35)
    await p.click(`#arbiter-games tr[data-table="${table}"] .confirm[data-live] button[data-action="yes"]`);
    await p.waitForFunction(([t, k]) => document.querySelector(`#op-result`)?.textContent.includes(`第${t}台`),
      [table, key], { timeout: WAIT });
    want.push([table, code[key]]);
  }
  await p.waitForFunction(() => [...document.querySelectorAll('#arbiter-games td.result')].every(td => td.dataset.result !== '*'),
    null, { timeout: WAIT });
  assert.deepEqual(storedPairing(db, r).filter(b => b[3]).map(b => [b[0], b[2]]), want,
    `round ${r}: the store has the results entered`);
}

test('an organiser runs a 12-player, 3-round event from the page alone; the store agrees at every step', async () => {
  const ev = await startEmpty(dir, 'organiser', 3);
  const { ctx, p, errors } = await freshPage(browser, 1400, 900);
  try {
    // sign in with the admin token, open the console
    await openConsole(p, ev.base, ev.admin);

    // a list saved by a spreadsheet as UTF-8 with its BOM; line 5's birth date is wrong
    const names = ['王天一', '郑惟桐', '许银川', '赵鑫鑫', '蒋川', '洪智', '孙勇征', '谢靖', '汪洋', '徐超', '申鹏', '党斐'];
    const rows = ['姓名,性别,出生日期,单位,等级分'];
    names.forEach((n, i) => rows.push(`${n},男,19${80 + i}-0${1 + i % 9}-15,${['杭州', '四川', '广东', '上海'][i % 4]},${2700 - i * 20}`));
    rows.splice(4, 0, '坏日期,男,1990-13-45,北京,2500');
    rows.push(rows[1]);                               // line 15: 王天一 again, the same birth date
    rows.push('全角，男,1990-01-01,北京,2400');        // line 16: a full-width comma
    const bytes = Buffer.concat([Buffer.from([0xEF, 0xBB, 0xBF]), Buffer.from(rows.join('\r\n') + '\r\n')]);
    await p.setInputFiles('#c-file', { name: 'players.csv', mimeType: 'text/csv', buffer: bytes });
    await p.waitForSelector('#c-preview tr[data-line]', { timeout: WAIT });
    assert.equal(await p.locator('#c-preview tr[data-line]').count(), 15);
    assert.deepEqual(await p.$$eval('#c-preview tr.bad', trs => trs.map(tr => tr.dataset.line)), ['5', '15', '16']);
    assert.match(await p.textContent('#c-preview tr[data-line="15"]'), /与第2行重复/);
    assert.match(await p.textContent('#c-preview tr[data-line="16"]'), /全角逗号/);
    // each line's fields as they will be stored, to check the columns were read right
    assert.deepEqual(await p.$$eval('#c-preview tr[data-line="3"] td', tds => tds.map(td => td.textContent)),
      ['3', '郑惟桐', '男', '1981-02-15', '', '四川', '', '2680', '']);
    assert.match(await p.textContent('#c-preview'), /UTF-8 \(BOM\)/);
    assert.equal(cli(ev.db, 'players').trim().split('\n').length, 1, 'the store has nobody before the import (a heading only)');
    await p.click('#c-do-import');
    await p.waitForFunction(() => document.querySelectorAll('#c-players tbody tr').length === 12, null, { timeout: WAIT });
    const listed = cli(ev.db, 'players');
    for (const n of names) assert.ok(listed.includes(n), `the store has ${n}`);
    assert.ok(!listed.includes('坏日期'), 'the bad line is not stored');

    const absentee = names[names.length - 1]; // the lowest rating: number 12
    for (let r = 1; r <= 3; r++) {
      // the preview stores nothing
      await p.click('#tabs a[data-view="console"]');
      await p.waitForSelector('#console-body:not([hidden])', { timeout: WAIT });
      if (r === 2) {
        // an announced absence (请假) for round 2, 0 points: not paired, stored
        const row = `#c-players tbody tr[data-no="12"]`;
        assert.equal(await p.textContent(`${row} td[data-col="name"]`), absentee);
        await p.click(`${row} button[data-action="absent"]`);
        await p.selectOption(`${row} .confirm select[name="bye"]`, 'zero');
        await p.click(`${row} .confirm button[data-action="yes"]`);
        await p.waitForFunction(n => document.querySelector('#c-result').textContent.includes(`${n}：第2轮请假`), absentee, { timeout: WAIT });
        assert.match(cli(ev.db, 'log'), /absence/, 'the store has the absence');
      }
      await p.click('#c-pair');
      await p.waitForFunction(r => document.querySelector('#c-pairing h3')?.textContent.includes(String(r)) &&
        document.querySelector('#c-pairing table[data-published="no"]'), r, { timeout: WAIT });
      assert.equal(await p.locator('#c-pairing tbody tr').count(), 6, 'six tables (round 2: five and the bye)');
      if (r === 2) assert.ok(!(await p.textContent('#c-pairing tbody')).includes(absentee), 'the absent player is not paired');
      assert.throws(() => cli(ev.db, 'export', '--format', 'csv', '--what', 'pairings', '--round', String(r)),
        undefined, `round ${r} is not stored by the preview`);
      if (r === 1) {
        // one swap by hand with its reason: the preview follows it
        const [[, red1], [, red2]] = await shownPairing(p);
        const no = x => x.split('.')[0];
        await p.fill('#c-amend input[name="a"]', no(red1));
        await p.fill('#c-amend input[name="b"]', no(red2));
        await p.fill('#c-amend input[name="reason"]', '同单位回避');
        await p.click('#c-amend button[type="submit"]');
        await p.waitForFunction(x => document.querySelector('#c-pairing tbody tr[data-table="1"] td.red-name')?.textContent === x,
          red2, { timeout: WAIT });
        assert.deepEqual(await p.$$eval('#c-pairing tr.changed', trs => trs.map(tr => +tr.dataset.table)), [1, 2],
          'the two tables the swap changed are marked');
        await p.click('#c-nav button[data-to="c-sec-round"]');
        await p.screenshot({ path: join(ART, '25-console-pairing.png') }); // docs/img/console-pairing.png
      }
      const shown = await shownPairing(p);
      // asked first, naming the round and its tables; No (取消, or Escape) publishes nothing
      const boards = shown.length;
      assert.equal(await asked(p, '#c-publish'), `公布第${r}轮：${boards}台对阵，公布后各台棋盘即可开始。`);
      await answer(p, false, { key: r === 1 });
      assert.deepEqual((await (await fetch(ev.base + '/api/event')).json()).published.filter(x => x < 50),
        Array.from({ length: r - 1 }, (_, i) => i + 1), `round ${r} is not published before Yes`);
      await asked(p, '#c-publish');
      await answer(p, true, { key: r === 2 });
      await p.waitForSelector('#c-pairing table[data-published="yes"]', { timeout: WAIT });
      const name = x => x === '轮空' ? '' : x.replace(/^\d+\. /, ''); // the bye row names nobody
      assert.deepEqual(storedPairing(ev.db, r).map(b => [b[0], b[1], b[3]]), shown.map(b => [b[0], name(b[1]), name(b[2])]),
        `round ${r}: the store has the pairing the preview showed`);
      if (r === 2) assert.deepEqual(offBoard(ev.db, r), [[absentee, 'absent: no points']], 'the sheet lists the absent player');
      if (r === 1) {
        assert.match(cli(ev.db, 'log'), /change 1 swap .*reason=同单位回避/);
        assert.match(await p.textContent('#c-published-changes'), /同单位回避/, 'the published changes stay in sight');
        // round 2 cannot be paired before round 1's results: said in Chinese
        await p.click('#c-pair');
        await p.waitForFunction(() => /第1轮还有未出结果的对局/.test(document.querySelector('#c-result').textContent), null, { timeout: WAIT });
      }

      await enterResults(p, ev.db, r, r === 2 ? 5 : 6);
      if (r === 1) {
        // a correction: asked first, stored when confirmed, and undone with one click
        const before = storedPairing(ev.db, 1)[0][2];
        const other = before === '0-1' ? 'a_10' : 'a_01';
        await p.click(`#arbiter-games tr[data-table="1"] button[data-action="${other}"]`);
        await p.waitForSelector('#arbiter-games tr[data-table="1"] .confirm', { timeout: WAIT });
        assert.equal(storedPairing(ev.db, 1)[0][2], before, 'nothing changes before the confirmation');
        await p.click('#arbiter-games tr[data-table="1"] .confirm button[data-action="yes"]');
        await p.waitForSelector('#op-result button.undo', { timeout: WAIT });
        const changed = other === 'a_10' ? '1-0' : '0-1';
        await p.waitForFunction(x => document.querySelector('#arbiter-games tr[data-table="1"] td.result')?.dataset.result === x,
          changed === '1-0' ? '1-0' : '0-1', { timeout: WAIT });
        assert.equal(storedPairing(ev.db, 1)[0][2], changed, 'the correction is stored');
        await p.click('#op-result button.undo');
        await p.waitForFunction(() => /已撤销/.test(document.querySelector('#op-result').textContent), null, { timeout: WAIT });
        assert.equal(storedPairing(ev.db, 1)[0][2], before, 'the undo is stored');
      }
      // the standings on the page are the store's, after this round
      await openRound(p, 'standings', r);
      await p.waitForFunction(r => document.querySelector('#standings-caption')?.textContent.includes(`第${r}轮后`), r, { timeout: WAIT });
      const page = await p.$$eval('#standings tbody tr', trs => trs.map(tr =>
        [+tr.querySelector('[data-col="rank"]').textContent, tr.querySelector('[data-col="name"]').textContent,
          tr.querySelector('[data-tb="PTS"]').textContent, tr.querySelector('[data-col="wdl"]').textContent]));
      assert.deepEqual(page, storedStandings(ev.db), `standings after round ${r}`);
      if (r === 3) {
        await p.evaluate(() => scrollTo(0, 0));
        await p.screenshot({ path: join(ART, '20-final-standings.png'), fullPage: true });
      }
    }
    await p.click('#tabs a[data-view="console"]');
    await p.waitForSelector('#console-body:not([hidden])', { timeout: WAIT });
    assert.match(await p.textContent('#c-all-paired'), /全部3轮已编排/);

    // the final standings, printed: the store's order (the console's section bar brings Print into sight)
    await p.click('#c-nav button[data-to="c-sec-print"]');
    await p.waitForFunction(() => { const r = document.getElementById('c-sec-print').getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; },
      null, { timeout: WAIT });
    const final = storedStandings(ev.db);
    await p.selectOption('#p-what', 'standings');
    await p.selectOption('#p-round', '3');
    await p.click('#p-view');
    let frame = p.frameLocator('#p-frame[data-what="standings"]');
    await frame.locator('tbody tr').first().waitFor({ timeout: WAIT });
    assert.deepEqual(await frame.locator('tbody tr td:nth-child(3)').allTextContents(), final.map(x => x[1]),
      'the printed standings are the store\'s');
    assert.match(await frame.locator('body').textContent(), /第3轮后/);
    await p.locator('#p-out').screenshot({ path: join(ART, '23-print-final-standings.png') });
    // the prize list of a prize table file chosen on the computer: the first three of the final standings
    const table = '# 奖金表\ncategory open all\n1 3000\n2 2000\n3 1000\n';
    await p.selectOption('#p-what', 'prizes');
    await p.setInputFiles('#p-prize-file', { name: 'prizes.txt', mimeType: 'text/plain', buffer: Buffer.from(table) });
    await p.click('#p-view');
    frame = p.frameLocator('#p-frame[data-what="prizes"]');
    await frame.locator('tbody tr').first().waitFor({ timeout: WAIT });
    const prizeText = await frame.locator('body').textContent();
    for (const [i, amount] of [[0, '3000'], [1, '2000'], [2, '1000']]) {
      const row = (await frame.locator('tbody tr').allTextContents()).find(r => r.includes(final[i][1]));
      assert.ok(row && row.includes(amount), `place ${i + 1}, ${final[i][1]}, wins ${amount}: ${prizeText}`);
    }
    assert.match(cli(ev.db, 'prizes', '--table', writePrizes(table)), new RegExp(final[0][1]), 'the CLI awards the same');
    await p.locator('#p-out').screenshot({ path: join(ART, '24-print-prizes.png') });
    assert.ok(await p.isHidden('#c-pair'), 'no fourth round to pair');

    // the knockout: the top four after round 3, started and its semi-finals published from the page
    await p.waitForSelector('#k-start', { timeout: WAIT });
    await p.selectOption('#k-start select[name="after"]', '3');
    await p.selectOption('#k-start select[name="size"]', '4');
    await p.selectOption('#k-start select[name="format"]', 'rapid-armageddon');
    // asked first (who goes through, how many matches): 取消 starts nothing, Yes starts it
    assert.equal(await asked(p, '#k-start button[type="submit"]'), '开始淘汰赛：依据第3轮后的积分，前4名出线，首轮2场对阵。开始后不能撤回。');
    await answer(p, false);
    assert.equal((await (await fetch(ev.base + '/api/knockout')).json()).started, false, 'No starts nothing');
    await asked(p, '#k-start button[type="submit"]');
    await answer(p, true);
    await p.waitForSelector('#k-waiting tbody tr[data-match]', { timeout: WAIT });
    const top4 = storedStandings(ev.db).slice(0, 4).map(x => x[1]);
    const bracket = cli(ev.db, 'bracket');
    for (const n of top4) assert.ok(bracket.includes(n), `the stored bracket seeds ${n}: ${bracket}`);
    const waiting = await p.$$eval('#k-waiting tbody tr', trs => trs.map(tr => tr.children[1].textContent));
    assert.equal(waiting.length, 2, 'two semi-finals wait for a game');
    assert.ok(waiting[0].includes(top4[0]) && waiting[0].includes(top4[3]), `1 v 4: ${waiting[0]}`);
    // asked first, naming the matches: Escape publishes nothing, Enter publishes them
    const question = await asked(p, '#k-publish');
    assert.match(question, /^公布下一局（2场）：/);
    for (const n of top4) assert.ok(question.includes(n), `the question names ${n}: ${question}`);
    await answer(p, false, { key: true });
    assert.equal(((await (await fetch(ev.base + '/api/knockout')).json()).tables || []).length, 0, 'Escape publishes nothing');
    await asked(p, '#k-publish');
    await answer(p, true, { key: true });
    await p.waitForFunction(() => /已公布 2 台淘汰赛对局/.test(document.querySelector('#c-result').textContent), null, { timeout: WAIT });
    const ko = await (await fetch(ev.base + '/api/knockout')).json();
    assert.equal(ko.tables.length, 2);
    assert.deepEqual(ko.tables.map(x => [x.red.name, x.black.name].sort()), [[top4[0], top4[3]].sort(), [top4[1], top4[2]].sort()]);
    assert.match(cli(ev.db, 'bracket'), /table 1/i, 'the store has the published knockout tables');
    await p.waitForFunction(() => document.querySelectorAll('#k-playing li').length === 2, null, { timeout: WAIT });
    // the knockout tables' slips: a token each, good for its table
    await p.waitForFunction(() => document.querySelector('#round').value === '50', null, { timeout: WAIT });
    await p.click('#c-slips-btn');
    assert.match(await p.textContent('#c-slips .confirm span'), /^将为淘汰赛各台生成新的令牌/, 'the round named once');
    await p.click('#c-slips-go');
    frame = p.frameLocator('#c-slips-frame');
    await frame.locator('.slip').first().waitFor({ timeout: WAIT });
    assert.equal(await frame.locator('.slip').count(), 2);
    assert.match(await frame.locator('.slip[data-table="1"] h2').textContent(), /淘汰赛/);
    // and their score sheets, for the arbiter to put on the two tables
    await p.selectOption('#p-what', 'scoresheets');
    await p.selectOption('#p-round', '50');
    await p.click('#p-view');
    frame = p.frameLocator('#p-frame[data-what="scoresheets"]');
    await frame.locator('.scoresheet').first().waitFor({ timeout: WAIT });
    assert.equal(await frame.locator('.scoresheet').count(), 2);
    const ko1 = await frame.locator('.scoresheet[data-table="1"]').textContent();
    assert.match(ko1, /淘汰赛/);
    assert.ok(ko1.includes(ko.tables[0].red.name) && ko1.includes(ko.tables[0].black.name), ko1);
    await p.evaluate(() => scrollTo(0, 0));
    await p.screenshot({ path: join(ART, '21-console.png'), fullPage: true });
    // the console on a phone: nothing wider than the screen but the tables, which scroll in their boxes
    await p.setViewportSize({ width: 390, height: 844 });
    const wide = await p.evaluate(() => document.documentElement.scrollWidth);
    const culprits = await p.evaluate(() => [...document.querySelectorAll('#view-console *')]
      .filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('.scroll'))
      .slice(0, 5).map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`));
    assert.ok(wide <= 391, `the console is ${wide} px wide on a 390 px phone: ${culprits.join(' ')}`);
    assert.ok(await p.evaluate(() => [...document.querySelectorAll('#banners .banner')].filter(b => b.offsetParent).length <= 2),
      'two banners at most once the screen is a phone\'s');
    await p.evaluate(() => scrollTo(0, 0));
    await p.screenshot({ path: join(ART, '22-console-phone.png'), fullPage: false }); // docs/img/console-phone.png
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    assert.deepEqual(await stop(ev.srv), { code: 0, signal: null }, 'the server stops cleanly');
  }
});

test('the server\'s sentences the page puts in Chinese are sentences the server says', async () => {
  // every format string of the C sources that can reach a reply, as a sample sentence
  const root = new URL('../../', import.meta.url);
  const files = execFileSync('git', ['ls-files', 'tourney/*.c', 'tourney/**/*.c', 'net/*.c'], { cwd: root }).toString().trim().split('\n');
  const samples = [];
  for (const f of files) {
    const src = readFileSync(new URL(f, root), 'utf8');
    for (const m of src.matchAll(/"((?:[^"\\]|\\.)*)"/g)) samples.push(m[1].replace(/\\n$/, '').replace(/%\.?\d*(?:d|ld|zu|lld)/g, '7').replace(/%\.?\d*s/g, 'x'));
  }
  const { ctx, p, errors } = await freshPage(browser, 800, 600);
  const ev = await startEmpty(dir, 'messages', 3);
  try {
    await p.goto(ev.base + '/');
    // the console's own module, as an admin's page loads it (import() of its URL)
    const patterns = await p.evaluate(async () => (await import('/web/console_base.js')).MESSAGES_ZH.map(([re]) => re.source));
    for (const src of patterns) {
      const re = new RegExp(src);
      assert.ok(samples.some(s => re.test(s)), `no server sentence matches /${src}/`);
    }
    const zh = await p.evaluate(async () => (await import('/web/console_base.js')).errText({ code: 'CONFLICT', msg: 'round 1 still has boards without a result' }));
    assert.equal(zh, '不能执行：第1轮还有未出结果的对局');
    const unknown = await p.evaluate(async () => (await import('/web/console_base.js')).serverText('something new'));
    assert.equal(unknown, 'something new', 'an unknown sentence stays as the server wrote it');
    // the console follows the language at once: its drawn buttons too, without a reload
    await openConsole(p, ev.base, ev.admin);
    await p.waitForFunction(() => document.querySelector('#c-pair').textContent === '编排第1轮（预览）', null,
      { timeout: WAIT });
    await p.click('#lang');
    await p.waitForFunction(() => document.querySelector('#c-pair').textContent === 'Pair round 1 (preview)', null,
      { timeout: WAIT });
    await p.click('#lang');
    await p.waitForFunction(() => document.querySelector('#c-pair').textContent === '编排第1轮（预览）', null,
      { timeout: WAIT });
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});

test('an open page follows a player edited, without a reload', async () => {
  const ev = await startEmpty(dir, 'follow', 3);
  const call = opCall(ev);
  const { ctx, p, errors } = await freshPage(browser, 1000, 800);
  try {
    for (const [i, name] of ['赵国荣', '吕钦', '胡荣华', '柳大华'].entries())
      assert.equal((await call({ id: i, op: 'add_player', player: { name, rating: 2600 - i } })).error, undefined);
    assert.equal((await call({ id: 9, op: 'pair', publish: true })).published, true);
    await p.goto(ev.base + '/#pairings/1');
    await p.waitForFunction(() => document.querySelector('#pairings tbody')?.textContent.includes('赵国荣'), null, { timeout: WAIT });
    const r = await call({ id: 10, op: 'edit_player', player: 1, name: '赵国荣（黑龙江）' });
    assert.equal(r.error, undefined, JSON.stringify(r));
    await p.waitForFunction(() => document.querySelector('#pairings tbody')?.textContent.includes('赵国荣（黑龙江）'),
      null, { timeout: WAIT });
    await p.click('#tabs a[data-view="live"]');
    await p.waitForFunction(() => document.querySelector('#boards')?.textContent.includes('赵国荣（黑龙江）'), null, { timeout: WAIT });
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});

test('i35.9: the pairing preview names the boards where two players of one unit meet', async () => {
  const ev = await startEmpty(dir, 'unit', 3);
  const call = opCall(ev);
  const { ctx, p, errors } = await freshPage(browser, 1200, 900);
  try {
    for (const [i, name] of ['王天一', '郑惟桐'].entries())
      assert.equal((await call({ id: i, op: 'add_player', player: { name, rating: 2700 - i, club: '北京' } })).error, undefined);
    await openConsole(p, ev.base, ev.admin);
    assert.equal(await p.getAttribute('#c-nav', 'aria-label'), '栏目', 'the sections bar named in the page\'s language');
    await p.click('#c-pair');
    await p.waitForSelector('#c-pairing table[data-published="no"] tbody tr', { timeout: WAIT });
    assert.equal(await p.getAttribute('#c-pairing tbody tr[data-table="1"]', 'data-same-unit'), '北京');
    const note = await p.textContent('#c-same-unit');
    for (const s of ['同单位相遇（1台）', '第1台', '王天一', '郑惟桐', '北京']) assert.ok(note.includes(s), `"${s}" in "${note}"`);
    // another unit for one of them: nothing flagged once the preview is asked again
    assert.equal((await call({ id: 5, op: 'edit_player', player: 2, club: '四川' })).error, undefined);
    // (the console follows the edit: its list of players says 四川 first)
    await p.waitForFunction(() => document.querySelector('#console-body')?.textContent.includes('四川'), null, { timeout: WAIT });
    await p.click('#c-pair');
    await p.waitForFunction(() => { const tr = document.querySelector('#c-pairing tbody tr[data-table="1"]');
      return tr && !tr.hasAttribute('data-same-unit'); }, null, { timeout: WAIT });
    assert.equal(await p.locator('#c-same-unit').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});

test('a round robin from the console: paired from the table, its cross table printed', async () => {
  const ev = await startEmpty(dir, 'rr', 'rr');
  const call = opCall(ev);
  const { ctx, p, errors } = await freshPage(browser, 1200, 900);
  try {
    const names = ['王天一', '郑惟桐', '许银川', '赵鑫鑫', '洪智'];
    for (const [i, name] of names.entries())
      assert.equal((await call({ id: i, op: 'add_player', player: { name, rating: 2700 - i } })).error, undefined);
    await openConsole(p, ev.base, ev.admin);
    // round 1 from the page: five entrants, two games and a bye (人数逢单)
    await p.click('#c-pair');
    await p.waitForSelector('#c-pairing table[data-published="no"] tbody tr', { timeout: WAIT });
    assert.equal(await p.locator('#c-pairing tbody tr').count(), 3);
    const pub = (await call({ id: 9, op: 'pair', publish: true }));
    assert.equal(pub.published, true);
    // the boards are the table's: `xqref pair --system berger --players 5`, by the numbers drawn
    const table = execFileSync(XQREF, ['pair', '--system', 'berger', '--players', '5']).toString().split('\n')[0];
    const no = Object.fromEntries(csv(cli(ev.db, 'export', '--format', 'csv', '--what', 'standings')).slice(1)
      .map(f => [f[2], +f[1]]));
    const round1 = 'round 1: ' + pub.boards.map(b => b.black ? `${no[b.red.name]}-${no[b.black.name]}` : `bye ${no[b.red.name]}`).join(' ');
    assert.equal(round1, table);
    for (const b of pub.boards.filter(b => b.black))
      assert.equal((await call({ id: 'r' + b.table, op: 'result', round: 1, table: b.table, result: '1-0' })).error, undefined);
    // the print section offers a round robin's cross table
    await p.click('#c-nav button[data-to="c-sec-print"]');
    await p.waitForFunction(() => document.querySelector('#p-what option[value="crosstable"]').textContent === '交叉表', null, { timeout: WAIT });
    await p.selectOption('#p-what', 'crosstable');
    await p.click('#p-view');
    const frame = p.frameLocator('#p-frame[data-what="crosstable"]');
    await frame.locator('tbody tr').first().waitFor({ timeout: WAIT });
    assert.match(await frame.locator('body').textContent(), /交叉表/);
    assert.equal(await frame.locator('tbody tr').count(), 5, 'a row per entrant');
    const winner = pub.boards[0].red.name;
    const row = frame.locator('tbody tr', { hasText: winner });
    assert.ok((await row.locator('td').allTextContents()).includes('2'), `${winner} scored 2 against his opponent`);
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});

test('i35.1: the event set up from the console on an empty store: name, dates, venue, rounds; locked once round 1 is paired', async () => {
  const ev = await startEmpty(dir, 'settings', 0, { bare: true });
  const call = opCall(ev);
  const { ctx, p, errors } = await freshPage(browser, 1100, 900);
  try {
    await openConsole(p, ev.base, ev.admin);
    assert.equal(await p.textContent('#c-nav button[data-to="c-sec-settings"]'), '赛事设置');
    await p.waitForFunction(() => document.querySelector('#s-name')?.value === 'xqref tournament', null, { timeout: WAIT });
    assert.equal(await p.inputValue('#s-rounds'), '', 'no rounds set yet');
    assert.equal(await p.isDisabled('#s-format'), false, 'nothing locked before round 1');
    // a round robin's rounds follow from its entrants: not typed while the format says so
    await p.selectOption('#s-format', 'rr2');
    assert.ok(await p.isDisabled('#s-rounds'));
    await p.selectOption('#s-format', 'swiss');
    assert.equal(await p.isDisabled('#s-rounds'), false);
    await p.fill('#s-name', '2026年全国象棋锦标赛');
    await p.fill('#s-dates', '2026年5月1日至5日');
    await p.fill('#s-venue', '北京棋院');
    await p.fill('#s-arbiter', '张三');
    await p.fill('#s-rounds', '7');
    await p.click('#s-save');
    await p.waitForFunction(() => document.querySelector('#s-result')?.textContent.startsWith('已保存：'), null, { timeout: WAIT });
    const said = await p.textContent('#s-result');
    for (const w of ['名称', '日期', '地点', '裁判长', '轮数']) assert.ok(said.includes(w), `"${w}" in "${said}"`);
    // on the page: its heading, and the form read back
    assert.equal(await p.textContent('#event-name'), '2026年全国象棋锦标赛');
    assert.equal(await p.textContent('#event-info'), '2026年5月1日至5日 · 北京棋院');
    assert.equal(await p.inputValue('#s-rounds'), '7');
    // the store, read by another process
    const out = cli(ev.db, 'settings');
    for (const l of ['name: 2026年全国象棋锦标赛', 'dates: 2026年5月1日至5日', 'venue: 北京棋院', 'arbiter: 张三',
      'format: swiss', 'rounds: 7']) assert.ok(out.includes(l + '\n'), `"${l}" in\n${out}`);
    // a page opened afresh says them too
    const other = await ctx.newPage();
    await other.goto(ev.base + '/');
    await other.waitForFunction(() => document.querySelector('#event-name')?.textContent === '2026年全国象棋锦标赛', null,
      { timeout: WAIT });
    assert.equal(await other.textContent('#event-info'), '2026年5月1日至5日 · 北京棋院');
    await other.close();
    // round 1 paired: the format and the scoring locked, with why; the rounds not below those paired
    for (const [i, name] of ['赵国荣', '吕钦', '胡荣华', '柳大华'].entries())
      assert.equal((await call({ id: i, op: 'add_player', player: { name, rating: 2600 - i } })).error, undefined);
    assert.equal((await call({ id: 9, op: 'pair', publish: true })).published, true);
    await p.waitForFunction(() => document.querySelector('#s-format')?.disabled, null, { timeout: WAIT });
    assert.ok(await p.isDisabled('#s-scoring'));
    assert.equal(await p.textContent('.s-row[data-key="format"] .s-lock'), '第1轮已编排，赛制不能再改');
    assert.equal(await p.textContent('.s-row[data-key="rounds"] .s-lock'), '已编排1轮：轮数不能更少');
    assert.equal(await p.isDisabled('#s-venue'), false, 'the venue still changes');
    await p.fill('#s-venue', '杭州棋院');
    await p.click('#s-save');
    await p.waitForFunction(() => document.querySelector('#s-result')?.textContent === '已保存：地点', null, { timeout: WAIT });
    assert.ok(cli(ev.db, 'settings').includes('venue: 杭州棋院\n'));
    // the pairing sheet carries the name, dates and venue
    const sheet = await call({ id: 11, op: 'export', what: 'pairings', format: 'html', round: 1, lang: 'zh' });
    assert.ok(sheet.text.includes('2026年全国象棋锦标赛') && sheet.text.includes('2026年5月1日至5日 · 杭州棋院'), sheet.text);
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});

test('i37: the console sets the broadcast\'s delay; a page opened then says it; cleared, the server\'s again', async () => {
  const ev = await startEmpty(dir, 'delay', 5);
  const { ctx, p, errors } = await freshPage(browser, 1100, 900);
  try {
    await openConsole(p, ev.base, ev.admin);
    await p.waitForSelector('#s-delay', { timeout: WAIT });
    assert.equal(await p.inputValue('#s-delay'), '', 'not set: the server\'s');
    assert.match(await p.textContent('.s-row[data-key="delay"] .s-lock'), /防作弊/);
    await p.fill('#s-delay', '900');
    await p.click('#s-save');
    await p.waitForFunction(() => document.querySelector('#s-result')?.textContent === '已保存：直播延时（秒）', null,
      { timeout: WAIT });
    assert.ok(cli(ev.db, 'settings').includes('delay: 900\n'));
    const other = await ctx.newPage();
    await other.goto(ev.base + '/');
    await other.waitForSelector('#delay-note:not([hidden])', { timeout: WAIT });
    assert.match(await other.textContent('#delay-note'), /直播延时 15 分钟/);
    await other.close();
    await p.fill('#s-delay', '');
    await p.click('#s-save');
    await p.waitForFunction(() => document.querySelector('#s-result')?.textContent === '已保存：直播延时（秒）', null,
      { timeout: WAIT });
    assert.ok(cli(ev.db, 'settings').includes('delay: server\n'));
    assert.equal((await (await fetch(ev.base + '/api/event')).json()).delay, 0);
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});

test('i33: the console\'s knockout form starts from the knockout the event\'s regulation states', async () => {
  const ev = await startEmpty(dir, 'tangshan', 0, { preset: 'tangshan2018' });
  const call = opCall(ev);
  const { ctx, p, errors } = await freshPage(browser, 1200, 900);
  try {
    const own = await call({ id: 1, op: 'event' });
    assert.equal(own.preset, 'tangshan2018');
    assert.deepEqual([own.knockout.after, own.knockout.size, own.knockout.seeding], [9, 4, 'choose'], 'Tangshan 八.3: top 4 after 9, #1 picks');
    await openConsole(p, ev.base, ev.admin);
    await p.waitForSelector('#k-start', { timeout: WAIT });
    const form = await p.$eval('#k-start', f => [f.elements.size.value, f.elements.seeding.value, f.elements.format.value]);
    assert.deepEqual(form, ['4', 'choose', own.knockout.format], 'the form is the regulation\'s, not 8 / fixed / Xinjiang\'s games');
    assert.notEqual(own.knockout.format, 'rapid-armageddon', 'Tangshan\'s tie-break games are not Xinjiang\'s');
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});

test('i35: a published round withdrawn from the console and paired again; no withdrawal once a result is in', async () => {
  const ev = await startEmpty(dir, 'unpair', 3);
  const call = opCall(ev);
  const { ctx, p, errors } = await freshPage(browser, 1200, 900);
  try {
    for (const [i, name] of ['甲', '乙', '丙', '丁'].entries())
      assert.equal((await call({ id: i, op: 'add_player', player: { name, rating: 2000 - i } })).error, undefined);
    await openConsole(p, ev.base, ev.admin);
    const publish = async () => {
      await p.click('#c-pair');
      await p.waitForSelector('#c-publish:not([hidden])', { timeout: WAIT });
      await asked(p, '#c-publish');
      await answer(p, true);
      await p.waitForSelector('#c-pairing table[data-published="yes"]', { timeout: WAIT });
    };
    await publish();
    // none of its games has begun: it can be withdrawn, asked first
    await p.waitForSelector('#c-unpair:not([hidden])', { timeout: WAIT });
    assert.equal(await p.textContent('#c-unpair'), '撤回第1轮');
    assert.equal(await asked(p, '#c-unpair'), '撤回第1轮的对阵：各台的棋盘令牌作废，本轮可重新编排。');
    await answer(p, false, { key: true });
    assert.match(cli(ev.db, 'log'), /pairing\s+round=1 value=2/, 'No withdraws nothing');
    await asked(p, '#c-unpair');
    await answer(p, true, { key: true });
    await p.waitForFunction(() => document.querySelector('#c-pair')?.textContent === '编排第1轮（预览）' &&
      document.querySelector('#c-unpair')?.hidden, null, { timeout: WAIT });
    assert.match(cli(ev.db, 'log'), /withdrawn/, 'the store keeps the withdrawal');
    // paired and published again; once a result is in the button is gone and the server refuses
    await publish();
    await p.waitForSelector('#c-unpair:not([hidden])', { timeout: WAIT });
    assert.equal((await call({ id: 9, op: 'result', round: 1, table: 1, result: '1-0' })).error, undefined);
    const refused = await call({ id: 10, op: 'unpair', round: 1 });
    assert.equal(refused.error.code, 'CONFLICT');
    assert.match(refused.error.msg, /round 1 .*(has begun|result recorded).*stands/, "refused with the reason");
    await p.click('#tabs a[data-view="live"]');
    await p.click('#tabs a[data-view="console"]');
    await p.waitForSelector('#console-body:not([hidden])', { timeout: WAIT });
    await p.waitForFunction(() => document.querySelector('#c-pair')?.textContent === '编排第2轮（预览）', null, { timeout: WAIT });
    await p.waitForTimeout(300);
    assert.equal(await p.isHidden('#c-unpair'), true, 'no withdrawal once a result is in');
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});

test('i35: the players\' region on the list and the add form, 序号 and 报名号 told apart, the knockout\'s players marked', async () => {
  const ev = await startEmpty(dir, 'komarks', 0, { preset: 'tangshan2018' });
  const call = opCall(ev);
  const pages = [];
  const page = async () => { const x = await freshPage(browser, 1300, 900); pages.push(x); return x; };
  try {
    // a player added on the form with his region: stored, and shown in the 地区 column
    let { p, errors } = await page();
    await openConsole(p, ev.base, ev.admin);
    await p.fill('#c-add input[name="name"]', '王浙');
    await p.fill('#c-add input[name="region"]', '浙江');
    await p.fill('#c-add input[name="rating"]', '2400');
    await p.click('#c-add button[type="submit"]');
    await p.waitForSelector('#c-players tbody tr[data-id="1"]', { timeout: WAIT });
    assert.equal(await p.textContent('#c-players tbody tr[data-id="1"] td[data-col="region"]'), '浙江');
    assert.equal((await call({ id: 1, op: 'players' })).players[0].region, '浙江', 'the store has the region');
    // before the numbers: the registration number only, named so
    assert.deepEqual(await p.$$eval('#c-players thead th', ths => ths.slice(0, 2).map(th => th.textContent)), ['报名号', '姓名']);
    assert.match(await p.getAttribute('#c-players thead th[data-col="c_id"]', 'title'), /^报名号：/);
    // the region corrected on the row's form
    await p.click('#c-players tbody tr[data-id="1"] button[data-action="edit"]');
    await p.fill('#c-players form.c-edit input[name="region"]', '上海');
    await p.click('#c-players form.c-edit button[data-action="save"]');
    await p.waitForFunction(() => document.querySelector('#c-players tbody tr[data-id="1"] td[data-col="region"]')?.textContent === '上海',
      null, { timeout: WAIT });
    assert.equal((await call({ id: 2, op: 'players' })).players[0].region, '上海');
    assert.deepEqual(errors, []);

    // five more, round 1 paired and played: the regulation's knockout (top 4 after round 9) shows its places now
    for (const [i, name] of ['乙', '丙', '丁', '戊', '己'].entries())
      assert.equal((await call({ id: 'a' + i, op: 'add_player', player: { name, rating: 2300 - 10 * i } })).error, undefined);
    const pub = await call({ id: 3, op: 'pair', publish: true });
    assert.equal(pub.published, true);
    for (const b of pub.boards.filter(b => b.black))
      assert.equal((await call({ id: 'r' + b.table, op: 'result', round: 1, table: b.table, result: '1-0' })).error, undefined);
    const standings = (await (await fetch(ev.base + '/api/standings.json')).json()).standings;
    const top4 = standings.slice(0, 4).map(r => r.id).sort();
    ({ p, errors } = await page());
    await p.goto(ev.base + '/#standings');
    await p.waitForSelector('#standings tbody tr .ko-tag', { timeout: WAIT });
    const tagged = async (sel, kind) => (await p.$$eval(`${sel} tbody tr`, (trs, k) => trs
      .filter(tr => tr.querySelector(`.ko-tag[data-ko="${k}"]`)).map(tr => +tr.dataset.id), kind)).sort();
    assert.deepEqual(await tagged('#standings', 'places'), top4, 'the top 4 of the standings hold the places');
    assert.equal(await p.textContent('#standings tbody tr.ko-in .ko-tag'), '出线区');
    assert.match(await p.textContent('#standings-ko-legend'), /^出线区：按规程第9轮后积分前4名进入淘汰赛/);
    await p.locator('#view-standings').screenshot({ path: join(ART, '35-standings-ko-places.png') });
    assert.deepEqual(errors, []);
    // the console: 序号 first, then 报名号; the same four tagged
    ({ p, errors } = await page());
    await openConsole(p, ev.base, ev.admin);
    await p.waitForSelector('#c-players tbody tr .ko-tag', { timeout: WAIT });
    assert.deepEqual(await p.$$eval('#c-players thead th', ths => ths.slice(0, 3).map(th => th.textContent)), ['序号', '报名号', '姓名']);
    assert.match(await p.getAttribute('#c-players thead th[data-col="no"]', 'title'), /^序号：/);
    assert.deepEqual(await tagged('#c-players', 'places'), top4);
    assert.match(await p.textContent('#c-players-ko-legend'), /^出线区：/);
    assert.deepEqual(errors, []);

    // the knockout started after round 1 with 4: its seeds are marked 晋级淘汰赛, before any game is published
    const ko = await call({ id: 4, op: 'ko_start', after: 1, size: 4, seeding: 'fixed', format: 'rapid-armageddon' });
    assert.equal(ko.error, undefined, JSON.stringify(ko.error));
    const seeds = ko.seeds.map(x => x.id).sort();
    ({ p, errors } = await page());
    await p.goto(ev.base + '/#standings');
    await p.waitForSelector('#standings tbody tr .ko-tag[data-ko="in"]', { timeout: WAIT });
    assert.deepEqual(await tagged('#standings', 'in'), seeds, 'the seeds of /api/knockout');
    assert.equal(await p.locator('#standings .ko-tag[data-ko="places"]').count(), 0);
    assert.equal(await p.textContent('#standings-ko-legend'), '晋级淘汰赛：进入淘汰赛的4名棋手。');
    assert.equal(await p.textContent('#standings thead th[data-col="ko"]'), '淘汰赛');
    await p.locator('#view-standings').screenshot({ path: join(ART, '35-standings-ko-in.png') });
    assert.deepEqual(errors, []);
    ({ p, errors } = await page());
    await openConsole(p, ev.base, ev.admin);
    await p.waitForSelector('#c-players tbody tr .ko-tag[data-ko="in"]', { timeout: WAIT });
    assert.deepEqual(await tagged('#c-players', 'in'), seeds);
    await p.locator('#c-players').screenshot({ path: join(ART, '35-console-players-ko.png') });
    assert.deepEqual(errors, []);
  } finally {
    for (const x of pages) await x.ctx.close();
    await stop(ev.srv);
  }
});

test('i35: a duplicate entry merged from the console: marked, both entries shown and asked, then one entry', async () => {
  const ev = await startEmpty(dir, 'merge');
  const call = opCall(ev);
  const { p, errors, ctx } = await freshPage(browser, 1300, 900);
  try {
    const players = [{ name: '张三', birth: '1990-01-02', rating: 1800 }, { name: '李四' }, { name: '张三', birth: '1990/01/02', club: '北京' }];
    for (const [i, player] of players.entries())
      assert.equal((await call({ id: 'a' + i, op: 'add_player', player, force: true })).error, undefined);
    await openConsole(p, ev.base, ev.admin);
    // the later entry points at the first; its Merge into… comes with that number
    await p.waitForSelector('#c-players tbody tr[data-id="3"] .dup[data-dup="1"]', { timeout: WAIT });
    await p.click('#c-players tbody tr[data-id="3"] button[data-action="merge"]');
    assert.equal(await p.inputValue('#c-players tr[data-id="3"] input[name="merge-into"]'), '1');
    await p.click('#c-players tr[data-id="3"] button[data-action="merge-check"]');
    assert.match(await p.textContent('#c-players tr[data-id="3"] .confirm[data-merge]'),
      /^将 张三（报名号 3，1990\/01\/02，北京） 并入 张三（报名号 1，1990\/01\/02，1800）？后者保留/);
    await p.click('#c-players tr[data-id="3"] button[data-action="yes-merge"]');
    await p.waitForFunction(() => document.querySelectorAll('#c-players tbody tr').length === 2, null, { timeout: WAIT });
    assert.match(await p.textContent('#c-result'), /已将 张三 并入 张三，取自被并入者：单位/);
    assert.deepEqual((await call({ id: 9, op: 'players' })).players.map(x => [x.name, x.club || '']), [['张三', '北京'], ['李四', '']]);
    assert.match(cli(ev.db, 'log'), /withdrawal player=3 merged into=1/);
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});
