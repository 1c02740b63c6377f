// What the browser tests share (docs/web.md): the build's xqref, Chromium,
// an event of their own on a temporary store, a fresh page, the store read
// back by the command line.
import { spawn, execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export const BUILD = resolve(process.env.XQ_BUILD || 'build');
export const XQREF = join(BUILD, 'xqref');
export const ART = join(BUILD, 'web-artifacts');
export const CHROMIUM = process.env.XQ_CHROMIUM || '/usr/bin/chromium';
export const WAIT = 10000; // ms for anything the page should show
/* How the suites start Chromium: no sandbox (root), and no GPU process:
 * headless, it would draw every frame with its software GL. */
export const LAUNCH = { executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] };

/* A new event ("Console Cup", `rounds` Swiss rounds, no players; with
 * rounds 'rr' or 'rr2' a round robin) in DIR/NAME.db served on free
 * ports: {db, admin, base, json, srv}. With `bare` no event is made
 * first: the server starts on a missing store and makes its own
 * ("xqref tournament", rounds not set); with `preset` the event is that
  * regulation's (`tourney new --preset`); with `rules` the server judges
  * the games by those rules of play (`serve --rules`, e.g. the preset's);
  * `serve` adds options of its own (`--delay 2`). */
export async function startEmpty(dir, name, rounds = 3, { bare = false, preset = null, rules = null, serve = [] } = {}) {
  const db = join(dir, name + '.db');
  const shape = preset ? ['--preset', preset] : typeof rounds === 'string' ? ['--format', rounds] : ['--rounds', String(rounds)];
  if (!bare) execFileSync(XQREF, ['tourney', 'new', '--db', db, ...(preset ? [] : ['--name', 'Console Cup']), ...shape]);
  const srv = spawn(XQREF, ['serve', '--quiet', '--db', db, '--listen', '127.0.0.1:0', '--http', '127.0.0.1:0',
    ...(rules ? ['--rules', rules] : []), ...serve],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const info = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('no server: ' + out)), WAIT);
    srv.on('exit', code => fail(new Error('server exited with ' + code + ': ' + out)));
    srv.stdout.on('data', d => {
      out += d;
      const admin = /^admin (\w+)/m.exec(out), http = /^http (\S+)/m.exec(out), json = /^json \S+:(\d+)/m.exec(out);
      if (admin && http && json) { clearTimeout(timer); ok({ admin: admin[1], base: 'http://' + http[1], json: +json[1] }); }
    });
  });
  return Object.assign(info, { db, srv });
}

/* One operation of the admin on the event `ev` of startEmpty, by `POST
 * /api/op`: a function of the request that resolves with the reply. */
export function opCall(ev) {
  return async req => (await fetch(ev.base + '/api/op', { method: 'POST',
    headers: { 'Authorization': 'Bearer ' + ev.admin }, body: JSON.stringify(req) + '\n' })).json();
}

/* Stop a server started by startEmpty; resolves with how it ended. */
export function stop(srv) {
  if (srv.exitCode !== null) return Promise.resolve({ code: srv.exitCode, signal: null });
  srv.removeAllListeners('exit');
  const done = new Promise(ok => srv.on('exit', (code, signal) => ok({ code, signal })));
  srv.kill('SIGTERM');
  return done;
}

/* A page of its own (Chinese, width x height); page errors collected. */
export async function freshPage(browser, width, height) {
  const ctx = await browser.newContext({ locale: 'zh-CN', viewport: { width, height } });
  const p = await ctx.newPage();
  const errors = [];
  p.on('pageerror', e => errors.push(String(e)));
  p.on('console', m => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
  return { ctx, p, errors };
}

/* Sign in on the arbiter's tab with an admin token and open the
 * organiser's console. */
export async function openConsole(p, base, admin) {
  await p.goto(base + '/#arbiter');
  await p.fill('#token', admin);
  await p.click('#token-form button[type="submit"]');
  await p.waitForSelector('#role:has-text("管理员")', { timeout: WAIT });
  await p.click('#tabs a[data-view="console"]');
  await p.waitForSelector('#console-body:not([hidden])', { timeout: WAIT });
}

/* The question a click on `button` asks first (.confirm.c-ask: a round
 * published, the knockout started, its next games published): its text,
 * once Yes has the focus (the page gives it on its next turn: only then do
 * Enter and Escape answer it). */
export async function asked(p, button) {
  await p.click(button);
  await p.waitForFunction(() => document.activeElement?.matches('.confirm.c-ask button[data-action="yes"]'),
    null, { timeout: WAIT });
  return p.textContent('.confirm.c-ask span');
}

/* The open question answered `yes` or no, by its key (Enter, Escape) or
 * by a click on its button; the question awaited gone. */
export async function answer(p, yes, { key = false } = {}) {
  if (key) await p.keyboard.press(yes ? 'Enter' : 'Escape');
  else await p.click(`.confirm.c-ask button[data-action="${yes ? 'yes' : 'no'}"]`);
  await p.waitForSelector('.confirm.c-ask', { state: 'detached', timeout: WAIT });
}

/* What the store says, read by another process: `xqref tourney ARGS --db DB`. */
export function cli(db, ...args) {
  return execFileSync(XQREF, ['tourney', ...args, '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

/* CSV text into records (no quoted line breaks: the sheets have none). */
export function csv(text) {
  return text.trim().split(/\r?\n/).map(l => {
    const out = [];
    let f = '', q = false;
    for (let i = 0; i < l.length; i++) {
      const c = l[i];
      if (q) { if (c === '"' && l[i + 1] === '"') { f += '"'; i++; } else if (c === '"') q = false; else f += c; }
      else if (c === '"') q = true;
      else if (c === ',') { out.push(f); f = ''; }
      else f += c;
    }
    out.push(f);
    return out;
  });
}
