// How long the live page takes to load (docs/web.md, "Load time"): each
// xqref binary given serves `serve --demo` on free ports, and headless
// Chromium opens its page under CDP network emulation (Network.
// emulateNetworkConditions: LATENCY ms added to every request, no
// bandwidth limit; HTTP/1.1, six connections per host as Chromium has
// them). A first load is a new browser context (an empty cache, new
// connections); its reload follows in the same context (the files asked
// again with If-None-Match: 304). For each load: the time until
// DOMContentLoaded (the modules or deferred scripts run), until the first
// board card is on the page, and the files of /web/ fetched. The pages
// are measured in turn, run by run, so that the machine's load falls on
// each alike. Prints a table of medians (min–max) per page and latency.
//
//   node tests/web/load.mjs [--runs N] [--latency MS,MS] LABEL=XQREF ...
//   (bench/page-load.sh builds the binaries of given commits and runs this)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.XQ_CHROMIUM || '/usr/bin/chromium';
const WAIT = 30000; // ms: a load under emulated latency on a busy machine

function parseArgs(argv) {
  const o = { runs: 7, latencies: [0, 100], pages: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs') o.runs = +argv[++i];
    else if (a === '--latency') o.latencies = argv[++i].split(',').map(Number);
    else if (/^[^=]+=.+$/.test(a)) {
      const at = a.indexOf('=');
      o.pages.push({ label: a.slice(0, at), xqref: resolve(a.slice(at + 1)) });
    } else throw new Error(`usage: load.mjs [--runs N] [--latency MS,MS] LABEL=XQREF ... (not ${a})`);
  }
  if (!o.pages.length || !(o.runs > 0) || o.latencies.some(x => !(x >= 0)))
    throw new Error('usage: load.mjs [--runs N] [--latency MS,MS] LABEL=XQREF ...');
  return o;
}

/* `XQREF serve --demo` on free ports; resolves with its page's address. */
function serve(xqref, db) {
  const srv = spawn(xqref, ['serve', '--demo', '--quiet', '--db', db, '--listen', '127.0.0.1:0', '--http', '127.0.0.1:0'],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${xqref}: no server: ${out}`)), WAIT);
    srv.on('exit', code => fail(new Error(`${xqref} exited with ${code}: ${out}`)));
    srv.stdout.on('data', d => {
      out += d;
      const http = /^http (\S+)/m.exec(out);
      if (http) { clearTimeout(timer); ok({ srv, base: 'http://' + http[1] }); }
    });
  });
}

/* One page load by `go` (a navigation) in page p: the times from the
 * navigation's start to DOMContentLoaded and to the first card, and the
 * /web/ files fetched (their paths, with 304s counted as fetches). */
async function timed(p, go) {
  const files = [];
  const onResponse = r => { const u = new URL(r.url()); if (u.pathname.startsWith('/web/')) files.push(u.pathname.slice(5)); };
  p.on('response', onResponse);
  await go();
  await p.waitForFunction(() => window.__cards > 0, null, { timeout: WAIT, polling: 50 });
  const m = await p.evaluate(() => ({
    dcl: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
    cards: window.__cards,
  }));
  await p.waitForTimeout(300); // what the page asks for once it runs (a staff module, say)
  p.off('response', onResponse);
  return Object.assign(m, { files: files.sort() });
}

/* Noted by the page itself: the moment the first card is in #boards. */
function noteCards() {
  window.__cards = 0;
  new MutationObserver((_, obs) => {
    if (document.querySelector('#boards .card')) { window.__cards = performance.now(); obs.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
}

/* A first load in a new context and its reload, at `latency` ms. */
async function loadTwice(browser, base, latency) {
  const ctx = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 800 } });
  try {
    await ctx.addInitScript(noteCards);
    const p = await ctx.newPage();
    const cdp = await ctx.newCDPSession(p);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions',
      { offline: false, latency, downloadThroughput: -1, uploadThroughput: -1 });
    const first = await timed(p, () => p.goto(base + '/', { waitUntil: 'domcontentloaded', timeout: WAIT }));
    const reload = await timed(p, () => p.reload({ waitUntil: 'domcontentloaded', timeout: WAIT }));
    return { first, reload };
  } finally {
    await ctx.close();
  }
}

const median = xs => { const s = [...xs].sort((a, b) => a - b); return s[(s.length - 1) >> 1]; };
const ms = x => Math.round(x);
const span = xs => `${ms(median(xs))} (${ms(Math.min(...xs))}–${ms(Math.max(...xs))})`;

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), 'xq-load-'));
  const servers = [];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    for (const [i, pg] of o.pages.entries()) {
      const s = await serve(pg.xqref, join(dir, `page${i}.db`));
      servers.push(s.srv);
      pg.base = s.base;
    }
    const got = new Map(); // `${label} ${latency}` -> [{first, reload}]
    for (const latency of o.latencies) {
      for (const pg of o.pages) await loadTwice(browser, pg.base, latency); // warm-up, not counted
      for (let run = 0; run < o.runs; run++) {
        for (const pg of o.pages) {
          const k = `${pg.label} ${latency}`;
          if (!got.has(k)) got.set(k, []);
          got.get(k).push(await loadTwice(browser, pg.base, latency));
        }
      }
    }
    console.log(`median (min–max) of ${o.runs} loads, ms from the navigation's start; files: those of /web/ a load fetched\n`);
    console.log('| page | added latency | first load: DOMContentLoaded | first load: boards shown | reload: DOMContentLoaded | reload: boards shown | files |');
    console.log('|---|---|---|---|---|---|---|');
    for (const latency of o.latencies) {
      for (const pg of o.pages) {
        const rs = got.get(`${pg.label} ${latency}`);
        const files = rs[0].first.files;
        console.log(`| ${pg.label} | ${latency} ms | ${span(rs.map(r => r.first.dcl))} | ${span(rs.map(r => r.first.cards))} | ` +
          `${span(rs.map(r => r.reload.dcl))} | ${span(rs.map(r => r.reload.cards))} | ${files.length} |`);
      }
    }
    console.log('');
    for (const pg of o.pages) console.log(`${pg.label}: ${got.get(`${pg.label} ${o.latencies[0]}`)[0].first.files.join(' ')}`);
  } finally {
    await browser.close();
    for (const s of servers) s.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch(e => { console.error(e.message); process.exit(1); });
