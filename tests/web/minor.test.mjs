// The minor items of issue 35 (docs/web.md): each a small thing an
// organiser or a viewer met on the page, each with its test here.
//
//   XQ_BUILD=build node --test tests/web/minor.test.mjs   (tests/web/run.sh)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { XQREF, ART, LAUNCH, WAIT, startEmpty, stop, freshPage, openConsole, opCall } from './lib.mjs';

let browser, dir;

before(async () => {
  assert.ok(existsSync(XQREF), `${XQREF} is built`);
  dir = mkdtempSync(join(tmpdir(), 'xqref-minor-'));
  mkdirSync(ART, { recursive: true });
  browser = await chromium.launch(LAUNCH);
});

after(async () => {
  if (browser) await browser.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/* A console of its own on a new event: {ev, ctx, p, errors}. */
async function console_(name, rounds = 3) {
  const ev = await startEmpty(dir, name, rounds);
  const { ctx, p, errors } = await freshPage(browser, 1400, 900);
  await openConsole(p, ev.base, ev.admin);
  return { ev, ctx, p, errors };
}

async function done({ ev, ctx }) {
  await ctx.close();
  await stop(ev.srv);
}

test('i35 minor: the CSV preview shows no "null"; 1990-13-45 is "no such date", not a format error', async () => {
  const c = await console_('dates');
  const { p, ev } = c;
  try {
    const rows = ['姓名,性别,出生日期,地区,单位,队,等级分', '甲,男,,,,,', '乙,女,1990-13-45,,北京,,2500', '丙,,1990/1/2,,,,',
      '丁,男,1990-1,,,,'];
    await p.setInputFiles('#c-file', { name: 'p.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n') + '\n') });
    await p.waitForSelector('#c-preview tr[data-line="5"]', { timeout: WAIT });
    const text = await p.textContent('#c-preview');
    assert.doesNotMatch(text, /null|undefined/, 'no empty field shows as "null"');
    assert.match(await p.textContent('#c-preview tr[data-line="3"] td.error'), /没有这一天：1990-13-45/);
    assert.match(await p.textContent('#c-preview tr[data-line="5"] td.error'), /出生日期须为/);
    // the add form says the same
    await p.fill('#c-add input[name="name"]', '戊');
    await p.fill('#c-add input[name="birth"]', '1987-02-30');
    await p.click('#c-add button[type="submit"]');
    await p.waitForFunction(() => /没有这一天：1987-02-30/.test(document.body.textContent), null, { timeout: WAIT });
    // and the server, for a client that skips the page's check
    const res = await opCall(ev)({ id: 'a', op: 'add_player', player: { name: '己', birth: '1990-13-45' } });
    assert.match(res.error.msg, /^birth date 1990-13-45 does not exist/);
    const bad = await opCall(ev)({ id: 'b', op: 'add_player', player: { name: '庚', birth: 'soon' } });
    assert.match(bad.error.msg, /must be written YYYY\/MM\/DD/);
    assert.deepEqual(c.errors, []);
  } finally { await done(c); }
});

test('i35 minor: a console message is said under the form acted on, and goes at the next action', async () => {
  const c = await console_('messages');
  const { p } = c;
  try {
    await p.fill('#c-add input[name="name"]', '甲');
    await p.click('#c-add button[type="submit"]');
    await p.waitForFunction(() => /甲/.test(document.querySelector('#c-result').textContent), null, { timeout: WAIT });
    assert.equal(await p.evaluate(() => document.querySelector('#c-add').nextElementSibling.id), 'c-result',
      'the answer is under the add form, not at the bottom of the console');
    await p.fill('#c-add input[name="name"]', '乙');
    await p.fill('#c-add input[name="rating"]', '12.5');
    await p.click('#c-add button[type="submit"]');
    await p.waitForFunction(() => document.querySelector('#c-result').classList.contains('error'), null, { timeout: WAIT });
    assert.doesNotMatch(await p.textContent('#c-result'), /甲/);
    // the next action elsewhere clears it
    await opCall(c.ev)({ id: 'b', op: 'add_player', player: { name: '丙' } });
    await p.click('#c-pair');
    await p.waitForSelector('#c-pairing table', { timeout: WAIT });
    assert.equal(await p.textContent('#c-result'), '', 'no answer stays from an earlier action');
    assert.deepEqual(c.errors, []);
  } finally { await done(c); }
});

