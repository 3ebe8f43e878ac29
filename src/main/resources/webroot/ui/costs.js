// The cost sources: each ad account whose spend is imported (its state, last poll, rows, days covered and the
// platform's last words), with "poll now", and the sources known by pushed rows.
import { $, api, badge, button, el, show, when } from './dom.js';
import { failed, read, sameSignIn } from './session.js';
import { can } from './access.js';

const STATE_KIND = { ok: 'delivered', new: 'pending', failing: 'retrying', paused: 'failed' };

export async function refreshCosts() {
  const data = await read('/cost-sources');
  if (!data) return;
  $('cost-sources').tBodies[0].replaceChildren(...data.sources.map(sourceRow));
  show($('no-cost-sources'), !data.sources.length);
}

function sourceRow(source) {
  const tr = el('tr');
  tr.dataset.source = source.source_id;
  const state = el('td');
  state.append(source.state ? badge(source.state, STATE_KIND[source.state]) : el('span', 'muted', 'pushed'));
  if (source.last_error) state.append(el('div', 'muted', source.last_error));
  const days = source.first_day ? source.first_day + ' – ' + source.last_day : '–';
  const action = el('td');
  if (source.configured && can('act')) {
    const poll = button('secondary small', 'Poll now', () => pollNow(source.source_id, poll));
    action.append(poll);
  }
  tr.append(el('td', null, source.source_id), el('td', null, source.type), state,
    el('td', null, source.last_poll_at ? when(source.last_poll_at) : '–'), el('td', null, String(source.rows)),
    el('td', null, days), action);
  return tr;
}

async function pollNow(sourceId, poller) {
  const result = $('cost-result');
  poller.disabled = true;
  const current = sameSignIn();
  try {
    await api('POST', '/cost-sources/' + encodeURIComponent(sourceId) + '/poll');
    if (!current()) return;
    result.className = 'result good';
    result.textContent = sourceId + ': polled within the next 15 seconds.';
    show(result, true);
  } catch (error) {
    if (!current()) return;
    result.className = 'result bad';
    failed(error, result);
  } finally {
    poller.disabled = false;
  }
}
