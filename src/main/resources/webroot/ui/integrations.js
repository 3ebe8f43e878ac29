// The last hour at a glance (events, deliveries, integrations needing attention) and the integrations, each with
// its test event and, for an admin, pause and resume. A buyer sees none of it (the whole workspace's): only the cost
// sources of its ad accounts.
import { $, api, badge, button, el, option, percent, show } from './dom.js';
import { failed, read, repeat, sameSignIn } from './session.js';
import { refreshPostbacks } from './postbacks.js';
import { refreshCosts } from './costs.js';
import { can } from './access.js';

const STRIP_MS = 15000;
const STRIP_AFTER_EVENTS_MS = 4000;
let stripAt = 0; // when the strip was last asked for

export function watchStrip() {
  refreshStrip();
  repeat(refreshStrip, STRIP_MS);
}

/** New events move the last hour's figures: read them again, at most every few seconds. */
export function eventsArrived() {
  if (Date.now() - stripAt > STRIP_AFTER_EVENTS_MS) refreshStrip();
}

async function refreshStrip() {
  stripAt = Date.now();
  if (!can('read_all')) {
    refreshCosts();
    return;
  }
  const summary = await read('/integrations?window_hours=1');
  if (!summary) return;
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
    // Dry runs and skipped deliveries (not for the network: no Google click id) count for neither side.
    sent += Object.entries(counts).filter(([status]) => status !== 'dry_run' && status !== 'skipped')
      .reduce((n, [, c]) => n + c, 0);
    if (integration.paused) {
      attention.append(el('li', 'chip bad', integration.integration_id + ': ' + pauseLabel(integration.paused)));
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
  refreshCosts();
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
    select.replaceChildren(option('', 'any'), ...ids.map((id) => option(id, id)));
    select.value = ids.includes(chosen) ? chosen : '';
  }
  for (const integration of integrations) {
    const row = body.insertRow();
    row.dataset.integration = integration.integration_id;
    row.insertCell().textContent = integration.integration_id;
    row.insertCell().textContent = integration.network;
    row.insertCell().textContent = !integration.enabled ? 'disabled' : integration.dry_run ? 'dry run' : 'live';
    const stateCell = row.insertCell();
    stateCell.append(integration.paused ? badge(pauseLabel(integration.paused), 'failed')
      : integration.breaker_open_until ? badge('breaker open', 'retrying') : badge('ok', 'delivered'));
    row.insertCell().textContent = integration.test_event_code || '–';
    const action = row.insertCell();
    if (!can('act')) continue;
    if (integration.test_event_code) {
      const send = button('secondary small', 'Send test event', () => sendTest(integration.integration_id, send));
      send.dataset.action = 'test';
      action.append(send);
    }
    const verb = integration.paused ? 'resume' : 'pause';
    const toggle = button('secondary small', integration.paused ? 'Resume' : 'Pause',
      () => setPaused(integration.integration_id, verb, toggle));
    toggle.dataset.action = verb;
    action.append(toggle);
  }
}

/** A pause by hand says so; any other is the network refusing the token. */
function pauseLabel(paused) {
  return (paused.reason || '').startsWith('paused by hand') ? 'paused' : 'token refused';
}

/** Pauses or resumes an integration by hand, then reads the integrations again. */
async function setPaused(integrationId, verb, toggle) {
  const result = $('test-result');
  toggle.disabled = true;
  const current = sameSignIn();
  try {
    await api('POST', '/integrations/' + encodeURIComponent(integrationId) + '/' + verb);
    if (!current()) return;
    result.className = 'result good';
    result.textContent = integrationId + (verb === 'pause' ? ': paused; its deliveries are held.'
      : ': resumed; its held deliveries go out now.');
    show(result, true);
    refreshStrip();
  } catch (error) {
    if (!current()) return;
    result.className = 'result bad';
    failed(error, result);
  } finally {
    toggle.disabled = false;
  }
}

async function sendTest(integrationId, sender) {
  const result = $('test-result');
  sender.disabled = true;
  result.className = 'result';
  result.textContent = 'Sending a test event to ' + integrationId + '…';
  show(result, true);
  const current = sameSignIn();
  try {
    const verdict = await api('POST', '/integrations/' + encodeURIComponent(integrationId) + '/test');
    if (!current()) return;
    result.className = 'result ' + (verdict.verdict === 'accepted' ? 'good' : 'bad');
    result.textContent = integrationId + ': ' + verdict.verdict + ' (test_event_code ' + verdict.test_event_code
      + ')' + (verdict.message ? ' - ' + verdict.message : '');
  } catch (error) {
    if (!current()) return;
    result.className = 'result bad';
    failed(error, result);
  } finally {
    sender.disabled = false;
  }
}
