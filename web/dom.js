/*
 * dom.js -- the page's elements: $() finds one, el() makes one with its
 * attributes, listeners and children.
 */

export const $ = (sel, root = document) => root.querySelector(sel);

/* An element <tag> with `attrs` (class, text, onEVENT listeners, any other
 * attribute; null and undefined are left out) and the children `kids`. */
export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) {
    if (k === 'class') e.className = attrs[k];
    else if (k === 'text') e.textContent = attrs[k];
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), attrs[k]);
    else if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
  }
  for (const c of kids) if (c !== null && c !== undefined) e.append(c);
  return e;
}
