// The page's modules as files (docs/web.md, "The modules"): each names its
// one job in its first comment, imports by name what it uses from another
// module of web/ that exports it, and nothing else passes between them;
// the static imports go round no loop. The viewer's modules are those
// app.js reaches by static imports: index.html preloads them and nothing
// else. The staff's modules (the arbiter's desk, the organiser's console)
// are reached only by import() in session.js, which preloads each of them
// for its role; no viewer module imports one. Every module is one or the
// other, and docs/web.md's map names each. Read from the sources, no
// browser (web.test.mjs checks what a viewer's page fetches).
//
//   node --test tests/web/modules.test.mjs   (tests/web/run.sh)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const WEB = new URL('../../web/', import.meta.url);
const read = f => readFileSync(new URL(f, WEB), 'utf8');
const FILES = readdirSync(WEB).filter(f => f.endsWith('.js')).sort();
const SRC = Object.fromEntries(FILES.map(f => [f, read(f)]));

/* A module's imports: its static `import { a, b } from './x.js';`
 * statements (one line or more) as [{names, from}], its import('./x.js')
 * calls, and any import of another form. */
function imports(src) {
  const named = [], dynamic = [], other = [];
  const rest = src.replace(/^import \{([\w$,\s]+)\} from '\.\/([\w.]+\.js)';$/gm, (_, names, from) => {
    named.push({ names: names.split(',').map(n => n.trim()).filter(Boolean), from });
    return '';
  });
  // the code without its comments: its import() calls, then an import
  // statement of another form, a re-export, an import() of something else
  const code = rest.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1')
    .replace(/\bimport\s*\(\s*'\.\/([\w.]+\.js)'\s*\)/g, (_, f) => { dynamic.push(f); return ''; });
  for (const m of code.matchAll(/^\s*import\b.*$|^\s*export\b[^;]*\bfrom\b.*$|\bimport\s*\(.*$/gm)) other.push(m[0]);
  return { named, dynamic, other };
}

const exportsOf = src => new Set([...src.matchAll(/^export (?:async )?(?:function|const|let) ([\w$]+)/gm)].map(m => m[1]));

/* The modules reached from `roots` by static imports (roots included). */
function reach(roots) {
  const seen = new Set();
  const visit = f => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const { from } of imports(SRC[f]).named) visit(from);
  };
  roots.forEach(visit);
  return seen;
}

const VIEWER = reach(['app.js']);
const STAFF_ROOTS = imports(SRC['session.js']).dynamic;
const STAFF = new Set([...reach(STAFF_ROOTS)].filter(f => !VIEWER.has(f)));

test('each module names its one job in its first comment; about ten modules', () => {
  assert.ok(FILES.length >= 8 && FILES.length <= 12, `${FILES.length} modules: ${FILES.join(' ')}`);
  for (const f of FILES) assert.match(SRC[f], new RegExp(`^/\\*\\n \\* ${f.replace('.', '\\.')} -- \\S`), f);
});

test('a module takes from another only what it imports by name, and that module exports it', () => {
  for (const f of FILES) {
    const { named, other } = imports(SRC[f]);
    assert.deepEqual(other, [], `${f}: imports by name from ./NAME.js, or import('./NAME.js')`);
    for (const { names, from } of named) {
      assert.ok(FILES.includes(from), `${f} imports ${from}, not a module of web/`);
      assert.notEqual(from, f, `${f} imports itself`);
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

test('the static imports go round no loop', () => {
  const done = new Set();
  const visit = (f, path) => {
    assert.ok(!path.includes(f), `a loop of imports: ${[...path, f].join(' -> ')}`);
    if (done.has(f)) return;
    for (const { from } of imports(SRC[f]).named) visit(from, [...path, f]);
    done.add(f);
  };
  for (const f of FILES) visit(f, []);
});

test('viewer modules import no staff module: the staff\'s come by import() in session.js alone', () => {
  assert.deepEqual(STAFF_ROOTS.sort(), ['console.js', 'desk.js']);
  for (const f of FILES) {
    if (f !== 'session.js') assert.deepEqual(imports(SRC[f]).dynamic, [], `${f}: only session.js loads modules by import()`);
  }
  for (const f of VIEWER) {
    for (const { from } of imports(SRC[f]).named) assert.ok(!STAFF.has(from), `${f}, a viewer's module, imports ${from}`);
  }
  for (const f of STAFF_ROOTS) assert.ok(!VIEWER.has(f), `${f} is a staff module, not a viewer's`);
  assert.deepEqual([...VIEWER, ...STAFF].sort(), FILES, 'every module is the viewer\'s or the staff\'s (none unused)');
  for (const f of STAFF) assert.match(SRC[f].slice(0, SRC[f].indexOf('*/')), /a staff[\s*]+module/, `${f} says it is a staff module`);
  // the desk: an arbiter's; the console and its sections: an admin's too
  const byRole = {};
  const list = /const STAFF_MODULES = \{([^}]*)\};/.exec(SRC['session.js']);
  assert.ok(list, 'session.js lists the staff modules by role');
  for (const m of list[1].matchAll(/(\w+): \[([^\]]*)\]/g)) byRole[m[1]] = [...m[2].matchAll(/'([\w.]+\.js)'/g)].map(x => x[1]).sort();
  const staffOf = roots => [...reach(roots)].filter(f => !VIEWER.has(f)).sort();
  assert.deepEqual(byRole.arbiter, staffOf(['desk.js']), 'an arbiter session preloads the desk\'s modules');
  assert.deepEqual(byRole.admin, staffOf(['desk.js', 'console.js']), 'an admin session preloads the desk\'s and the console\'s');
});

test('index.html loads app.js as a module and preloads the viewer\'s modules, and no other', () => {
  const html = read('index.html');
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(m => m[0]);
  assert.deepEqual(scripts, ['<script type="module" src="/web/app.js">']);
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="\/web\/([\w.]+)">/g)].map(m => m[1]).sort();
  assert.deepEqual(preloaded, [...VIEWER].filter(f => f !== 'app.js').sort(), 'a modulepreload for each module app.js imports');
  // at most six files of web/ (the stylesheet, the modules) before the page runs: one round of Chromium's six connections
  assert.ok(VIEWER.size + 1 <= 6, `${VIEWER.size} viewer modules and style.css`);
});

test('docs/web.md maps every module', () => {
  const doc = readFileSync(new URL('../../docs/web.md', import.meta.url), 'utf8');
  const at = doc.indexOf('\n## The modules');
  assert.ok(at >= 0, 'docs/web.md has a section "The modules"');
  const map = doc.slice(at);
  for (const f of FILES) assert.match(map, new RegExp('`' + f.replace('.', '\\.') + '`'), `docs/web.md's map names ${f}`);
});
