/*
 * banners.js -- the banners (docs/web.md): toasts over the page's bottom
 * right corner that take no layout space, for a verdict that is not a
 * plain acceptance and for a result; the newest on top, six at most, each
 * for a minute or until its × (on a phone two, a line each, for 20 s).
 * The staff's views (the desk, the console) show none.
 */
import { S } from './state.js';
import { t } from './words.js';
import { $, el } from './dom.js';

/* On a phone two banners at most, one line each, for less long: the
 * boards stay in sight. */
const BANNERS_MAX = 6, BANNER_MS = 60000, PHONE_BANNERS_MAX = 2, PHONE_BANNER_MS = 20000;
const phone = () => window.matchMedia('(max-width: 600px)').matches;

/* The staff's views (the desk, the console) show no banner: their own
 * lines and tables say what happened, and nothing covers their controls. */
const staffView = () => S.view === 'arbiter' || S.view === 'console';

/* A banner of `kind` (the verdict's, or 'result') about `table`. */
export function banner(kind, table, text) {
  if (staffView()) return;
  const box = $('#banners');
  const max = phone() ? PHONE_BANNERS_MAX : BANNERS_MAX;
  const b = el('div', { class: 'banner', 'data-kind': kind, 'data-table': table, role: 'alert' },
    el('span', { class: 'text', text }),
    el('button', { class: 'close', type: 'button', 'aria-label': 'close', onclick: () => b.remove() }, '×'));
  box.prepend(b);
  while (box.children.length > max) box.lastChild.remove();
  setTimeout(() => b.remove(), phone() ? PHONE_BANNER_MS : BANNER_MS);
}

/* A verdict's banner: the adjudicator's sentence in the page's language. */
export function verdictBanner(table, v) {
  // an arbiter's result is told by the result banner that follows it
  if (!v || v.verdict === 'accepted' || v.event === 'arbiter_result') return;
  const text = t('table_n', { n: table }) + ': ' + (S.lang === 'zh' ? v.zh : v.en);
  banner(v.verdict, table, text);
}
