// The funnel's pickers: the days, the time zone, the groups and the filters, and the report query they make.
import { $, button, el, option } from './dom.js';
import { addDays, browserZone, today } from './days.js';

/** What the report groups and filters by (ReportsApi.DIMENSIONS), as the pickers name them. */
export const DIMENSIONS = {
  utm_campaign: 'UTM campaign', utm_source: 'UTM source', utm_medium: 'UTM medium', utm_content: 'UTM content',
  utm_term: 'UTM term', campaign_id: 'campaign id', adset_id: 'ad set id', ad_id: 'ad id', placement: 'placement',
  bot: 'bot', channel: 'channel', country: 'country', day: 'day',
};

const values = new Map(); // dimension -> values seen in reports, offered by the filters
let filterRows = 0; // filter rows made, for their datalists' ids

/** The last so many days, today included, in the picked time zone. */
export function lastDays(days) {
  const form = $('funnel-form');
  const to = today(form.elements.tz.value.trim());
  form.elements.to.value = to;
  form.elements.from.value = addDays(to, 1 - days);
}

function dimensionOptions(first) {
  return [...(first ? [first] : []), ...Object.entries(DIMENSIONS).map(([value, text]) => option(value, text))];
}

/** A filter's row: a dimension, a value (from those seen, or typed), and a button that takes it away. */
function filterRow() {
  const row = el('div', 'filter-row');
  const id = 'funnel-values-' + ++filterRows;
  const dimension = el('select');
  dimension.name = 'filter-dimension';
  dimension.append(...dimensionOptions(option('', 'no filter')));
  const value = el('input');
  value.name = 'filter-value';
  value.spellcheck = false;
  value.maxLength = 100;
  value.autocomplete = 'off';
  value.setAttribute('list', id);
  const offered = el('datalist');
  offered.id = id;
  const offer = () => {
    offered.replaceChildren(...[...(values.get(dimension.value) || [])].sort().map((v) => option(v, null)));
  };
  // Again on focus: a report shown since the dimension was picked may have brought more values.
  dimension.addEventListener('change', offer);
  value.addEventListener('focus', offer);
  const remove = button('link', 'Remove', () => {
    row.remove();
    if (!$('funnel-filter-list').children.length) $('funnel-filter-list').append(filterRow());
  });
  remove.setAttribute('aria-label', 'Remove this filter');
  const dimensionLabel = el('label', null, 'Dimension ');
  dimensionLabel.append(dimension);
  const valueLabel = el('label', null, 'is ');
  valueLabel.append(value);
  row.append(dimensionLabel, valueLabel, offered, remove);
  return row;
}

/** The query the pickers make; format csv for the file. */
export function funnelQuery(format) {
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

/** The groups' values a report shows, offered by the filters from then on. */
export function rememberValues(report) {
  for (const row of report.rows) {
    for (const [dimension, value] of Object.entries(row.group)) {
      if (!values.has(dimension)) values.set(dimension, new Set());
      values.get(dimension).add(value);
    }
  }
}

export function forgetValues() {
  values.clear();
}

/** The pickers' defaults: the last 7 days in the browser's time zone, by campaign, and one empty filter. */
export function setUpForm() {
  const form = $('funnel-form');
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  $('funnel-zones').replaceChildren(...['UTC', ...zones.filter((z) => z !== 'UTC')].map((z) => option(z, null)));
  form.elements.tz.value = browserZone();
  lastDays(7);
  form.elements.group1.replaceChildren(...dimensionOptions());
  form.elements.group2.replaceChildren(...dimensionOptions(option('', 'nothing')));
  $('funnel-filter-list').replaceChildren(filterRow());
  $('funnel-add-filter').addEventListener('click', () => {
    const row = filterRow();
    $('funnel-filter-list').append(row);
    row.querySelector('select').focus();
  });
}
