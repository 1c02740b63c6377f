/*
 * api.js -- the server's HTTP API as the page calls it (docs/http.md): a
 * JSON read, and operations of docs/protocol.md sent to POST /api/op with
 * the signed-in token (S.token).
 */
import { S } from './state.js';

/* GET url as JSON, never from the browser's cache; throws on an HTTP error. */
export async function getJSON(url) {
  const r = await fetch(url, { cache: 'no-store' });
  if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
  return r.json();
}

/* One operation: its reply, or { error: {code, msg} } (code HTTP when the
 * answer is not the server's JSON). */
export async function op(req) {
  const r = await fetch('/api/op', {
    method: 'POST',
    headers: { 'Authorization': 'Bearer ' + S.token, 'Content-Type': 'application/json' },
    body: JSON.stringify(req) + '\n',
  });
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok) return { error: (body && body.error) || { code: 'HTTP', msg: 'HTTP ' + r.status } };
  return body;
}

/* Several operations in one POST /api/op: the replies, in order. */
export async function opLines(reqs) {
  const r = await fetch('/api/op', {
    method: 'POST',
    headers: { 'Authorization': 'Bearer ' + S.token, 'Content-Type': 'application/json' },
    body: reqs.map(q => JSON.stringify(q)).join('\n') + '\n',
  });
  const text = await r.text();
  return text.trim().split('\n').filter(Boolean).map(l => JSON.parse(l));
}
