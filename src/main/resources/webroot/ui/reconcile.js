// The funnel view's reconciliation (GET /api/v1/reports/reconcile): what was delivered to Meta or TikTok for each
// ad's clicks beside the network's own count, the ads where the network counts under the workspace's threshold
// marked: where a pixel, a token or a mapping is wrong.
import { $, api, el, show } from './dom.js';
import { failed, sameSignIn } from './session.js';
import { funnelQuery } from './funnel-form.js';

const reconcile = { generation: 0 };

/** The funnel pickers' days with the form's network and grouping. */
export function reconcileQuery() {
  const funnel = funnelQuery();
  const form = $('reconcile-form');
  const query = new URLSearchParams();
  query.set('from', funnel.get('from'));
  query.set('to', funnel.get('to'));
  query.set('network', form.elements.network.value);
  query.set('group_by', form.elements.by.value);
  return query;
}

async function loadReconcile() {
  if (!$('funnel-form').reportValidity()) return;
  const generation = ++reconcile.generation;
  const current = sameSignIn();
  show($('reconcile-error'), false);
  $('reconcile-table').setAttribute('aria-busy', 'true');
  let report;
  try {
    report = await api('GET', '/reports/reconcile?' + reconcileQuery());
  } catch (error) {
    if (current() && generation === reconcile.generation) {
      $('reconcile-table').removeAttribute('aria-busy');
      failed(error, $('reconcile-error'));
    }
    return;
  }
  if (!current() || generation !== reconcile.generation) return;
  $('reconcile-table').removeAttribute('aria-busy');
  showReconcile(report);
}

function line(row, name, cell) {
  const tr = el('tr');
  tr.dataset.group = name;
  tr.dataset.action = row.action_type;
  if (row.short) {
    tr.classList.add('short');
    tr.title = 'The network counts ' + (row.ratio * 100).toFixed(0) + '% of what was delivered: check the pixel, '
      + 'its token and the event mapping';
  }
  tr.append(el(cell, 'text', name), el('td', 'text', row.action_type), el('td', 'text', row.events.join(', ')),
    el('td', null, String(row.delivered)), el('td', null, String(row.network_count)),
    el('td', null, String(row.difference)),
    el('td', null, row.ratio === null ? '—' : (row.ratio * 100).toFixed(1) + '%'));
  return tr;
}

function counts(object) {
  const entries = Object.entries(object);
  return entries.length ? entries.map(([name, n]) => name + ' ' + n).join(', ') : 'none';
}

export function showReconcile(report) {
  const group = report.group_by === 'day' ? 'day' : report.group_by + '_id';
  const head = el('tr');
  for (const name of [group, 'action type', 'events', 'delivered', 'network', 'difference', 'ratio']) {
    head.append(el('th', name === group || name === 'action type' || name === 'events' ? 'text' : null, name));
  }
  $('reconcile-table').tHead.replaceChildren(head);
  $('reconcile-table').tBodies[0].replaceChildren(...report.rows.map((row) => line(row, row.group[group] || '',
    'td')));
  $('reconcile-table').tFoot.replaceChildren(...report.totals.map((row) => line(row, 'total', 'th')));
  show($('reconcile-empty'), report.rows.length === 0);
  const shortRows = report.rows.filter((r) => r.short).length;
  $('reconcile-meta').textContent = 'Days ' + report.from + ' to ' + report.to + ' (' + report.tz + '), '
    + report.network + ': ' + shortRows + ' marked where the network counts under '
    + (report.threshold * 100).toFixed(0) + '% of what was delivered. Delivered without a click\'s ad: '
    + counts(report.unattributed) + '. Not compared: ' + counts(report.not_compared) + '.'
    + (report.cut ? ' More rows than a report reads: narrow the days.' : '');
}

/** At sign-out an answer still coming is dropped. */
export function forgetReconcile() {
  reconcile.generation++;
}

export function wireReconcile() {
  $('reconcile-form').addEventListener('submit', (event) => {
    event.preventDefault();
    loadReconcile();
  });
}