test('i35 minor: the print section\'s round follows the round on screen and a round newly published', async () => {
  const c = await console_('print', 3);
  const { p, ev } = c;
  const call = opCall(ev);
  try {
    for (const [i, name] of ['甲', '乙', '丙', '丁'].entries())
      assert.equal((await call({ id: i, op: 'add_player', player: { name, rating: 2400 - i } })).error, undefined);
    assert.equal((await call({ id: 5, op: 'pair', publish: true })).published, true);
    await p.waitForFunction(() => document.querySelector('#p-round').value === '1', null, { timeout: WAIT });
    for (const table of [1, 2]) assert.equal((await call({ id: 't' + table, op: 'result', round: 1, table, result: '1-0' })).error, undefined);
    assert.equal((await call({ id: 6, op: 'pair', publish: true })).published, true);
    await p.waitForFunction(() => [...document.querySelectorAll('#p-round option')].length === 2, null, { timeout: WAIT });
    await p.waitForFunction(() => document.querySelector('#p-round').value === '2', null, { timeout: WAIT });
    // the round on screen chosen again: the print section follows it
    await p.selectOption('#round', '1');
    await p.waitForFunction(() => document.querySelector('#p-round').value === '1', null, { timeout: WAIT });
    assert.deepEqual(c.errors, []);
  } finally { await done(c); }
});

