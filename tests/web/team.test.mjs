// A team event run from the console (docs/web.md, 团体赛; issue 36): the
// event made a team round robin of 2 boards, four teams added, round 1
// paired, a lineup the board-order rule refuses said with its reason, a
// lineup entered, the round published, its games' results in, and each
// match's running score on the page: the console's, and the live view's
// match headers over their boards following each result as it arrives,
// the pairings by match, the team standings, the desk naming each game's
// match; the print view of round 1's match sheet (团体对阵表); a team
// withdrawn from the console (team_withdraw); the store,
// read by another process (`xqref tourney standings`), agrees.
//
//   XQ_BUILD=build node --test tests/web/team.test.mjs   (tests/web/run.sh)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { XQREF, ART, LAUNCH, WAIT, startEmpty, stop, freshPage, openConsole, opCall, cli } from './lib.mjs';

let browser, dir;

before(async () => {
  assert.ok(existsSync(XQREF), `${XQREF} is built`);
  dir = mkdtempSync(join(tmpdir(), 'xqref-team-'));
  mkdirSync(ART, { recursive: true });
  browser = await chromium.launch(LAUNCH);
});

after(async () => {
  if (browser) await browser.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a team round robin from the console: teams, lineups, the round, the match scores', async () => {
  const ev = await startEmpty(dir, 'team', 3);
  const call = opCall(ev);
  const { ctx, p, errors } = await freshPage(browser, 1280, 900);
  try {
    // eight players, two of each team (numbers 1-8: A 1 2, B 3 4, ...)
    for (let i = 0; i < 8; i++) {
      const r = await call({ id: i, op: 'add_player', player: { name: `队员${i + 1}`, team: 'ABCD'[i >> 1] } });
      assert.ok(r.ok, JSON.stringify(r));
    }
    await openConsole(p, ev.base, ev.admin);
    await p.click('#c-nav button[data-to="c-sec-team"]');
    await p.selectOption('#tm-new select[name="format"]', 'team-rr');
    await p.fill('#tm-new input[name="boards"]', '2');
    await p.click('#tm-new button[type="submit"]');
    await p.waitForSelector('#tm-summary', { timeout: WAIT });
    for (const name of 'ABCD') {
      await p.fill('#tm-add input[name="name"]', name);
      await p.click('#tm-add button[type="submit"]');
      await p.waitForSelector(`#tm-teams tr:has-text("${name}")`, { timeout: WAIT });
    }
    assert.match(await p.textContent('#tm-teams tr[data-team="1"]'), /1 队员1、2 队员2/);
    assert.equal(await p.isHidden('#c-pair'), true, 'the Swiss button is not for a team event');

    // round 1 (the teams' numbers drawn by lot), the lineups while it is not published
    await p.click('#tm-pair');
    await p.waitForSelector('.tm-round[data-round="1"] .tm-lineup', { timeout: WAIT });
    const form = '.tm-round[data-round="1"] .tm-lineup[data-team="1"]';
    await p.fill(`${form} input`, '2,1');
    await p.click(`${form} button`);
    await p.waitForSelector('#c-result.error:has-text("fixed board order")', { timeout: WAIT });
    await p.fill(`${form} input`, '1,2');
    await p.click(`${form} button`);
    await p.waitForSelector('#c-result:not(.error):has-text("A")', { timeout: WAIT });
    await p.click('#tm-publish');
    await p.waitForSelector('.tm-match[data-match="1"] td:has-text("桌号 1")', { timeout: WAIT });
    assert.equal(await p.isHidden('.tm-lineup'), true, 'no lineup once published');

    // the games' results: match 1 won 1½–½ by its first team (board 1 Red
    // wins, board 2 drawn), match 2 lost 0–2 (board 1 Red, the first team,
    // loses; board 2 Red, the second team, wins)
    const teams = await call({ id: 9, op: 'teams' });
    const [m1, m2] = teams.matches[0];
    const results = [[m1.boards[0].table, '1-0'], [m1.boards[1].table, '='], [m2.boards[0].table, '0-1'],
      [m2.boards[1].table, '1-0']];
    // the live view: each match's header over its boards, its score following each result as it arrives
    await p.click('#tabs a[data-view="live"]');
    const head = k => `#boards .match-head[data-match="${k}"] .match-score`;
    await p.waitForSelector(`${head(2)}:has-text("${m2.first.name} 0–0 ${m2.second.name}")`, { timeout: WAIT });
    assert.equal(await p.getAttribute(`${head(1)} >> xpath=../following-sibling::*[1]`, 'data-table'),
      String(m1.boards[0].table), 'the match\'s first board under its header');
    for (const [table, result] of results) {
      const r = await call({ id: 10 + table, op: 'result', round: 1, table, result });
      assert.ok(r.ok, JSON.stringify(r));
      if (table === m1.boards[0].table)
        await p.waitForSelector(`${head(1)}:has-text("${m1.first.name} 1–0 ${m1.second.name}")`, { timeout: WAIT });
    }
    await p.waitForSelector(`${head(2)}:has-text("${m2.first.name} 0–2 ${m2.second.name}")`, { timeout: WAIT });
    assert.match(await p.textContent(head(1)), new RegExp(`${m1.first.name}\\s+1½–½\\s+${m1.second.name}`));
    await p.screenshot({ path: join(ART, 'team-live.png'), fullPage: true });
    // the pairings: the matches with their boards; the standings: the teams' 场分 and 局分; the desk: each game's match
    await p.click('#tabs a[data-view="pairings"]');
    await p.waitForSelector(`#pairings tr.match-row[data-match="1"]:has-text("${m1.first.name} 1½–½ ${m1.second.name}")`,
      { timeout: WAIT });
    assert.equal(await p.locator('#pairings tbody tr').count(), 6, 'two match rows, four boards');
    await p.click('#tabs a[data-view="standings"]');
    await p.waitForSelector('#team-table tbody tr', { timeout: WAIT });
    const top = await p.locator('#team-table tbody tr').first().textContent();
    assert.ok(top.includes(m1.first.name) || top.includes(m2.second.name), top);
    assert.equal(await p.textContent('#team-table tbody tr:first-child td[data-tb="MP"]'), '2');
    await p.click('#tabs a[data-view="arbiter"]');
    await p.waitForSelector(`#arbiter-games tr[data-table="${m2.boards[0].table}"] .match-tag:has-text("${m2.first.name} 0–2")`,
      { timeout: WAIT });
    // the console drawn again (from the desk's tab): the scores follow the games
    await p.click('#tabs a[data-view="console"]');
    await p.waitForFunction(() => /0–2/.test(document.querySelector('.tm-match[data-match="2"] h4')?.textContent || ''),
      null, { timeout: WAIT });
    assert.match(await p.textContent('.tm-match[data-match="1"] h4'), new RegExp(`${m1.first.name}\\s+1½–½\\s+${m1.second.name}`));
    assert.match(await p.textContent('.tm-match[data-match="2"] h4'), new RegExp(`${m2.first.name}\\s+0–2\\s+${m2.second.name}`));
    await p.screenshot({ path: join(ART, 'team-console.png'), fullPage: true });

    // 打印: the match sheet (团体对阵表) of round 1 as the server prints it, each match with its boards
    await p.selectOption('#p-what', 'matches');
    await p.selectOption('#p-round', '1');
    await p.click('#p-view');
    const frame = await (await p.waitForSelector('#p-frame[data-what="matches"]', { timeout: WAIT })).contentFrame();
    await frame.waitForSelector('h2', { timeout: WAIT });
    const sheet = await frame.textContent('body');
    assert.ok(sheet.includes(`第1场 ${m1.first.name} – ${m1.second.name}`) && sheet.includes(m1.boards[0].first.name), sheet);
    assert.match(sheet, /局分 0:4 场分 0:2/);


    // the store, read by another process, says the same: the two winners lead
    const table = cli(ev.db, 'standings').split('\n').filter(l => /^\s*\d/.test(l)).slice(0, 2).join('\n');
    assert.ok(table.includes(m1.first.name) && table.includes(m2.second.name), table);

    // a team withdrawn from the console (asked first): from round 2, the next to pair
    await p.click('#tm-teams tr[data-team="4"] button[data-action="withdraw"]');
    await p.click('.confirm.c-ask button[data-action="yes"]');
    await p.waitForSelector('#tm-teams tr[data-team="4"]:has-text("第2轮起退赛")', { timeout: WAIT });
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await stop(ev.srv);
  }
});
