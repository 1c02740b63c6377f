// The page's modules as files (docs/web.md, "The modules"): each names its
// one job in its first comment, imports by name what it uses from another
// module of web/ that exports it, and nothing else passes between them; the
// imports from app.js reach every module and go round no loop; index.html
// loads app.js as a module and asks for every module it reaches at once;
// docs/web.md's map names each one. Read from the sources, no browser.
//
//   node --test tests/web/modules.test.mjs   (tests/web/run.sh)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const WEB = new URL('../../web/', import.meta.url);
const read = f => readFileSync(new URL(f, WEB), 'utf8');
const FILES = readdirSync(WEB).filter(f => f.endsWith('.js')).sort();
const SRC = Object.fromEntries(FILES.map(f => [f, read(f)]));

/* A module's imports: [{names, from}] of its `import { a, b } from './x.js';`
 * lines, and the import lines of any other form. */
function imports(src) {
  const named = [], other = [];
  for (const line of src.split('\n').filter(l => /^\s*import\b/.test(l))) {
    const m = /^import \{ ([\w$]+(?:, [\w$]+)*) \} from '\.\/([\w.]+\.js)';$/.exec(line);
    if (m) named.push({ names: m[1].split(', '), from: m[2] });
    else other.push(line);
  }
  return { named, other };
}

const exportsOf = src => new Set([...src.matchAll(/^export (?:async )?(?:function|const) ([\w$]+)/gm)].map(m => m[1]));

test('each module names its one job in its first comment', () => {
  assert.ok(FILES.length >= 20, `${FILES.length} modules`);
  for (const f of FILES) assert.match(SRC[f], new RegExp(`^/\\*\\n \\* ${f.replace('.', '\\.')} -- \\S`), f);
});

test('a module takes from another only what it imports by name, and that module exports it', () => {
  for (const f of FILES) {
    const { named, other } = imports(SRC[f]);
    assert.deepEqual(other, [], `${f}: imports by name from ./NAME.js only`);
    for (const { names, from } of named) {
      assert.ok(FILES.includes(from), `${f} imports ${from}, not a module of web/`);
      const exp = exportsOf(SRC[from]);
      for (const n of names) assert.ok(exp.has(n), `${f} imports ${n}, which ${from} does not export`);
    }
    // no channel through the window: a module is strict and deferred by itself
    assert.doesNotMatch(SRC[f], /\b(?:window|globalThis|self)\.[\w$]+\s*=(?!=)/, `${f} sets a property of the window`);
    assert.doesNotMatch(SRC[f], /Object\.assign\((?:window|globalThis|self)\b/, f);
    assert.doesNotMatch(SRC[f], /^'use strict'/m, `${f}: a module is strict already`);
    assert.doesNotMatch(SRC[f], /DOMContentLoaded/, `${f}: app.js starts the page`);
  }
});

test('the imports from app.js reach every module and go round no loop', () => {
  const reached = new Set();
  const visit = (f, path) => {
    assert.ok(!path.includes(f), `a loop of imports: ${[...path, f].join(' -> ')}`);
    if (reached.has(f)) return;
    for (const { from } of imports(SRC[f]).named) visit(from, [...path, f]);
    reached.add(f);
  };
  visit('app.js', []);
  assert.deepEqual([...reached].sort(), FILES, 'every module of web/ is imported (none is left unused)');
});

test('index.html loads app.js as a module and asks for every module at once', () => {
  const html = read('index.html');
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(m => m[0]);
  assert.deepEqual(scripts, ['<script type="module" src="/web/app.js">']);
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="\/web\/([\w.]+)">/g)].map(m => m[1]).sort();
  assert.deepEqual(preloaded, FILES.filter(f => f !== 'app.js'), 'a modulepreload for each module app.js imports');
});

test('docs/web.md maps every module', () => {
  const doc = readFileSync(new URL('../../docs/web.md', import.meta.url), 'utf8');
  const at = doc.indexOf('\n## The modules');
  assert.ok(at >= 0, 'docs/web.md has a section "The modules"');
  const map = doc.slice(at);
  for (const f of FILES) assert.match(map, new RegExp('`' + f.replace('.', '\\.') + '`'), `docs/web.md's map names ${f}`);
});
