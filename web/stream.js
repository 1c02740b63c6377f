/*
 * stream.js -- the event stream (/api/events, docs/http.md): one
 * EventSource for every round, its events parsed and handed to the
 * handler of their type; through an edge (docs/scale.md) a `batch` message
 * split into its events. The dot in the header is green while the stream
 * is connected and says in words when it is lost; the browser reconnects
 * by itself (resuming with Last-Event-ID), and a stream the server
 * refused is asked for again every 3 s.
 */
import { t } from './words.js';
import { $ } from './dom.js';

const RECONNECT_MS = 3000; /* a refused stream is asked for again after this */

let es = null;

/* Follow the stream: handlers[TYPE](data) for each event of TYPE (others
 * are dropped), onBack() when it is connected again after a loss. One
 * stream for every round: a new round's `pairing` event is about that
 * round, and a stream filtered to the round on screen would not see it;
 * the handlers drop the events of other rounds. */
export function connect(handlers, onBack) {
  if (es) es.close();
  const me = new EventSource('/api/events');
  es = me;
  const status = $('#status');
  const show = state => {
    status.dataset.state = state;
    status.title = t(state === 'live' ? 'connected' : 'disconnected');
    status.textContent = state === 'down' ? t('disconnected') : '';
  };
  me.onopen = () => {
    const was = status.dataset.state;
    show('live');
    if (was === 'down') onBack(); // what happened meanwhile
  };
  me.onerror = () => {
    show('down');
    // the browser tries again by itself unless the stream was refused
    if (me.readyState === EventSource.CLOSED) setTimeout(() => { if (es === me) connect(handlers, onBack); }, RECONNECT_MS);
  };
  const byType = new Map(Object.entries(handlers));
  const dispatch = (type, data) => {
    const fn = byType.get(type);
    if (!fn) return;
    let d;
    try { d = JSON.parse(data); } catch (err) { console.warn('bad event', data); return; }
    fn(d);
  };
  /* Through an edge events that came together arrive as one `batch`: a
   * line each, "TYPE DATA". */
  me.addEventListener('batch', e => {
    for (const line of e.data.split('\n')) {
      const sp = line.indexOf(' ');
      if (sp > 0) dispatch(line.slice(0, sp), line.slice(sp + 1));
    }
  });
  for (const type of byType.keys()) me.addEventListener(type, e => dispatch(type, e.data));
}
