// One funnel row's steps as an SVG bar chart, drawn here (the page's policy loads no chart library).
import { el, percent } from './dom.js';

/** The Telegram steps the chart draws before the events. */
const CHART_STEPS = ['clicks', 'starts', 'join_requests', 'joins'];
const SVG = 'http://www.w3.org/2000/svg';
const CHART = { label: 130, bar: 420, value: 130, row: 26, height: 18 };
/** An event a row has none of. */
export const NO_EVENT = { count: 0, users: 0, revenue: '0.00' };

export function stepLabel(step) {
  return step === 'join_requests' ? 'join requests' : step;
}

export function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

/**
 * The steps of one row as horizontal bars: clicks, starts, join requests, joins, then each event, leaving out
 * those the whole report has none of (as its rates do), each with its count and its share of the step before.
 */
export function chart(report, row) {
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
  if (row.roas !== null && row.roas !== undefined) {
    const tall = height + CHART.row + 6;
    picture.append(roasBar(row, height));
    picture.setAttribute('height', String(tall));
    picture.setAttribute('viewBox', '0 0 ' + width + ' ' + tall);
  }
  return picture;
}

/**
 * Return on ad spend beside the steps: a bar whose middle is break-even (ROAS 1), green past it, red short of it, with
 * the ROAS and the profit.
 */
function roasBar(row, top) {
  const y = top + 6;
  const middle = y + CHART.height / 2;
  const scale = Math.max(2, row.roas);
  const length = Math.max(2, (CHART.bar * row.roas) / scale);
  const group = svg('g', { class: 'roas', 'data-roas': row.roas });
  group.append(
    svg('title', null, 'ROAS ' + row.roas.toFixed(2) + ': revenue ' + row.revenue + ', cost ' + row.cost),
    svg('text', { class: 'step-label', x: CHART.label - 8, y: middle, 'text-anchor': 'end',
      'dominant-baseline': 'central' }, 'ROAS'),
    svg('rect', { class: 'roas-bar ' + (row.roas >= 1 ? 'good' : 'bad'), x: CHART.label, y, width: length,
      height: CHART.height, rx: 3 }),
    svg('line', { class: 'break-even', x1: CHART.label + CHART.bar / scale, x2: CHART.label + CHART.bar / scale,
      y1: y - 2, y2: y + CHART.height + 2 }),
    svg('text', { class: 'step-value', x: CHART.label + length + 6, y: middle, 'dominant-baseline': 'central' },
      row.roas.toFixed(2) + '× · profit ' + row.profit));
  return group;
}
