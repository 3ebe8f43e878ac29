// One event in full: its fields, its session's click, its status history, and each delivery with the payload sent;
// failed deliveries can be sent again.
import { $, api, badge, el, pairs, show, when } from './dom.js';
import { failed, read, repeat, sameSignIn } from './session.js';
// The list and the detail import each other (a row opens the detail; the detail refreshes its row): only functions
// cross, called once both modules have loaded.
import { list, put, render } from './events.js';
import { can } from './access.js';

const REDELIVERABLE = ['failed', 'expired', 'unconfirmed'];
const CLICK_FIELDS = ['fbclid', 'fbc', 'fbp', 'ttclid', 'ttp', 'gclid', 'gbraid', 'wbraid', 'sccid', 'scid',
  'client_ip', 'user_agent', 'landing_url', 'clicked_at'];
const EVENT_FIELDS = ['event_id', 'event_name', 'telegram_id', 'session_id', 'session_source', 'value', 'currency',
  'status', 'conversion_status', 'transaction_id', 'received_at'];

export async function showDetail(eventId) {
  list.detail = eventId;
  const event = await read('/events/' + encodeURIComponent(eventId), $('detail-result'));
  if (!event || list.detail !== eventId) return;
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
  const deliveries = $('detail-deliveries');
  deliveries.replaceChildren(...event.deliveries.map(deliveryBlock));
  if (!event.deliveries.length) deliveries.append(el('p', 'muted', 'No integration takes this event.'));
  show($('redeliver'), can('act') && event.deliveries.some((d) => REDELIVERABLE.includes(d.status)));
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
  const eventId = list.detail;
  const result = $('detail-result');
  const current = sameSignIn();
  try {
    const answer = await api('POST', '/events/' + encodeURIComponent(eventId) + '/redeliver');
    if (!current()) return;
    result.className = 'result good';
    result.textContent = answer.requeued + ' delivery(ies) re-queued.';
    show(result, true);
    showDetail(eventId);
    // The forwarders take re-queued deliveries within moments; look again until none is pending.
    let tries = 10;
    const again = repeat(async () => {
      if (!current() || list.detail !== eventId || --tries < 0) {
        clearInterval(again);
        return;
      }
      await showDetail(eventId);
      const shown = list.events.get(eventId);
      if (shown && !shown.deliveries.some((d) => d.status === 'pending' || d.status === 'retrying')) {
        clearInterval(again);
      }
    }, 1000);
  } catch (error) {
    if (!current()) return;
    result.className = 'result bad';
    failed(error, result);
  }
}

function closeDetail() {
  list.detail = null;
  show($('detail'), false);
  show($('detail-result'), false);
  render();
}

/** The detail pane's buttons, part of the events view: wired with it. */
export function wireDetail() {
  $('redeliver').addEventListener('click', redeliver);
  $('close-detail').addEventListener('click', closeDetail);
}
