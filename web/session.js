/*
 * session.js -- the token (docs/web.md, "The arbiter's view"): typed on the
 * arbiter's tab, kept in sessionStorage for as long as the tab lasts, its
 * role asked from the server (admin, arbiter, board, viewer); the desk
 * and the console follow the role.
 */
import { S } from './state.js';
import { t } from './words.js';
import { $ } from './dom.js';
import { op } from './api.js';
import { renderArbiter, showOpResult } from './arbiter.js';
import { renderConsole } from './console.js';

/* Sign in with `token` ('' signs out): S.token and S.role set, the desk
 * (and the console on screen) drawn for the role. */
export async function signIn(token) {
  S.token = token.trim();
  S.role = '';
  if (!S.token) {
    sessionStorage.removeItem('xqref.token');
    renderArbiter();
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
  }
  renderArbiter();
  if (S.view === 'console') renderConsole();
}

/* The token form: the kept token filled in, Sign in and Sign out. */
export function initSession() {
  $('#token').value = S.token;
  $('#token-form').addEventListener('submit', e => { e.preventDefault(); signIn($('#token').value); });
  $('#sign-out').addEventListener('click', () => { $('#token').value = ''; signIn(''); });
}
