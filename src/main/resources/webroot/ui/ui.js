// The event debugger: one workspace's events, live, with how each session was found and what each network was sent
// and answered. Plain DOM: every value from the API is set as text (textContent), never parsed as HTML, and the
// page's Content-Security-Policy allows only this script and its stylesheet.
'use strict';

(() => {
  const KEY_STORE = 'event-router.api-key';
  const POLL_MS = 2000;
  const STRIP_MS = 15000;
  const STRIP_AFTER_EVENTS_MS = 4000;
  const PAGE = 50;
  const REDELIVERABLE = ['failed', 'expired', 'unconfirmed'];
  const CLICK_FIELDS = ['fbclid', 'fbc', 'fbp', 'ttclid', 'ttp', 'client_ip', 'user_agent', 'landing_url', 'clicked_at'];
  const EVENT_FIELDS = ['event_id', 'event_name', 'telegram_id', 'session_id', 'session_source', 'value', 'currency',
    'status', 'conversion_status', 'transaction_id', 'received_at'];
  const POSTBACK_OUTCOME_KIND = {
    matched: 'delivered', unmatched: 'pending', duplicate: 'dry_run', macro_not_expanded: 'failed', refused: 'failed',
  };

  const $ = (id) => document.getElementById(id);
  const state = {
    filters: new URLSearchParams(),
    events: new Map(), // event_id -> event, as last answered
    cursor: null, // next_after of the last poll
    older: null, // next_before of the last page
    detail: null, // event_id shown in the detail pane
    timers: [],
    stripAt: 0, // when the strip was last asked for
    generation: 0, // bumped on every reload, so an answer to an older query is dropped
    session: 0, // bumped at sign-out, so no answer asked for before it is shown after it
  };
  let pristineView = null; // the events view as served, before any workspace's data: what sign-out puts back

  // ---- elements -------------------------------------------------------------------------------------------------

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function badge(text, kind) {
    return el('span', 'badge ' + (kind || ''), text);
  }

  function pairs(dl, entries) {
    dl.replaceChildren();
    for (const [name, value] of entries) {
      dl.append(el('dt', null, name), el('dd', value === null || value === undefined ? 'muted' : null,
        value === null || value === undefined ? '–' : value));
    }
  }

  function show(node, visible) {
    node.hidden = !visible;
  }

  function when(iso) {
    return iso ? new Date(iso).toLocaleString() : '–';
  }

  function percent(part, whole) {
    return whole > 0 ? Math.round((100 * part) / whole) + '%' : '–';
  }

  function idNumber(eventId) {
    return BigInt(eventId.slice(4));
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

  async function api(method, path, key = sessionStorage.getItem(KEY_STORE)) {
    const response = await fetch('/api/v1' + path, {
      method,
      headers: { 'x-api-key': key || '', accept: 'application/json' },
      cache: 'no-store',
      credentials: 'omit',
    });
    let body = null;
    try {
      body = await response.json();
    } catch (unreadable) {
      // reported below by status
    }
    if (!response.ok || !body || body.ok !== true) {
      throw new ApiError(response.status, body);
    }
    return body.data;
  }

  /** A failed call: a key no longer accepted signs out; anything else is shown where it happened. */
  function failed(error, where) {
    if (error.status === 401) {
      signOut('The API key is no longer accepted. Sign in again.');
      return;
    }
    if (where) {
      where.textContent = error.message;
      show(where, true);
    }
  }

  // ---- sign-in --------------------------------------------------------------------------------------------------

  async function signIn(event) {
    event.preventDefault();
    const key = $('api-key').value.trim();
    show($('sign-in-error'), false);
    try {
      await api('GET', '/integrations?window_hours=1', key);
    } catch (error) {
      $('sign-in-error').textContent = error.status === 401 ? 'That API key was not accepted.' : error.message;
      show($('sign-in-error'), true);
      return;
    }
    sessionStorage.setItem(KEY_STORE, key);
    $('api-key').value = '';
    start();
  }

  /**
   * Forgets the workspace: its key, every timer, every answer held, and every element that showed them (the events
   * view is put back as it was served), so the next workspace signed in to this tab sees nothing of the last one.
   */
  function signOut(message) {
    sessionStorage.removeItem(KEY_STORE);
    state.timers.forEach(clearInterval);
    state.timers = [];
    state.generation++;
    state.session++;
    state.events.clear();
    state.filters = new URLSearchParams();
    state.cursor = null;
    state.older = null;
    state.detail = null;
    state.stripAt = 0;
    if (pristineView) {
      $('events-view').replaceWith(pristineView.cloneNode(true));
      wireView();
    }
    show($('events-view'), false);
    show($('sign-out'), false);
    show($('sign-in-view'), true);
    $('sign-in-error').textContent = message || '';
    show($('sign-in-error'), Boolean(message));
    $('api-key').focus();
  }

  function start() {
    show($('sign-in-view'), false);
    show($('events-view'), true);
    show($('sign-out'), true);
    refreshStrip();
    reload();
    state.timers.push(setInterval(poll, POLL_MS), setInterval(refreshStrip, STRIP_MS));
  }

  // ---- the last hour and the integrations ------------------------------------------------------------------------

  async function refreshStrip() {
    state.stripAt = Date.now();
    const session = state.session;
    let summary;
    try {
      summary = await api('GET', '/integrations?window_hours=1');
    } catch (error) {
      if (session === state.session) failed(error);
      return;
    }
    if (session !== state.session) return;
    const events = summary.events;
    $('stat-accepted').textContent = String(events.accepted);
    $('stat-unattributed').textContent = percent(events.by_session_source.none, events.accepted);
    let delivered = 0;
    let sent = 0;
    const attention = $('stat-attention');
    attention.replaceChildren();
    for (const integration of summary.integrations) {
      const counts = integration.deliveries;
      delivered += counts.delivered;
      // Dry runs are not meant to be sent: they count for neither side.
      sent += Object.entries(counts).filter(([status]) => status !== 'dry_run').reduce((n, [, c]) => n + c, 0);
      if (integration.paused) {
        attention.append(el('li', 'chip bad', integration.integration_id + ': token refused'));
      }
      if (integration.breaker_open_until) {
        attention.append(el('li', 'chip warn', integration.integration_id + ': breaker open until '
          + new Date(integration.breaker_open_until).toLocaleTimeString()));
      }
    }
    $('stat-delivered').textContent = percent(delivered, sent);
    if (!attention.children.length) {
      attention.append(el('li', 'chip ok', 'none'));
    }
    integrationsTable(summary.integrations);
    refreshPostbacks();
  }

  // ---- partners' postbacks --------------------------------------------------------------------------------------

  async function refreshPostbacks() {
    const session = state.session;
    let page;
    try {
      page = await api('GET', '/postbacks');
    } catch (error) {
      if (session === state.session) failed(error);
      return;
    }
    if (session !== state.session) return;
    const body = $('postbacks').tBodies[0];
    body.replaceChildren(...page.postbacks.map(postbackRow));
    show($('no-postbacks'), !page.postbacks.length);
  }

  function postbackRow(postback) {
    const tr = el('tr');
    tr.dataset.postback = postback.postback_id;
    const outcome = el('td');
    outcome.append(badge(postback.outcome.replaceAll('_', ' '), POSTBACK_OUTCOME_KIND[postback.outcome]));
    if (postback.detail && postback.outcome !== 'refused') outcome.append(el('div', 'muted', postback.detail));
    const conversion = el('td');
    if (postback.event_id) {
      const link = el('button', 'link', postback.event_id);
      link.type = 'button';
      link.addEventListener('click', () => showDetail(postback.event_id));
      conversion.append(link);
    } else {
      conversion.append(el('span', 'muted', '–'));
    }
    const params = Object.entries(postback.params || {}).map(([k, v]) => k + '=' + v).join('&');
    tr.append(el('td', null, when(postback.received_at)), el('td', null, postback.source_id), outcome,
      el('td', null, postback.click_id || '–'), el('td', null, postback.event_name || '–'),
      el('td', null, postback.conversion_status || '–'),
      el('td', null, postback.value === null ? '–' : postback.value + ' ' + (postback.currency || '')),
      conversion, el('td', 'params', params));
    return tr;
  }

  function integrationsTable(integrations) {
    const body = $('integrations').tBodies[0];
    body.replaceChildren();
    const select = document.querySelector('#filters select[name=integration_id]');
    const ids = integrations.map((i) => i.integration_id);
    // Rebuilt only when the integrations change, so a list the user has open is left alone.
    if (select.dataset.ids !== ids.join('\n')) {
      select.dataset.ids = ids.join('\n');
      const chosen = select.value;
      const any = el('option', null, 'any');
      any.value = '';
      select.replaceChildren(any, ...ids.map((id) => {
        const option = el('option', null, id);
        option.value = id;
        return option;
      }));
      select.value = ids.includes(chosen) ? chosen : '';
    }
    for (const integration of integrations) {
      const row = body.insertRow();
      row.dataset.integration = integration.integration_id;
      row.insertCell().textContent = integration.integration_id;
      row.insertCell().textContent = integration.network;
      row.insertCell().textContent = !integration.enabled ? 'disabled' : integration.dry_run ? 'dry run' : 'live';
      const stateCell = row.insertCell();
      stateCell.append(integration.paused ? badge('token refused', 'failed')
        : integration.breaker_open_until ? badge('breaker open', 'retrying') : badge('ok', 'delivered'));
      row.insertCell().textContent = integration.test_event_code || '–';
      const action = row.insertCell();
      if (integration.test_event_code) {
        const button = el('button', 'secondary small', 'Send test event');
        button.type = 'button';
        button.addEventListener('click', () => sendTest(integration.integration_id, button));
        action.append(button);
      }
    }
  }

  async function sendTest(integrationId, button) {
    const result = $('test-result');
    button.disabled = true;
    result.className = 'result';
    result.textContent = 'Sending a test event to ' + integrationId + '…';
    show(result, true);
    const session = state.session;
    try {
      const verdict = await api('POST', '/integrations/' + encodeURIComponent(integrationId) + '/test');
      if (session !== state.session) return;
      result.className = 'result ' + (verdict.verdict === 'accepted' ? 'good' : 'bad');
      result.textContent = integrationId + ': ' + verdict.verdict + ' (test_event_code ' + verdict.test_event_code
        + ')' + (verdict.message ? ' - ' + verdict.message : '');
    } catch (error) {
      if (session !== state.session) return;
      result.className = 'result bad';
      failed(error, result);
    } finally {
      button.disabled = false;
    }
  }

  // ---- the list -------------------------------------------------------------------------------------------------

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

  async function reload() {
    const generation = ++state.generation;
    state.events.clear();
    state.cursor = null;
    state.older = null;
    $('events').tBodies[0].replaceChildren();
    show($('filter-error'), false);
    const query = new URLSearchParams(state.filters);
    query.set('limit', String(PAGE));
    let page;
    try {
      page = await api('GET', '/events?' + query);
    } catch (error) {
      if (generation === state.generation) failed(error, $('filter-error'));
      return;
    }
    if (generation !== state.generation) return;
    page.events.forEach(put);
    state.older = page.next_before;
    // Follow from where the API says: behind the newest event shown, so none written meanwhile is missed.
    state.cursor = page.next_after;
    render();
  }

  async function poll() {
    if (!state.cursor || document.hidden) return;
    const generation = state.generation;
    const query = new URLSearchParams(state.filters);
    query.set('after', state.cursor);
    query.set('limit', '200');
    let page;
    try {
      page = await api('GET', '/events?' + query);
    } catch (error) {
      if (generation !== state.generation) return;
      $('live').textContent = 'reconnecting…';
      failed(error);
      return;
    }
    $('live').textContent = 'live';
    if (generation !== state.generation) return;
    page.events.forEach(put);
    state.cursor = page.next_after;
    if (page.events.length) {
      render();
      // New events move the last hour's figures: read them again, at most every few seconds.
      if (Date.now() - state.stripAt > STRIP_AFTER_EVENTS_MS) refreshStrip();
      if (state.detail && page.events.some((e) => e.event_id === state.detail)) showDetail(state.detail);
    }
  }

  async function loadOlder() {
    if (!state.older) return;
    const generation = state.generation;
    const query = new URLSearchParams(state.filters);
    query.set('limit', String(PAGE));
    query.set('before', state.older);
    try {
      const page = await api('GET', '/events?' + query);
      if (generation !== state.generation) return;
      page.events.forEach(put);
      state.older = page.next_before;
      render();
    } catch (error) {
      failed(error, $('filter-error'));
    }
  }

  function put(event) {
    state.events.set(event.event_id, event);
  }

  function render() {
    const rows = [...state.events.values()].sort((a, b) => {
      const d = idNumber(b.event_id) - idNumber(a.event_id);
      return d > 0n ? 1 : d < 0n ? -1 : 0;
    });
    const body = $('events').tBodies[0];
    body.replaceChildren(...rows.map(row));
    show($('empty'), rows.length === 0);
    show($('older'), Boolean(state.older));
  }

  function row(event) {
    const tr = el('tr', state.detail === event.event_id ? 'selected' : null);
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

  // ---- the detail -----------------------------------------------------------------------------------------------

  async function showDetail(eventId) {
    state.detail = eventId;
    const session = state.session;
    let event;
    try {
      event = await api('GET', '/events/' + encodeURIComponent(eventId));
    } catch (error) {
      if (session === state.session) failed(error, $('detail-result'));
      return;
    }
    if (session !== state.session || state.detail !== eventId) return;
    put(summaryOf(event));
    render();
    $('detail-title').textContent = event.event_name + ' · ' + event.event_id;
    pairs($('detail-event'), EVENT_FIELDS.map((f) => [f, f === 'received_at' ? when(event[f]) : event[f]]));
    show($('detail-click'), Boolean(event.click));
    show($('detail-no-click'), !event.click);
    if (event.click) {
      pairs($('detail-click'), CLICK_FIELDS.map((f) => [f, f === 'clicked_at' ? when(event.click[f]) : event.click[f]])
        .concat(Object.entries(event.click.utm || {})));
    }
    $('detail-history').tBodies[0].replaceChildren(...(event.status_history || []).map((change) => {
      const tr = el('tr');
      const status = el('td');
      status.append(badge(change.status, change.status === 'approved' ? 'delivered'
        : change.status === 'pending' ? 'pending' : 'failed'));
      tr.append(el('td', null, change.seq), status, el('td', null, change.previous_status || '–'),
        el('td', null, change.value === null ? '–' : change.value + ' ' + (change.currency || '')),
        el('td', null, change.origin), el('td', null, change.reason || '–'), el('td', null, when(change.changed_at)));
      return tr;
    }));
    const list = $('detail-deliveries');
    list.replaceChildren(...event.deliveries.map(deliveryBlock));
    if (!event.deliveries.length) list.append(el('p', 'muted', 'No integration takes this event.'));
    show($('redeliver'), event.deliveries.some((d) => REDELIVERABLE.includes(d.status)));
    show($('detail'), true);
  }

  /** The list's view of an event the detail has just read, so the row shows the same states. */
  function summaryOf(event) {
    return {
      event_id: event.event_id, event_name: event.event_name, telegram_id: event.telegram_id,
      session_id: event.session_id, session_source: event.session_source, value: event.value,
      currency: event.currency, status: event.status, conversion_status: event.conversion_status,
      transaction_id: event.transaction_id, received_at: event.received_at,
      deliveries: event.deliveries.map((d) => ({
        integration_id: d.integration_id, network: d.network, event_name: d.event_name, status: d.status,
        attempts: d.attempts,
      })),
    };
  }

  function deliveryBlock(delivery) {
    const block = el('article', 'delivery');
    block.dataset.integration = delivery.integration_id;
    const head = el('div', 'delivery-head');
    head.append(el('strong', null, delivery.integration_id), el('span', 'muted', ' ' + delivery.network + ' → '
      + delivery.event_name + (delivery.change ? ' (change ' + delivery.change + ')' : '') + ' '),
    badge(delivery.status, delivery.status));
    const facts = el('dl', 'pairs');
    pairs(facts, [
      ['attempts', delivery.attempts],
      ['next attempt', delivery.next_attempt_at ? when(delivery.next_attempt_at) : null],
      ['delivered at', delivery.delivered_at ? when(delivery.delivered_at) : null],
      ['last error', delivery.last_error],
    ]);
    const label = delivery.status === 'dry_run' ? 'Payload it would have been sent' : 'Payload sent';
    block.append(head, facts, el('h4', null, label));
    const unsent = delivery.attempts === 0 && delivery.status !== 'dry_run';
    block.append(delivery.payload ? el('pre', 'payload', JSON.stringify(delivery.payload, null, 2))
      : el('p', 'muted', unsent ? 'Not sent yet.' : 'Not kept (the service runs with delivery.keep_payloads off).'));
    return block;
  }

  async function redeliver() {
    const eventId = state.detail;
    const result = $('detail-result');
    const session = state.session;
    try {
      const answer = await api('POST', '/events/' + encodeURIComponent(eventId) + '/redeliver');
      if (session !== state.session) return;
      result.className = 'result good';
      result.textContent = answer.requeued + ' delivery(ies) re-queued.';
      show(result, true);
      showDetail(eventId);
      // The forwarders take re-queued deliveries within moments; look again until none is pending.
      let tries = 10;
      const again = setInterval(async () => {
        if (session !== state.session || state.detail !== eventId || --tries < 0) {
          clearInterval(again);
          return;
        }
        await showDetail(eventId);
        const shown = state.events.get(eventId);
        if (shown && !shown.deliveries.some((d) => d.status === 'pending' || d.status === 'retrying')) {
          clearInterval(again);
        }
      }, 1000);
      state.timers.push(again);
    } catch (error) {
      if (session !== state.session) return;
      result.className = 'result bad';
      failed(error, result);
    }
  }

  function closeDetail() {
    state.detail = null;
    show($('detail'), false);
    show($('detail-result'), false);
    render();
  }

  // ---- wiring ---------------------------------------------------------------------------------------------------

  /** The events view's own controls; wired again whenever sign-out puts back a fresh copy of the view. */
  function wireView() {
    $('filters').addEventListener('submit', (event) => {
      event.preventDefault();
      state.filters = readFilters();
      reload();
    });
    $('filters').addEventListener('reset', () => {
      state.filters = new URLSearchParams();
      setTimeout(reload); // after the form has cleared its fields
    });
    $('older').addEventListener('click', loadOlder);
    $('redeliver').addEventListener('click', redeliver);
    $('close-detail').addEventListener('click', closeDetail);
  }

  document.addEventListener('DOMContentLoaded', () => {
    pristineView = $('events-view').cloneNode(true);
    $('sign-in').addEventListener('submit', signIn);
    $('sign-out').addEventListener('click', () => signOut());
    wireView();
    if (sessionStorage.getItem(KEY_STORE)) {
      start();
    } else {
      signOut();
    }
  });
})();
