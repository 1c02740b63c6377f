/*
 * session.js -- the staff session (docs/web.md, "The arbiter's view"):
 * the token typed on the arbiter's tab, kept in sessionStorage for as long
 * as the tab lasts, its role asked from the server (admin, arbiter, board,
 * viewer); for a staff role the staff's modules, which a viewer never
 * downloads, fetched then with import() (the arbiter's desk; for an admin
 * the organiser's console too); and the page's calls into them, which do
 * nothing while they are not loaded.
 */
import { S, $, el, t, op, applyWords } from './core.js';

/* The staff's modules by role: asked for all at once when a staff session
 * begins (a modulepreload each, so that the console's imports are not
 * fetched one after the other), then run by import() of the desk and the
 * console. */
const STAFF_MODULES = {
  arbiter: ['desk.js'],
  admin: ['desk.js', 'console.js', 'console_base.js', 'console_players.js', 'console_pairing.js', 'console_print.js',
    'console_settings.js'],
};

let desk = null;         // desk.js, once loaded
let staffConsole = null; // console.js, once loaded

/* The line under the desk: `text` (and `extra` nodes), marked as an error
 * or not. */
export function showOpResult(text, error, ...extra) {
  const p = $('#op-result');
  p.replaceChildren(text, ...extra);
  p.classList.toggle('error', !!error);
}

const isStaff = () => S.role === 'admin' || S.role === 'arbiter';

/* The staff's modules of S.role, loaded (once). */
async function loadStaff() {
  const files = STAFF_MODULES[S.role];
  if (!files) return;
  for (const f of files) {
    if (!document.querySelector(`link[rel="modulepreload"][href="/web/${f}"]`))
      document.head.append(el('link', { rel: 'modulepreload', href: '/web/' + f }));
  }
  const [d, c] = await Promise.all([import('./desk.js'), S.role === 'admin' ? import('./console.js') : null]);
  desk = d;
  if (c && !staffConsole) {
    staffConsole = c;
    c.initConsole();
    applyWords($('#view-console')); // the console's words have come with it
  }
}

/* The arbiter's tab for the role: the role said, Sign out while there is
 * a token, the desk (when it is loaded) for a staff role. */
export function showDesk() {
  const shown = isStaff() && !!desk;
  $('#arbiter-body').hidden = !shown;
  $('#sign-out').hidden = !S.token;
  $('#role').textContent = S.role ? t('role', { r: t('role_' + S.role) }) : '';
  if (shown) desk.renderDesk();
}

/* The organiser's tab: the console (when it is loaded) for an admin, else
 * the note that it needs an admin token. */
export function showConsole() {
  const shown = S.role === 'admin' && !!staffConsole;
  $('#console-body').hidden = !shown;
  $('#console-note').hidden = shown;
  if (shown) staffConsole.renderConsole();
}

/* Sign in with `token` ('' signs out): S.token and S.role set, the staff's
 * modules of the role loaded, the desk (and the console on screen) drawn
 * for the role. */
export async function signIn(token) {
  S.token = token.trim();
  S.role = '';
  if (!S.token) {
    sessionStorage.removeItem('xqref.token');
    showDesk();
    showConsole();
    return;
  }
  sessionStorage.setItem('xqref.token', S.token);
  // a staff-only read tells the role: FORBIDDEN for boards and viewers
  const res = await op({ id: 'whoami', op: 'games', round: S.round || 1 });
  if (res.error && (res.error.code === 'BAD_TOKEN' || res.error.code === 'AUTH_REQUIRED')) {
    showOpResult(t('bad_token'), true);
  } else if (res.error && res.error.code === 'FORBIDDEN') {
    const m = /(board|viewer) may not/.exec(res.error.msg);
    S.role = m ? m[1] : 'viewer';
    showOpResult(t('not_staff'), true);
  } else {
    // staff: "tokens" is the admin's alone
    const adm = await op({ id: 'admin?', op: 'tokens' });
    S.role = adm.error ? 'arbiter' : 'admin';
    showOpResult('', false);
    await loadStaff();
  }
  showDesk();
  if (S.view === 'console') showConsole();
}

/* The token form: the kept token filled in, Sign in and Sign out. */
export function initSession() {
  $('#token').value = S.token;
  $('#token-form').addEventListener('submit', e => { e.preventDefault(); signIn($('#token').value); });
  $('#sign-out').addEventListener('click', () => { $('#token').value = ''; signIn(''); });
  // the organiser's tab signs in too: the same token, the same session
  $('#console-sign-in').addEventListener('submit', e => {
    e.preventDefault();
    $('#token').value = $('#console-token').value;
    signIn($('#console-token').value);
  });
}
