// The events list: the workspace's events as filtered, newest first, followed live, with older pages on demand.
import { $, api, badge, el, show, when } from './dom.js';
import { failed, repeat } from './session.js';
import { eventsArrived } from './integrations.js';
import { showDetail, wireDetail } from './event-detail.js';

const POLL_MS = 2000;
const PAGE = 50;

export const list = {
  filters: new URLSearchParams(),
  events: new Map(), // event_id -> event, as last answered
  cursor: null, // next_after of the last poll
  older: null, // next_before of the last page
  detail: null, // event_id shown in the detail pane
  generation: 0, // bumped on every reload, so an answer to an older query is dropped
};
let pristine = null; // the events view as served, before any workspace's data: what sign-out puts back

function idNumber(eventId) {
  return BigInt(eventId.slice(4));
}

function readFilters() {
  const form = $('filters');
  const query = new URLSearchParams();
  for (const name of ['event_name', 'status', 'session_source', 'integration_id', 'telegram_id']) {
    const value = form.elements[name].value.trim();
    if (value) query.set(name, value);
  }
  for (const name of ['since', 'until']) {
    const value = form.elements[name].value;
    if (value) {
      const at = new Date(value);
      if (!Number.isNaN(at.getTime())) query.set(name, at.toISOString());
    }
  }
  return query;
}

export function followEvents() {
  reload();
  repeat(poll, POLL_MS);
}

async function reload() {
  const generation = ++list.generation;
  list.events.clear();
  list.cursor = null;
  list.older = null;
  $('events').tBodies[0].replaceChildren();
  show($('filter-error'), false);
  const query = new URLSearchParams(list.filters);
  query.set('limit', String(PAGE));
  let page;
  try {
    page = await api('GET', '/events?' + query);
  } catch (error) {
    if (generation === list.generation) failed(error, $('filter-error'));
    return;
  }
  if (generation !== list.generation) return;
  page.events.forEach(put);
  list.older = page.next_before;
  // Follow from where the API says: behind the newest event shown, so none written meanwhile is missed.
  list.cursor = page.next_after;
  render();
}

async function poll() {
  if (!list.cursor || document.hidden) return;
  const generation = list.generation;
  const query = new URLSearchParams(list.filters);
  query.set('after', list.cursor);
  query.set('limit', '200');
  let page;
  try {
    page = await api('GET', '/events?' + query);
  } catch (error) {
    if (generation !== list.generation) return;
    $('live').textContent = 'reconnecting…';
    failed(error);
    return;
  }
  $('live').textContent = 'live';
  if (generation !== list.generation) return;
  page.events.forEach(put);
  list.cursor = page.next_after;
  if (page.events.length) {
    render();
    eventsArrived();
    if (list.detail && page.events.some((e) => e.event_id === list.detail)) showDetail(list.detail);
  }
}

async function loadOlder() {
  if (!list.older) return;
  const generation = list.generation;
  const query = new URLSearchParams(list.filters);
  query.set('limit', String(PAGE));
  query.set('before', list.older);
  try {
    const page = await api('GET', '/events?' + query);
    if (generation !== list.generation) return;
    page.events.forEach(put);
    list.older = page.next_before;
    render();
  } catch (error) {
    failed(error, $('filter-error'));
  }
}

export function put(event) {
  list.events.set(event.event_id, event);
}

export function render() {
  const rows = [...list.events.values()].sort((a, b) => {
    const d = idNumber(b.event_id) - idNumber(a.event_id);
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  });
  const body = $('events').tBodies[0];
  body.replaceChildren(...rows.map(row));
  show($('empty'), rows.length === 0);
  show($('older'), Boolean(list.older));
}

function row(event) {
  const tr = el('tr', list.detail === event.event_id ? 'selected' : null);
  tr.dataset.eventId = event.event_id;
  tr.tabIndex = 0;
  tr.insertCell().textContent = when(event.received_at);
  const name = tr.insertCell();
  name.append(el('div', 'name', event.event_name), el('div', 'muted mono', event.event_id));
  tr.insertCell().textContent = [...new Set(event.deliveries.map((d) => d.event_name))].join(', ') || '–';
  tr.insertCell().textContent = event.value === null ? '–' : event.value + ' ' + event.currency;
  const session = tr.insertCell();
  session.append(el('div', 'mono', event.session_id || '–'), badge(event.session_source, 'source-'
    + event.session_source));
  const deliveries = el('div', 'badges');
  tr.insertCell().append(deliveries);
  for (const delivery of event.deliveries) {
    const b = badge(delivery.integration_id + ': ' + delivery.status, delivery.status);
    b.title = delivery.network + ' ' + delivery.event_name + ', ' + delivery.attempts + ' attempt(s)';
    deliveries.append(b);
  }
  tr.addEventListener('click', () => showDetail(event.event_id));
  tr.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') showDetail(event.event_id);
  });
  return tr;
}

/** The view's own controls; wired again whenever sign-out puts back a fresh copy of the view. */
function wireEvents() {
  $('filters').addEventListener('submit', (event) => {
    event.preventDefault();
    list.filters = readFilters();
    reload();
  });
  $('filters').addEventListener('reset', () => {
    list.filters = new URLSearchParams();
    setTimeout(reload); // after the form has cleared its fields
  });
  $('older').addEventListener('click', loadOlder);
  wireDetail();
}

export function setUpEvents() {
  pristine = $('events-view').cloneNode(true);
  wireEvents();
}

/** At sign-out: no answer of the workspace is kept or shown, and none asked for before is taken. */
export function forgetEvents() {
  list.generation++;
  list.events.clear();
  list.filters = new URLSearchParams();
  list.cursor = null;
  list.older = null;
  list.detail = null;
  $('events-view').replaceWith(pristine.cloneNode(true));
  wireEvents();
}
