// The funnel report as a table: a column per group, count, event and step rate. A column's header sorts by it; a
// row, chosen, is what the chart draws.
import { $, button, el, show } from './dom.js';
import { timeInZone } from './days.js';
import { DIMENSIONS } from './funnel-form.js';
import { NO_EVENT, chart, stepLabel } from './funnel-chart.js';

/** A row's own counts, in funnel order; revenue is all its events'. */
const FUNNEL_FIELDS = [['clicks', 'clicks'], ['starts', 'starts'], ['join_requests', 'join requests'],
  ['joins', 'joins'], ['unsubscribes', 'unsubscribes'], ['remaining_subscribers', 'remaining subscribers'],
  ['revenue', 'revenue']];

const shown = {
  report: null, // the last answer shown
  sort: null, // { key, direction } of the column the rows are sorted by; null: as answered
  selected: null, // the group key of the row the chart shows; null: the totals
};

export function showReport(report) {
  shown.report = report;
  shown.selected = null;
  renderFunnel();
}

export function forgetReport() {
  Object.assign(shown, { report: null, sort: null, selected: null });
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
  return columns.concat(costColumns(report));
}

/** Cost and what it returned (docs/costs.md): '–' where no spend was charged to a row. */
function costColumns(report) {
  const band = 'cost, ' + report.currency;
  const columns = [{ key: 'cost', band, label: 'cost', kind: 'cost', get: (row) => row.cost },
    { key: 'cost_per_click', band, label: 'per click', kind: 'cost', get: (row) => row.cost_per_click }];
  for (const name of Object.keys(report.totals.events)) {
    columns.push({ key: 'cost_per.' + name, band, label: 'per ' + name, kind: 'cost',
      get: (row) => (row.cost_per ? row.cost_per[name] : null) });
  }
  columns.push({ key: 'roas', band: 'return', label: 'ROAS', kind: 'ratio', get: (row) => row.roas },
    { key: 'profit', band: 'return', label: 'profit', kind: 'cost', get: (row) => row.profit },
    { key: 'roi', band: 'return', label: 'ROI', kind: 'rate', get: (row) => row.roi });
  return columns;
}

function rateLabel(rate) {
  return rate === 'unsubscribe_rate' ? 'unsubscribes per join' : rate.split('_to_').map(stepLabel).join(' → ');
}

function cellText(column, value) {
  if (column.kind === 'group') return value === '' ? '(not known)' : value;
  if (column.kind === 'rate') return value === null ? '–' : (100 * value).toFixed(1) + '%';
  if (column.kind === 'ratio') return value === null ? '–' : value.toFixed(2) + '×';
  if (column.kind === 'cost') return value === null || value === undefined ? '–' : value;
  return String(value);
}

/** What a column sorts by: text for groups (numbers in them as numbers), numbers else, null for a rate of none. */
function sortValue(column, row) {
  const value = column.get(row);
  if (column.kind === 'group' || value === null || value === undefined) return value === undefined ? null : value;
  return Number(value);
}

function groupKey(row) {
  return Object.values(row.group).join(' / ');
}

function sortedRows(columns) {
  const rows = shown.report.rows;
  const column = shown.sort && columns.find((c) => c.key === shown.sort.key);
  if (!column) return rows;
  const sign = shown.sort.direction === 'ascending' ? 1 : -1;
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
  const same = shown.sort && shown.sort.key === column.key;
  const direction = same ? (shown.sort.direction === 'ascending' ? 'descending' : 'ascending')
    : column.kind === 'group' ? 'ascending' : 'descending';
  shown.sort = { key: column.key, direction };
  renderFunnel();
  const header = document.querySelector('#funnel-table th[data-col="' + CSS.escape(column.key) + '"] button');
  if (header) header.focus();
}

/** A sortable header, as https://www.w3.org/WAI/ARIA/apg/patterns/table/examples/sortable-table/ has it. */
function sortHeader(column) {
  const th = el('th', column.kind === 'group' ? 'text' : null);
  th.scope = 'col';
  th.dataset.col = column.key;
  if (shown.sort && shown.sort.key === column.key) th.setAttribute('aria-sort', shown.sort.direction);
  th.append(button('sort', column.label, () => sortBy(column)));
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
  const tr = el('tr', !total && shown.selected === groupKey(row) ? 'selected' : null);
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
    shown.selected = total || shown.selected === groupKey(row) ? null : groupKey(row);
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
  const report = shown.report;
  const columns = funnelColumns(report);
  const table = $('funnel-table');
  table.setAttribute('aria-label', 'Funnel by ' + report.group_by.map((d) => DIMENSIONS[d] || d).join(' and '));
  funnelHead(columns);
  table.tBodies[0].replaceChildren(...sortedRows(columns).map((row) => funnelRow(row, columns, false)));
  table.tFoot.replaceChildren(funnelRow(report.totals, columns, true));
  show($('funnel-empty'), !report.rows.length);
  const unmatched = report.totals.spend_unmatched;
  $('funnel-meta').textContent = report.from + ' to ' + report.to + ', ' + report.tz + ' · revenue and cost in '
    + report.currency + ' · counted up to ' + timeInZone(report.rolled_up_to, report.tz)
    + (unmatched && Number(unmatched) > 0 ? ' · spend no click explains: ' + unmatched : '')
    + (report.totals.cost_cut ? ' · no cost: too many clicks to spread it over, narrow the range or the groups' : '');
  $('funnel-truncated').textContent = report.truncated ? 'Only the first ' + report.rows.length + ' groups are '
    + 'shown (the totals count all): filter to see the rest.' : '';
  show($('funnel-truncated'), report.truncated);
  const selected = shown.selected === null ? null : report.rows.find((r) => groupKey(r) === shown.selected);
  $('funnel-chart-of').textContent = selected ? 'of ' + (groupKey(selected) || '(not known)') : 'of the totals';
  $('funnel-chart').replaceChildren(chart(report, selected || report.totals));
}
