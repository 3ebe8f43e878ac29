// The audit log (GET /api/v1/audit), for admins: each action (redeliver, test, pause, resume, poll now) and config
// reload with the key that took it, its target and its outcome, newest first, older pages on demand.
import { $, el, show, when } from './dom.js';
import { read } from './session.js';

const audit = { before: null, generation: 0 };

/** The view is shown: the newest entries are read again. */
export function auditShown() {
  audit.generation++;
  audit.before = null;
  $('audit').tBodies[0].replaceChildren();
  loadAudit();
}

async function loadAudit() {
  const generation = audit.generation;
  const query = new URLSearchParams({ limit: '50' });
  if (audit.before !== null) query.set('before', String(audit.before));
  show($('audit-error'), false);
  const page = await read('/audit?' + query, $('audit-error'));
  if (!page || generation !== audit.generation) return;
  $('audit').tBodies[0].append(...page.entries.map(row));
  audit.before = page.next_before;
  show($('audit-older'), page.next_before !== null);
  show($('audit-empty'), !$('audit').tBodies[0].rows.length);
}

function row(entry) {
  const tr = el('tr');
  tr.append(el('td', null, when(entry.at)), el('td', null, entry.key_name), el('td', 'mono', entry.action),
    el('td', 'mono', entry.target), el('td', null, entry.outcome));
  return tr;
}

/** At sign-out: no entry stays, and none asked for before is taken. */
export function forgetAudit() {
  audit.generation++;
  audit.before = null;
  $('audit').tBodies[0].replaceChildren();
  for (const id of ['audit-older', 'audit-empty', 'audit-error']) show($(id), false);
}

export function setUpAudit() {
  $('audit-older').addEventListener('click', loadAudit);
}
