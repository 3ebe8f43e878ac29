// Partners' postbacks, newest first, each linked to the conversion it made.
import { $, badge, button, el, show, when } from './dom.js';
import { read } from './session.js';
import { showDetail } from './event-detail.js';

const POSTBACK_OUTCOME_KIND = {
  matched: 'delivered', unmatched: 'pending', duplicate: 'dry_run', macro_not_expanded: 'failed', refused: 'failed',
};

export async function refreshPostbacks() {
  const page = await read('/postbacks');
  if (!page) return;
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
    conversion.append(button('link', postback.event_id, () => showDetail(postback.event_id)));
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
