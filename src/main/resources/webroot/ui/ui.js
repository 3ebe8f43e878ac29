// The event debugger: one workspace's events, live, with how each session was found and what each network was sent
// and answered; and its funnel report as a table, a chart and a CSV file. Plain DOM: every value from the API is set
// as text (textContent), never parsed as HTML, the chart is SVG drawn here, and the page's Content-Security-Policy
// allows only this script and its stylesheet.
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
  let pristineFunnel = null; // the funnel view as served, put back likewise

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

  function request(method, path, accept, key = sessionStorage.getItem(KEY_STORE)) {
    return fetch('/api/v1' + path, {
      method,
      headers: { 'x-api-key': key || '', accept },
      cache: 'no-store',
      credentials: 'omit',
    });
  }

  async function api(method, path, key = sessionStorage.getItem(KEY_STORE)) {
    const response = await request(method, path, 'application/json', key);
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
    forgetFunnel();
    show($('events-view'), false);
    show($('funnel-view'), false);
    show($('views'), false);
    show($('sign-out'), false);
    show($('sign-in-view'), true);
    $('sign-in-error').textContent = message || '';
    show($('sign-in-error'), Boolean(message));
    $('api-key').focus();
  }

  function start() {
    show($('sign-in-view'), false);
    show($('views'), true);
    showView(location.hash === '#funnel' ? 'funnel' : 'events');
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
    const params = el('td', 'params', Object.entries(postback.params || {}).map(([k, v]) => k + '=' + v).join('&'));
    // What the partner's system did to the URL and was undone (a second '?', HTML escaping): the buyer fixes it there.
    for (const repair of postback.repairs || []) params.append(el('div', 'muted repair', 'repaired: ' + repair));
    tr.append(el('td', null, when(postback.received_at)), el('td', null, postback.source_id), outcome,
      el('td', null, postback.click_id || '–'), el('td', null, postback.event_name || '–'),
      el('td', null, postback.conversion_status || '–'),
      el('td', null, postback.value === null ? '–' : postback.value + ' ' + (postback.currency || '')),
      conversion, params);
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

  // ---- the views ------------------------------------------------------------------------------------------------

  const VIEWS = ['events', 'funnel'];

  /** Shows one view; the funnel is asked for the first time it is shown, not at sign-in. */
  function showView(name) {
    for (const view of VIEWS) {
      const tab = $('tab-' + view);
      tab.setAttribute('aria-selected', String(view === name));
      tab.tabIndex = view === name ? 0 : -1;
      show($(view + '-view'), view === name);
    }
    document.title = 'event-router · ' + name;
    history.replaceState(null, '', name === 'funnel' ? '#funnel' : location.pathname + location.search);
    if (name === 'funnel' && !funnel.asked) loadFunnel();
  }

  /** Tabs as the ARIA pattern has them: a click or an arrow key selects (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/). */
  function wireTabs() {
    for (const view of VIEWS) {
      const tab = $('tab-' + view);
      tab.addEventListener('click', () => showView(view));
      tab.addEventListener('keydown', (event) => {
        const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
        if (!step) return;
        const next = VIEWS[(VIEWS.indexOf(view) + step + VIEWS.length) % VIEWS.length];
        showView(next);
        $('tab-' + next).focus();
      });
    }
  }

  // ---- the funnel -----------------------------------------------------------------------------------------------

  /** What the report groups and filters by (ReportsApi.DIMENSIONS), as the pickers name them. */
  const DIMENSIONS = {
    utm_campaign: 'UTM campaign', utm_source: 'UTM source', utm_medium: 'UTM medium', utm_content: 'UTM content',
    utm_term: 'UTM term', campaign_id: 'campaign id', adset_id: 'ad set id', ad_id: 'ad id', placement: 'placement',
    bot: 'bot', channel: 'channel', country: 'country', day: 'day',
  };
  /** A row's own counts, in funnel order; revenue is all its events'. */
  const FUNNEL_FIELDS = [['clicks', 'clicks'], ['starts', 'starts'], ['join_requests', 'join requests'],
    ['joins', 'joins'], ['unsubscribes', 'unsubscribes'], ['remaining_subscribers', 'remaining subscribers'],
    ['revenue', 'revenue']];
  /** The Telegram steps the chart draws before the events. */
  const CHART_STEPS = ['clicks', 'starts', 'join_requests', 'joins'];
  const NO_EVENT = { count: 0, users: 0, revenue: '0.00' };
  const SVG = 'http://www.w3.org/2000/svg';
  const CHART = { label: 130, bar: 420, value: 130, row: 26, height: 18 };

  const funnel = {
    asked: false, // a report was asked for since sign-in
    report: null, // the last answer shown
    sort: null, // { key, direction } of the column the rows are sorted by; null: as answered
    selected: null, // the group key of the row the chart shows; null: the totals
    generation: 0, // bumped on every ask, so an answer to an older one is dropped
    csvUrl: null, // the object URL of the last CSV, revoked when another replaces it or at sign-out
    values: new Map(), // dimension -> values seen in reports, offered by the filters
    filters: 0, // filter rows made, for their datalists' ids
  };

  function browserZone() {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  }

  /** A time in a time zone (the browser's when the zone is not one Intl knows), as the parts Intl makes. */
  function zoned(date, zone, options) {
    let format;
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone: zone, ...options });
    } catch (unknownZone) {
      format = new Intl.DateTimeFormat('en-US', options);
    }
    const parts = format.formatToParts(date);
    return (type) => parts.find((p) => p.type === type).value;
  }

  /** The day of a time in a time zone, as YYYY-MM-DD. */
  function localDay(date, zone) {
    const part = zoned(date, zone, { year: 'numeric', month: '2-digit', day: '2-digit' });
    return part('year') + '-' + part('month') + '-' + part('day');
  }

  function today(zone) {
    return localDay(new Date(), zone);
  }

  function addDays(day, days) {
    const date = new Date(day + 'T00:00:00Z');
    date.setUTCDate(date.getUTCDate() + days);
    return date.toISOString().slice(0, 10);
  }

  /** The last so many days, today included, in the picked time zone. */
  function lastDays(days) {
    const form = $('funnel-form');
    const to = today(form.elements.tz.value.trim());
    form.elements.to.value = to;
    form.elements.from.value = addDays(to, 1 - days);
  }

  function option(value, text) {
    const node = el('option', null, text);
    node.value = value;
    return node;
  }

  function dimensionOptions(first) {
    return [...(first ? [first] : []), ...Object.entries(DIMENSIONS).map(([value, text]) => option(value, text))];
  }

  /** A filter's row: a dimension, a value (from those seen, or typed), and a button that takes it away. */
  function filterRow() {
    const row = el('div', 'filter-row');
    const id = 'funnel-values-' + ++funnel.filters;
    const dimension = el('select');
    dimension.name = 'filter-dimension';
    dimension.append(...dimensionOptions(option('', 'no filter')));
    const value = el('input');
    value.name = 'filter-value';
    value.spellcheck = false;
    value.maxLength = 100;
    value.autocomplete = 'off';
    value.setAttribute('list', id);
    const values = el('datalist');
    values.id = id;
    const offer = () => {
      values.replaceChildren(...[...(funnel.values.get(dimension.value) || [])].sort().map((v) => option(v, null)));
    };
    // Again on focus: a report shown since the dimension was picked may have brought more values.
    dimension.addEventListener('change', offer);
    value.addEventListener('focus', offer);
    const remove = el('button', 'link', 'Remove');
    remove.type = 'button';
    remove.setAttribute('aria-label', 'Remove this filter');
    remove.addEventListener('click', () => {
      row.remove();
      if (!$('funnel-filter-list').children.length) $('funnel-filter-list').append(filterRow());
    });
    const dimensionLabel = el('label', null, 'Dimension ');
    dimensionLabel.append(dimension);
    const valueLabel = el('label', null, 'is ');
    valueLabel.append(value);
    row.append(dimensionLabel, valueLabel, values, remove);
    return row;
  }

  /** The query the pickers make; format csv for the file. */
  function funnelQuery(format) {
    const form = $('funnel-form');
    const query = new URLSearchParams();
    query.set('from', form.elements.from.value);
    query.set('to', form.elements.to.value);
    query.set('tz', form.elements.tz.value.trim());
    const groups = [form.elements.group1.value, form.elements.group2.value].filter((g) => g);
    query.set('group_by', [...new Set(groups)].join(','));
    for (const row of form.querySelectorAll('.filter-row')) {
      const dimension = row.querySelector('select').value;
      if (dimension) query.append('filter', dimension + ':' + row.querySelector('input').value.trim());
    }
    if (format) query.set('format', format);
    return query;
  }

  async function loadFunnel() {
    const form = $('funnel-form');
    if (!form.reportValidity()) return;
    funnel.asked = true;
    const generation = ++funnel.generation;
    const session = state.session;
    show($('funnel-error'), false);
    $('funnel-table').setAttribute('aria-busy', 'true');
    let report;
    try {
      report = await api('GET', '/reports/funnel?' + funnelQuery());
    } catch (error) {
      if (session === state.session && generation === funnel.generation) {
        $('funnel-table').removeAttribute('aria-busy');
        failed(error, $('funnel-error'));
      }
      return;
    }
    if (session !== state.session || generation !== funnel.generation) return;
    $('funnel-table').removeAttribute('aria-busy');
    funnel.report = report;
    funnel.selected = null;
    for (const row of report.rows) {
      for (const [dimension, value] of Object.entries(row.group)) {
        if (!funnel.values.has(dimension)) funnel.values.set(dimension, new Set());
        funnel.values.get(dimension).add(value);
      }
    }
    renderFunnel();
  }

  /** The columns of a report: its groups, the row's counts, each event's count, users and revenue, the rates. */
  function funnelColumns(report) {
    const columns = report.group_by.map((d) => ({ key: 'group.' + d, label: DIMENSIONS[d] || d, kind: 'group',
      get: (row) => row.group[d] }));
    for (const [field, label] of FUNNEL_FIELDS) {
      columns.push({ key: field, label: field === 'revenue' ? 'revenue, ' + report.currency : label,
        kind: field === 'revenue' ? 'money' : 'count', get: (row) => row[field] });
    }
    for (const name of Object.keys(report.totals.events)) {
      const of = (row) => row.events[name] || NO_EVENT;
      columns.push({ key: 'events.' + name + '.count', band: name, label: 'count', kind: 'count',
        get: (row) => of(row).count });
      columns.push({ key: 'events.' + name + '.users', band: name, label: 'users', kind: 'count',
        get: (row) => of(row).users });
      columns.push({ key: 'events.' + name + '.revenue', band: name, label: 'revenue', kind: 'money',
        get: (row) => of(row).revenue });
    }
    for (const rate of Object.keys(report.totals.rates)) {
      columns.push({ key: 'rates.' + rate, band: 'step rates', label: rateLabel(rate), kind: 'rate',
        get: (row) => (row.rates[rate] === undefined ? null : row.rates[rate]) });
    }
    return columns;
  }

  function stepLabel(step) {
    return step === 'join_requests' ? 'join requests' : step;
  }

  function rateLabel(rate) {
    return rate === 'unsubscribe_rate' ? 'unsubscribes per join' : rate.split('_to_').map(stepLabel).join(' → ');
  }

  function cellText(column, value) {
    if (column.kind === 'group') return value === '' ? '(not known)' : value;
    if (column.kind === 'rate') return value === null ? '–' : (100 * value).toFixed(1) + '%';
    return String(value);
  }

  /** What a column sorts by: text for groups (numbers in them as numbers), numbers else, null for a rate of none. */
  function sortValue(column, row) {
    const value = column.get(row);
    if (column.kind === 'group' || value === null) return value;
    return Number(value);
  }

  function groupKey(row) {
    return Object.values(row.group).join(' / ');
  }

  function sortedRows(columns) {
    const rows = funnel.report.rows;
    const column = funnel.sort && columns.find((c) => c.key === funnel.sort.key);
    if (!column) return rows;
    const sign = funnel.sort.direction === 'ascending' ? 1 : -1;
    return rows.map((row, i) => ({ row, i, value: sortValue(column, row) })).sort((a, b) => {
      if (a.value === null || b.value === null) {
        // A rate of nothing is no rate: last either way.
        return a.value === b.value ? a.i - b.i : a.value === null ? 1 : -1;
      }
      const d = typeof a.value === 'string' ? a.value.localeCompare(b.value, undefined, { numeric: true })
        : a.value - b.value;
      return d !== 0 ? sign * d : a.i - b.i;
    }).map((entry) => entry.row);
  }

  /** The first click sorts text A to Z and numbers largest first; the next click on it reverses. */
  function sortBy(column) {
    const same = funnel.sort && funnel.sort.key === column.key;
    const direction = same ? (funnel.sort.direction === 'ascending' ? 'descending' : 'ascending')
      : column.kind === 'group' ? 'ascending' : 'descending';
    funnel.sort = { key: column.key, direction };
    renderFunnel();
    const header = document.querySelector('#funnel-table th[data-col="' + CSS.escape(column.key) + '"] button');
    if (header) header.focus();
  }

  /** A sortable header, as https://www.w3.org/WAI/ARIA/apg/patterns/table/examples/sortable-table/ has it. */
  function sortHeader(column) {
    const th = el('th', column.kind === 'group' ? 'text' : null);
    th.scope = 'col';
    th.dataset.col = column.key;
    if (funnel.sort && funnel.sort.key === column.key) th.setAttribute('aria-sort', funnel.sort.direction);
    const button = el('button', 'sort', column.label);
    button.type = 'button';
    button.addEventListener('click', () => sortBy(column));
    th.append(button);
    return th;
  }

  /** One header row, or two when columns are banded (an event's count, users and revenue under its name). */
  function funnelHead(columns) {
    const head = $('funnel-table').tHead;
    const top = el('tr');
    const bottom = el('tr');
    // Runs of columns under one band (or none), each a column group, so a band's header names its columns.
    const runs = [];
    for (const column of columns) {
      const last = runs[runs.length - 1];
      if (last && last.band === (column.band || null)) last.columns.push(column);
      else runs.push({ band: column.band || null, columns: [column] });
    }
    const banded = runs.some((run) => run.band);
    for (const run of runs) {
      if (!run.band) {
        for (const column of run.columns) {
          const th = sortHeader(column);
          if (banded) th.rowSpan = 2;
          top.append(th);
        }
        continue;
      }
      const band = el('th', 'band', run.band);
      band.scope = 'colgroup';
      band.colSpan = run.columns.length;
      top.append(band);
      bottom.append(...run.columns.map(sortHeader));
    }
    head.replaceChildren(top, ...(banded ? [bottom] : []));
    const table = $('funnel-table');
    table.querySelectorAll('colgroup').forEach((g) => g.remove());
    table.prepend(...runs.map((run) => {
      const group = el('colgroup');
      group.span = run.columns.length;
      return group;
    }));
  }

  function funnelRow(row, columns, total) {
    const tr = el('tr', !total && funnel.selected === groupKey(row) ? 'selected' : null);
    if (!total) tr.dataset.group = groupKey(row);
    let first = true;
    for (const column of columns) {
      let cell;
      if (column.kind === 'group') {
        cell = el('th', 'text' + (!total && column.get(row) === '' ? ' muted' : ''),
          total ? (first ? 'Total' : '') : cellText(column, column.get(row)));
        cell.scope = 'row';
        first = false;
      } else {
        cell = el('td', null, cellText(column, column.get(row)));
      }
      cell.dataset.col = column.key;
      tr.append(cell);
    }
    tr.tabIndex = 0;
    const choose = () => {
      funnel.selected = total || funnel.selected === groupKey(row) ? null : groupKey(row);
      renderFunnel();
    };
    tr.addEventListener('click', choose);
    tr.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        choose();
      }
    });
    return tr;
  }

  function renderFunnel() {
    const report = funnel.report;
    const columns = funnelColumns(report);
    const table = $('funnel-table');
    table.setAttribute('aria-label', 'Funnel by ' + report.group_by.map((d) => DIMENSIONS[d] || d).join(' and '));
    funnelHead(columns);
    table.tBodies[0].replaceChildren(...sortedRows(columns).map((row) => funnelRow(row, columns, false)));
    table.tFoot.replaceChildren(funnelRow(report.totals, columns, true));
    show($('funnel-empty'), !report.rows.length);
    $('funnel-meta').textContent = report.from + ' to ' + report.to + ', ' + report.tz + ' · revenue in '
      + report.currency + ' · counted up to ' + rolledUpTo(report.rolled_up_to, report.tz);
    $('funnel-truncated').textContent = report.truncated ? 'Only the first ' + report.rows.length + ' groups are '
      + 'shown (the totals count all): filter to see the rest.' : '';
    show($('funnel-truncated'), report.truncated);
    const selected = funnel.selected === null ? null : report.rows.find((r) => groupKey(r) === funnel.selected);
    $('funnel-chart-of').textContent = selected ? 'of ' + (groupKey(selected) || '(not known)') : 'of the totals';
    $('funnel-chart').replaceChildren(chart(report, selected || report.totals));
  }

  /** How far the rollups reach, as HH:MM in the report's time zone, with the day when it is not today. */
  function rolledUpTo(iso, zone) {
    const at = new Date(iso);
    const part = zoned(at, zone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const time = part('hour') + ':' + part('minute');
    const day = localDay(at, zone);
    return day === today(zone) ? time : day + ' ' + time;
  }

  function svg(tag, attributes, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  /**
   * The steps of one row as horizontal bars: clicks, starts, join requests, joins, then each event, leaving out
   * those the whole report has none of (as its rates do), each with its count and its share of the step before.
   */
  function chart(report, row) {
    const steps = CHART_STEPS.filter((s) => report.totals[s] > 0).map((s) => ({ key: s, label: stepLabel(s),
      count: row[s], event: false }));
    for (const [name, totals] of Object.entries(report.totals.events)) {
      if (totals.count > 0) {
        steps.push({ key: name, label: name, count: (row.events[name] || NO_EVENT).count, event: true });
      }
    }
    if (!steps.length) return el('p', 'muted', 'No steps to draw: nothing in this range.');
    const most = Math.max(1, ...steps.map((s) => s.count));
    const width = CHART.label + CHART.bar + CHART.value;
    const height = steps.length * CHART.row + 4;
    const picture = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, width, height, role: 'img',
      'aria-label': 'Steps: ' + steps.map((s) => s.label + ' ' + s.count).join(', ') });
    steps.forEach((step, i) => {
      const y = 2 + i * CHART.row;
      const middle = y + CHART.height / 2;
      const length = step.count > 0 ? Math.max(2, (CHART.bar * step.count) / most) : 0;
      const share = i > 0 && steps[i - 1].count > 0 ? percent(step.count, steps[i - 1].count) : null;
      const group = svg('g', { class: 'step', 'data-step': step.key });
      group.append(
        svg('title', null, step.label + ': ' + step.count + (share ? ', ' + share + ' of ' + steps[i - 1].label : '')),
        svg('text', { class: 'step-label', x: CHART.label - 8, y: middle, 'text-anchor': 'end',
          'dominant-baseline': 'central' }, step.label),
        svg('rect', { class: 'step-bar' + (step.event ? ' event' : ''), x: CHART.label, y, width: length,
          height: CHART.height, rx: 3 }),
        svg('text', { class: 'step-value', x: CHART.label + length + 6, y: middle, 'dominant-baseline': 'central' },
          step.count + (share ? ' (' + share + ')' : '')));
      picture.append(group);
    });
    return picture;
  }

  /** The pickers' report as CSV, offered as a file named by its days. */
  async function downloadFunnel() {
    const form = $('funnel-form');
    if (!form.reportValidity()) return;
    const query = funnelQuery('csv');
    const button = $('funnel-csv');
    const session = state.session;
    button.disabled = true;
    show($('funnel-error'), false);
    try {
      const response = await request('GET', '/reports/funnel?' + query, 'text/csv');
      if (!response.ok) {
        let body = null;
        try {
          body = await response.json();
        } catch (unreadable) {
          // reported by status
        }
        throw new ApiError(response.status, body);
      }
      const file = await response.blob();
      if (session !== state.session) return;
      if (funnel.csvUrl) URL.revokeObjectURL(funnel.csvUrl);
      funnel.csvUrl = URL.createObjectURL(file);
      const link = $('funnel-csv-link');
      link.href = funnel.csvUrl;
      link.download = 'funnel-' + query.get('from') + '-' + query.get('to') + '.csv';
      link.textContent = link.download;
      show(link, true);
      link.click();
    } catch (error) {
      if (session === state.session) failed(error, $('funnel-error'));
    } finally {
      button.disabled = false;
    }
  }

  /** At sign-out: nothing of the workspace's reports stays, the file included. */
  function forgetFunnel() {
    if (funnel.csvUrl) URL.revokeObjectURL(funnel.csvUrl);
    Object.assign(funnel, { asked: false, report: null, sort: null, selected: null, csvUrl: null, values: new Map() });
    funnel.generation++;
    if (pristineFunnel) {
      $('funnel-view').replaceWith(pristineFunnel.cloneNode(true));
      wireFunnel();
    }
  }

  /** The funnel view's controls, with their defaults: the last 7 days in the browser's time zone, by campaign. */
  function wireFunnel() {
    const form = $('funnel-form');
    const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    $('funnel-zones').replaceChildren(...['UTC', ...zones.filter((z) => z !== 'UTC')].map((z) => option(z, null)));
    form.elements.tz.value = browserZone();
    lastDays(7);
    form.elements.group1.replaceChildren(...dimensionOptions());
    form.elements.group2.replaceChildren(...dimensionOptions(option('', 'nothing')));
    $('funnel-filter-list').replaceChildren(filterRow());
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      loadFunnel();
    });
    for (const preset of form.querySelectorAll('[data-days]')) {
      preset.addEventListener('click', () => {
        lastDays(Number(preset.dataset.days));
        loadFunnel();
      });
    }
    $('funnel-add-filter').addEventListener('click', () => {
      const row = filterRow();
      $('funnel-filter-list').append(row);
      row.querySelector('select').focus();
    });
    $('funnel-csv').addEventListener('click', downloadFunnel);
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
    pristineFunnel = $('funnel-view').cloneNode(true);
    $('sign-in').addEventListener('submit', signIn);
    $('sign-out').addEventListener('click', () => signOut());
    wireTabs();
    wireView();
    wireFunnel();
    if (sessionStorage.getItem(KEY_STORE)) {
      start();
    } else {
      signOut();
    }
  });
})();
