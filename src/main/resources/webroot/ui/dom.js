// What the views share: elements whose values are set as text (textContent, never parsed as HTML), the page's
// formats, and the API asked with the signed-in workspace's key.

export const KEY_STORE = 'event-router.api-key';

export const $ = (id) => document.getElementById(id);

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/** A button that does something on the page (type button, so it never submits its form). */
export function button(className, text, onClick) {
  const node = el('button', className, text);
  node.type = 'button';
  node.addEventListener('click', onClick);
  return node;
}

export function option(value, text) {
  const node = el('option', null, text);
  node.value = value;
  return node;
}

export function badge(text, kind) {
  return el('span', 'badge ' + (kind || ''), text);
}

export function pairs(dl, entries) {
  dl.replaceChildren();
  for (const [name, value] of entries) {
    dl.append(el('dt', null, name), el('dd', value === null || value === undefined ? 'muted' : null,
      value === null || value === undefined ? '–' : value));
  }
}

export function show(node, visible) {
  node.hidden = !visible;
}

export function when(iso) {
  return iso ? new Date(iso).toLocaleString() : '–';
}

export function percent(part, whole) {
  return whole > 0 ? Math.round((100 * part) / whole) + '%' : '–';
}

// ---- the API --------------------------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    const details = (error.details || []).map((d) => d.field + ': ' + d.message).join('; ');
    super((error.message || 'HTTP ' + status) + (details ? ' (' + details + ')' : ''));
    this.status = status;
  }
}

function request(method, path, accept, key = sessionStorage.getItem(KEY_STORE)) {
  return fetch('/api/v1' + path, {
    method,
    headers: { 'x-api-key': key || '', accept },
    cache: 'no-store',
    credentials: 'omit',
  });
}

/** An answer's JSON body; null when it has none, and its status tells what went wrong. */
async function bodyOf(response) {
  try {
    return await response.json();
  } catch (unreadable) {
    return null;
  }
}

export async function api(method, path, key = sessionStorage.getItem(KEY_STORE)) {
  const response = await request(method, path, 'application/json', key);
  const body = await bodyOf(response);
  if (!response.ok || !body || body.ok !== true) {
    throw new ApiError(response.status, body);
  }
  return body.data;
}

/** A file the API answers (a report as CSV), as a Blob; an error answer throws as api's do. */
export async function apiFile(path, accept) {
  const response = await request('GET', path, accept);
  if (!response.ok) {
    throw new ApiError(response.status, await bodyOf(response));
  }
  return response.blob();
}
