// The funnel view's cohorts (GET /api/v1/reports/cohorts): what the clicks of each day or week brought by each age
// (days since the click), as a table shaded by return on ad spend and the curves of cumulative ROAS by age of the
// groups that cost most. Drawn here, as the steps chart is (the page's policy loads no chart library).
import { $, api, el, show } from './dom.js';
import { failed, sameSignIn } from './session.js';
import { svg } from './funnel-chart.js';
import { funnelQuery } from './funnel-form.js';

/** The groups drawn as curves: those that cost most (else had most clicks). */
const CURVES = 5;
const PLOT = { left: 44, right: 150, top: 10, bottom: 26, width: 620, height: 220 };
const cohorts = { generation: 0 };

/**
 * The funnel pickers' days, groups and filters as a cohort query: the cohorts are kept in the workspace's zone, so
 * no tz is sent; the day group and a day filter are the click day's, picked apart.
 */
export function cohortQuery() {
  const funnel = funnelQuery();
  const form = $('cohort-form');
  const query = new URLSearchParams();
  query.set('from', funnel.get('from'));
  query.set('to', funnel.get('to'));
  const groups = funnel.get('group_by').split(',').filter((g) => g && g !== 'day');
  if (form.elements.by.value) groups.push(form.elements.by.value);
  if (groups.length) query.set('group_by', groups.join(','));
  for (const filter of funnel.getAll('filter')) {
    if (!filter.startsWith('day:')) query.append('filter', filter);
  }
  query.set('ages', form.elements.ages.value.replace(/\s+/g, ''));
  return query;
}

async function loadCohorts() {
  const form = $('cohort-form');
  if (!form.reportValidity() || !$('funnel-form').reportValidity()) return;
  const generation = ++cohorts.generation;
  const current = sameSignIn();
  show($('cohort-error'), false);
  $('cohort-table').setAttribute('aria-busy', 'true');
  let report;
  try {
    report = await api('GET', '/reports/cohorts?' + cohortQuery());
  } catch (error) {
    if (current() && generation === cohorts.generation) {
      $('cohort-table').removeAttribute('aria-busy');
      failed(error, $('cohort-error'));
    }
    return;
  }
  if (!current() || generation !== cohorts.generation) return;
  $('cohort-table').removeAttribute('aria-busy');
  showCohorts(report);
}

function groupName(report, row) {
  return report.group_by.map((g) => row.group[g] || '(not known)').join(' · ');
}

/** A cell of one age: its revenue and ROAS, shaded by ROAS against the report's best; a dash where not reached. */
function ageCell(age, best) {
  const cell = el('td');
  cell.dataset.age = String(age.age);
  if (age.revenue === null) {
    cell.className = 'unreached';
    cell.textContent = '—';
    cell.title = 'Not reached yet: the cohort\'s last click day is not ' + age.age + ' days old';
    return cell;
  }
  cell.append(el('span', null, age.revenue));
  if (age.roas !== null) {
    cell.dataset.roas = String(age.roas);
    cell.classList.add('heat', age.roas >= 1 ? 'good' : 'bad');
    cell.style.setProperty('--heat', String(Math.min(1, age.roas / best)));
    cell.append(el('small', null, age.roas.toFixed(2) + '×'));
  }
  cell.title = age.payers + ' payer' + (age.payers === 1 ? '' : 's') + ' by day ' + age.age;
  return cell;
}

function line(report, row, header, best) {
  const tr = el('tr');
  tr.dataset.group = header || groupName(report, row);
  const name = el(header ? 'th' : 'td', 'text', tr.dataset.group);
  tr.append(name, el('td', null, String(row.clicks)), el('td', null, row.cost === null ? '—' : row.cost));
  for (const age of row.ages) tr.append(ageCell(age, best));
  return tr;
}

export function showCohorts(report) {
  const rois = [...report.rows, report.totals].flatMap((r) => r.ages.map((a) => a.roas)).filter((r) => r !== null);
  const best = Math.max(1, ...rois);
  const head = el('tr');
  head.append(el('th', 'text', report.group_by.join(' · ')), el('th', null, 'clicks'), el('th', null, 'cost'));
  for (const age of report.ages) head.append(el('th', null, 'D' + age));
  $('cohort-table').tHead.replaceChildren(head);
  $('cohort-table').tBodies[0].replaceChildren(...report.rows.map((row) => line(report, row, null, best)));
  $('cohort-table').tFoot.replaceChildren(line(report, report.totals, 'total', best));
  show($('cohort-empty'), report.rows.length === 0);
  $('cohort-meta').textContent = 'Click days ' + report.from + ' to ' + report.to + ' (' + report.tz + '), revenue in '
    + report.currency + '; rolled up to ' + report.rolled_up_to + '.';
  $('cohort-chart').replaceChildren(curves(report));
}

/** Cumulative ROAS by age of the groups that cost most, each a line, with break-even (ROAS 1) marked. */
function curves(report) {
  const drawn = report.rows.filter((r) => r.cost !== null && r.ages.some((a) => a.roas !== null))
    .sort((a, b) => Number(b.cost) - Number(a.cost)).slice(0, CURVES);
  if (!drawn.length) return el('p', 'muted', 'No curves to draw: no cohort has cost and an age reached.');
  const top = Math.max(1.2, ...drawn.flatMap((r) => r.ages.map((a) => a.roas || 0)));
  const wide = PLOT.width - PLOT.left - PLOT.right;
  const tall = PLOT.height - PLOT.top - PLOT.bottom;
  const x = (i) => PLOT.left + (report.ages.length > 1 ? (wide * i) / (report.ages.length - 1) : wide / 2);
  const y = (roas) => PLOT.top + tall - (tall * roas) / top;
  const picture = svg('svg', { viewBox: '0 0 ' + PLOT.width + ' ' + PLOT.height, width: PLOT.width,
    height: PLOT.height, role: 'img', class: 'cohort-curves',
    'aria-label': 'Cumulative ROAS by age: ' + drawn.map((r) => groupName(report, r)).join(', ') });
  picture.append(svg('line', { class: 'break-even', x1: PLOT.left, x2: PLOT.left + wide, y1: y(1), y2: y(1) }),
    svg('text', { class: 'axis', x: PLOT.left - 6, y: y(1), 'text-anchor': 'end', 'dominant-baseline': 'central' },
      '1×'));
  report.ages.forEach((age, i) => picture.append(svg('text', { class: 'axis', x: x(i), y: PLOT.height - 8,
    'text-anchor': 'middle' }, 'D' + age)));
  drawn.forEach((row, n) => {
    const points = row.ages.map((a, i) => (a.roas === null ? null : x(i) + ',' + y(a.roas))).filter((p) => p);
    const last = row.ages.filter((a) => a.roas !== null).pop();
    const group = svg('g', { class: 'curve curve-' + n, 'data-group': groupName(report, row) });
    group.append(svg('title', null, groupName(report, row) + ': ROAS ' + row.ages.map((a) => 'D' + a.age + ' '
      + (a.roas === null ? '—' : a.roas.toFixed(2))).join(', ')),
    svg('polyline', { points: points.join(' ') }),
    svg('text', { class: 'step-value', x: PLOT.left + wide + 6, y: y(last.roas), 'dominant-baseline': 'central' },
      groupName(report, row).slice(0, 22)));
    picture.append(group);
  });
  return picture;
}

/** At sign-out the funnel view is put back as served; an answer still coming is dropped. */
export function forgetCohorts() {
  cohorts.generation++;
}

export function wireCohorts() {
  $('cohort-form').addEventListener('submit', (event) => {
    event.preventDefault();
    loadCohorts();
  });
}
