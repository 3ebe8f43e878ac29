// What the signed-in key may do (GET /api/v1/access): the header says who is signed in, with a buyer's scope, and
// every element whose data-needs names a permission the key lacks is hidden (its data is never asked for either).
import { $, show } from './dom.js';

const SHOWN_IDS = 5;
let access = null;

export function setAccess(answer) {
  access = answer;
}

/** Whether the key may: read, read_all (what no buyer's scope narrows), act, audit. */
export function can(what) {
  return Boolean(access && access.can[what]);
}

export function applyAccess() {
  for (const node of document.querySelectorAll('[data-needs]')) show(node, can(node.dataset.needs));
  $('key-role').textContent = access ? describe(access) : '';
}

/** A scope of up to 1,000 ids, named by its first few. */
function ids(what, list) {
  if (!list || !list.length) return null;
  const named = list.slice(0, SHOWN_IDS).join(', ');
  return what + ' ' + (list.length > SHOWN_IDS ? named + ' and ' + (list.length - SHOWN_IDS) + ' more' : named);
}

function describe(key) {
  const parts = [key.key_name, key.role];
  if (key.scope) {
    parts.push(ids('campaigns', key.scope.campaign_ids), ids('ad accounts', key.scope.ad_account_ids));
  }
  if (key.expires_at) parts.push('expires ' + new Date(key.expires_at).toLocaleString());
  return parts.filter(Boolean).join(' · ');
}

/** At sign-out: the key's role, scope and permissions are forgotten, and what they showed hidden. */
export function forgetAccess() {
  access = null;
  applyAccess();
}
