/*
 * csv.js -- a list of players as a spreadsheet saves it (docs/web.md):
 * UTF-8 with or without its BOM, or GBK as Chinese Excel writes it; a
 * first line of headings in Chinese or English; each line read into an
 * add_player `player` or an error (no name, a sex that is neither, a date
 * that does not exist, a rating with a decimal, a full-width comma, a
 * player repeated in the file or registered already).
 */
import { S } from './state.js';
import { t } from './words.js';

/* The text of a saved file: UTF-8 with or without its BOM, else GBK (as
 * Chinese Excel saves "CSV"). */
export function decodeCsv(bytes) {
  const b = new Uint8Array(bytes);
  if (b[0] === 0xEF && b[1] === 0xBB && b[2] === 0xBF) return { text: new TextDecoder('utf-8').decode(b.subarray(3)), encoding: 'UTF-8 (BOM)' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(b), encoding: 'UTF-8' };
  } catch (e) {
    return { text: new TextDecoder('gbk').decode(b), encoding: 'GBK' };
  }
}

/* Records of CSV text: fields split on commas, "quoted" fields with ""
 * for a quote and line breaks inside; CRLF or LF. */
function csvRecords(text) {
  const out = [];
  let rec = [], f = '', q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') { f += '"'; i++; } else if (c === '"') q = false; else f += c;
    } else if (c === '"') q = true;
    else if (c === ',') { rec.push(f); f = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      rec.push(f); out.push(rec); rec = []; f = '';
    } else f += c;
  }
  if (f !== '' || rec.length) { rec.push(f); out.push(rec); }
  return out.filter(r => r.some(x => x.trim() !== ''));
}

/* A heading's field of add_player, in Chinese or English. */
const HEADINGS = {
  name: ['姓名', '名字', 'name'], sex: ['性别', 'sex', 'gender'], birth: ['出生日期', '出生', '生日', 'birth', 'born', 'birth date'],
  region: ['地区', '省市', 'region'], club: ['单位', '俱乐部', 'club'], team: ['队', '队伍', '代表队', 'team'],
  rating: ['等级分', '等级', 'rating', 'elo'], no: ['序号', '编号', 'no', 'no.', 'number'],
};

function fieldOf(heading) {
  const h = heading.trim().toLowerCase();
  for (const [k, names] of Object.entries(HEADINGS)) if (names.includes(h)) return k;
  return null;
}

/* One data line (its fields, under the headings' fields `cols`) into an
 * add_player `player`, or an error. */
export function playerOf(fields, cols) {
  const p = {};
  cols.forEach((k, i) => { if (k && fields[i] !== undefined && fields[i].trim() !== '') p[k] = fields[i].trim(); });
  if (fields.some(f => f.includes('，'))) return { error: t('c_wide_comma') };
  if (!p.name) return { error: t('c_need_name') };
  if (p.sex) {
    const s = { '男': 'm', '女': 'w', m: 'm', w: 'w', f: 'w', male: 'm', female: 'w' }[p.sex.toLowerCase()];
    if (!s) return { error: t('c_bad_sex') };
    p.sex = s;
  }
  if (p.birth) {
    const m = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?$/.exec(p.birth);
    const day = m && new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
    if (!m || day.getUTCMonth() !== +m[2] - 1 || day.getUTCDate() !== +m[3]) return { error: t('c_bad_birth') }; // no 13th month, no 30 February
    p.birth = `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}`;
  }
  if (p.rating !== undefined) {
    if (!/^\d{1,4}$/.test(p.rating)) return { error: t('c_bad_rating') };
    p.rating = +p.rating;
  }
  delete p.no; // the file's own numbering: shown, not stored
  return { player: p };
}

/* The identity of a player for duplicates: the name, and the birth date
 * when there is one. */
const dupKey = p => `${p.name}|${p.birth || ''}`;

/* Lines that repeat an earlier line or a registered player become errors. */
function markDuplicates(lines, registered) {
  const seen = new Map(), stored = new Map((registered || []).map(p => [dupKey(p), p]));
  const birthText = p => p.birth ? (S.lang === 'zh' ? '、出生日期' : ', same birth date') : '';
  for (const l of lines) {
    if (!l.player) continue;
    const k = dupKey(l.player), first = seen.get(k), old = stored.get(k);
    if (first) l.error = t('c_dup_file', { n: first.line, b: birthText(l.player) });
    else if (old) l.error = t('c_dup_stored', { p: `${old.no || old.id}. ${old.name}` });
    if (l.error) delete l.player;
    else seen.set(k, l);
  }
  return lines;
}

/* The preview of a file: a line each, its player or its error (one that
 * repeats a player of `registered` too). */
export function previewCsv(text, registered) {
  const recs = csvRecords(text);
  if (!recs.length) return { error: t('c_no_header'), lines: [] };
  const cols = recs[0].map(fieldOf);
  if (!cols.includes('name')) return { error: t('c_no_header'), lines: [] };
  const lines = recs.slice(1).map((f, i) => {
    const l = Object.assign({ line: i + 2, fields: f }, playerOf(f, cols));
    const at = cols.indexOf('no');
    if (at >= 0 && f[at] && f[at].trim()) l.fileNo = f[at].trim();
    return l;
  });
  return { lines: markDuplicates(lines, registered), fileNumbers: cols.includes('no') };
}