test('i35 minor: the organiser\'s tab signs in itself and says that results are entered at the desk', async () => {
  const ev = await startEmpty(dir, 'signin', 3);
  const { ctx, p, errors } = await freshPage(browser, 1000, 800);
  try {
    await p.goto(ev.base + '/#console');
    await p.waitForSelector('#console-note:not([hidden])', { timeout: WAIT });
    assert.match(await p.textContent('#console-note'), /裁判台/, 'the note says where results are entered');
    await p.fill('#console-token', ev.admin);
    await p.click('#console-sign-in button[type="submit"]');
    await p.waitForSelector('#console-body:not([hidden])', { timeout: WAIT });
    assert.ok(await p.isHidden('#console-note'));
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});

test('i35 minor: correcting a past round names the round and says the later rounds were paired on the old result', async () => {
  const c = await console_('correct', 3);
  const { p, ev } = c;
  const call = opCall(ev);
  try {
    for (const [i, name] of ['甲', '乙', '丙', '丁'].entries())
      assert.equal((await call({ id: i, op: 'add_player', player: { name, rating: 2400 - i } })).error, undefined);
    for (const r of [1, 2]) {
      assert.equal((await call({ id: 'p' + r, op: 'pair', publish: true })).published, true);
      for (const table of [1, 2]) assert.equal((await call({ id: 't' + table, op: 'result', round: r, table, result: '1-0' })).error, undefined);
    }
    // the page has seen round 2 published (it moves to the newest round) before round 1 is chosen
    await p.waitForFunction(() => document.querySelector('#round').value === '2', null, { timeout: WAIT });
    await p.selectOption('#round', '1');
    await p.click('#tabs a[data-view="arbiter"]');
    await p.waitForFunction(() => document.querySelector('#round').value === '1', null, { timeout: WAIT });
    await p.click('#arbiter-games tr[data-table="1"] button[data-action="a_01"]');
    const ask = p.locator('#arbiter-games tr[data-table="1"] .confirm');
    await ask.waitFor({ timeout: WAIT });
    const text = await ask.textContent();
    assert.match(text, /第1轮第1台已有结果/, 'the question names the round');
    assert.match(text, /第2轮的编排是按原结果排出的/, 'and says the later round was paired on the old result');
    assert.deepEqual(c.errors, []);
  } finally { await done(c); }
});

test('i35 minor: every control has a name in the page\'s language; the tab shown is aria-current', async () => {
  const c = await console_('names');
  const { p } = c;
  try {
    // the add form, the file input, the filter: named, not by a placeholder alone
    const named = await p.$$eval('#c-add input, #c-add select, #c-file, #filter, #c-amend select, #c-amend input',
      es => es.map(e => [e.name || e.id, e.getAttribute('aria-label') || (e.closest('label') ? e.closest('label').textContent.trim() : '')]));
    for (const [what, name] of named) assert.ok(name, `${what} has a name`);
    assert.equal(named.find(([w]) => w === 'sex')[1], '性别');
    assert.equal(named.find(([w]) => w === 'c-file')[1], '导入名单（CSV）');
    // the viewer's buttons say what they do, not "|◀ ◀ ▶ ▶|"
    assert.deepEqual(await p.$$eval('.viewer .nav button:not(#nav-new)', bs => bs.map(b => b.getAttribute('aria-label'))),
      ['回到开局', '上一步', '下一步', '最新一步']);
    // the tab shown, and only it, is the current page
    assert.deepEqual(await p.$$eval('#tabs a[aria-current="page"]', as => as.map(a => a.dataset.view)), ['console']);
    await p.click('#tabs a[data-view="standings"]');
    await p.waitForFunction(() => document.querySelector('#tabs a[aria-current="page"]')?.dataset.view === 'standings', null, { timeout: WAIT });
    assert.equal(await p.locator('#tabs a[aria-current]').count(), 1);
    // in English, the names are English
    await p.click('#lang');
    await p.waitForFunction(() => document.querySelector('#nav-last').getAttribute('aria-label') === 'To the last move', null, { timeout: WAIT });
    assert.equal(await p.getAttribute('#c-add select[name="sex"]', 'aria-label'), 'Sex');
    assert.deepEqual(c.errors, []);
  } finally { await done(c); }
});

test('i35 minor: on a phone the standings keep rank, number and name in sight when scrolled sideways', async () => {
  const ev = await startEmpty(dir, 'sticky', 3);
  const call = opCall(ev);
  const { ctx, p, errors } = await freshPage(browser, 340, 700);
  try {
    for (const [i, name] of ['欧阳长名一', '欧阳长名二', '欧阳长名三', '欧阳长名四'].entries())
      assert.equal((await call({ id: i, op: 'add_player', player: { name, rating: 2400 - i, club: '一个很长很长的单位名称' + i } })).error, undefined);
    assert.equal((await call({ id: 5, op: 'pair', publish: true })).published, true);
    for (const table of [1, 2]) assert.equal((await call({ id: 't' + table, op: 'result', round: 1, table, result: '1-0' })).error, undefined);
    await p.goto(ev.base + '/#standings');
    await p.waitForSelector('#standings tbody tr', { timeout: WAIT });
    const seen = () => p.evaluate(() => {
      const box = document.querySelector('#view-standings .scroll').getBoundingClientRect();
      const row = document.querySelector('#standings tbody tr');
      return ['rank', 'no', 'name'].map(k => {
        const r = row.querySelector(`td[data-col="${k}"]`).getBoundingClientRect();
        return r.left >= box.left - 1 && r.right <= box.right + 1;
      });
    });
    assert.deepEqual(await seen(), [true, true, true]);
    const moved = await p.evaluate(() => { const s = document.querySelector('#view-standings .scroll'); s.scrollLeft = 10000; return s.scrollLeft; });
    assert.ok(moved > 0, 'the table is wider than the phone');
    assert.deepEqual(await seen(), [true, true, true], 'rank, number and name still in sight');
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});

test('i35 minor: players level on points show what split them (the lot too) and the order of the tie-breaks', async () => {
  const ev = await startEmpty(dir, 'ties', 3);
  const call = opCall(ev);
  const { ctx, p, errors } = await freshPage(browser, 1200, 800);
  try {
    for (const [i, name] of ['甲', '乙', '丙', '丁'].entries())
      assert.equal((await call({ id: i, op: 'add_player', player: { name } })).error, undefined);
    assert.equal((await call({ id: 5, op: 'pair', publish: true })).published, true);
    for (const table of [1, 2]) assert.equal((await call({ id: 't' + table, op: 'result', round: 1, table, result: '=' })).error, undefined);
    const st = await (await fetch(ev.base + '/api/standings.json')).json();
    await p.goto(ev.base + '/#standings');
    await p.waitForSelector('#standings tbody td[data-col="tie"]', { timeout: WAIT });
    const split = await p.$$eval('#standings tbody tr', trs => trs.map(tr => tr.querySelector('td[data-col="tie"]').dataset.split || ''));
    assert.equal(split[0], '', 'the first has nobody above');
    // each of the others: the first tie-break after the points where the two rows differ
    for (let i = 1; i < 4; i++) {
      const [a, b] = [st.standings[i - 1].tb, st.standings[i].tb];
      assert.equal(split[i], st.tiebreaks.slice(1).find(c => c in a && c in b && a[c] !== b[c]));
    }
    const lot = split.indexOf('LOT');
    if (lot >= 0) assert.match(await p.textContent(`#standings tbody tr:nth-child(${lot + 1}) td[data-col="tie"]`), /^抽签 \(\d+\)$/);
    const note = await p.textContent('#standings-ties');
    assert.match(note, /同分时依次比较：积分 → .*抽签/);
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});

test('i35 minor: a card shows its clocks before the first reading; a viewer stepped back is told of the new moves', async () => {
  const ev = await startEmpty(dir, 'viewer', 3);
  const call = opCall(ev);
  const { ctx, p, errors } = await freshPage(browser, 1200, 900);
  try {
    for (const [i, name] of ['甲', '乙'].entries())
      assert.equal((await call({ id: i, op: 'add_player', player: { name } })).error, undefined);
    assert.equal((await call({ id: 5, op: 'pair', publish: true })).published, true);
    const board = (await call({ id: 6, op: 'token', role: 'board', round: 1, table: 1 })).token;
    let seq = 0;
    const move = async (mv, clock) => {
      const r = await (await fetch(ev.base + '/api/op', { method: 'POST', headers: { 'Authorization': 'Bearer ' + board },
        body: JSON.stringify({ id: ++seq, seq, op: 'move', move: mv, ...(clock ? { clock } : {}) }) + '\n' })).json();
      assert.equal(r.error, undefined, JSON.stringify(r));
    };
    await p.goto(ev.base + '/#live');
    await p.waitForSelector('#boards .card[data-table="1"]', { timeout: WAIT });
    await move('h2e2');
    assert.deepEqual(await p.$$eval('#boards .card[data-table="1"] .clock', cs => cs.map(c => c.textContent)), ['–:––', '–:––'],
      'the clocks are there before their first reading');
    await move('h9g7', [1490000, 1480000]);
    await p.goto(ev.base + '/#game/1/1');
    await p.waitForSelector('#g-moves button[data-ply="2"]', { timeout: WAIT });
    assert.ok(await p.isHidden('#nav-new'));
    await p.click('#nav-first');
    assert.match(await p.textContent('#g-clock-note'), /不是该步时/, 'the clocks shown are said to be the game\'s now');
    for (const mv of ['b0c2', 'i9h9', 'a0a1']) await move(mv);
    // the cue counts the moves as they come: wait for the third
    await p.waitForFunction(() => /有 3 步新着/.test(document.querySelector('#nav-new').textContent) &&
      !document.querySelector('#nav-new').hidden, null, { timeout: WAIT });
    assert.equal(await p.textContent('#nav-ply'), '开局', 'the viewer stays where it was');
    await p.click('#nav-new');
    await p.waitForFunction(() => document.querySelector('#nav-new').hidden, null, { timeout: WAIT });
    assert.equal(await p.textContent('#nav-ply'), '第5步');
    assert.equal(await p.textContent('#g-clock-note'), '');
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});
