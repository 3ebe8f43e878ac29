// The funnel view: the report the pickers make (GET /api/v1/reports/funnel), shown as a table and a chart, or
// downloaded as a CSV file.
import { $, api, apiFile, show } from './dom.js';
import { failed, sameSignIn } from './session.js';
import { forgetValues, funnelQuery, lastDays, rememberValues, setUpForm } from './funnel-form.js';
import { forgetReport, showReport } from './funnel-table.js';
import { forgetCohorts, wireCohorts } from './cohorts.js';
import { forgetReconcile, wireReconcile } from './reconcile.js';

const funnel = {
  asked: false, // a report was asked for since sign-in
  generation: 0, // bumped on every ask, so an answer to an older one is dropped
  csvUrl: null, // the object URL of the last CSV, revoked when another replaces it or at sign-out
};
let pristine = null; // the funnel view as served: what sign-out puts back

/** The view is shown: its first report is asked for then, not at sign-in. */
export function funnelShown() {
  if (!funnel.asked) loadFunnel();
}

async function loadFunnel() {
  const form = $('funnel-form');
  if (!form.reportValidity()) return;
  funnel.asked = true;
  const generation = ++funnel.generation;
  const current = sameSignIn();
  show($('funnel-error'), false);
  $('funnel-table').setAttribute('aria-busy', 'true');
  let report;
  try {
    report = await api('GET', '/reports/funnel?' + funnelQuery());
  } catch (error) {
    if (current() && generation === funnel.generation) {
      $('funnel-table').removeAttribute('aria-busy');
      failed(error, $('funnel-error'));
    }
    return;
  }
  if (!current() || generation !== funnel.generation) return;
  $('funnel-table').removeAttribute('aria-busy');
  rememberValues(report);
  showReport(report);
}

/** The pickers' report as CSV, offered as a file named by its days. */
async function downloadFunnel() {
  const form = $('funnel-form');
  if (!form.reportValidity()) return;
  const query = funnelQuery('csv');
  const csv = $('funnel-csv');
  const current = sameSignIn();
  csv.disabled = true;
  show($('funnel-error'), false);
  try {
    const file = await apiFile('/reports/funnel?' + query, 'text/csv');
    if (!current()) return;
    if (funnel.csvUrl) URL.revokeObjectURL(funnel.csvUrl);
    funnel.csvUrl = URL.createObjectURL(file);
    const link = $('funnel-csv-link');
    link.href = funnel.csvUrl;
    link.download = 'funnel-' + query.get('from') + '-' + query.get('to') + '.csv';
    link.textContent = link.download;
    show(link, true);
    link.click();
  } catch (error) {
    if (current()) failed(error, $('funnel-error'));
  } finally {
    csv.disabled = false;
  }
}

/** At sign-out: nothing of the workspace's reports stays, the file included. */
export function forgetFunnel() {
  if (funnel.csvUrl) URL.revokeObjectURL(funnel.csvUrl);
  funnel.asked = false;
  funnel.csvUrl = null;
  funnel.generation++;
  forgetReport();
  forgetCohorts();
  forgetReconcile();
  forgetValues();
  $('funnel-view').replaceWith(pristine.cloneNode(true));
  wireFunnel();
}

/** The view's controls, with the pickers' defaults; wired again whenever sign-out puts back a fresh copy. */
function wireFunnel() {
  setUpForm();
  const form = $('funnel-form');
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
  $('funnel-csv').addEventListener('click', downloadFunnel);
  wireCohorts();
  wireReconcile();
}

export function setUpFunnel() {
  pristine = $('funnel-view').cloneNode(true);
  wireFunnel();
}
