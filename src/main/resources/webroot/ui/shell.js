// Sign-in and sign-out, and the views as tabs.
import { $, KEY_STORE, api, show } from './dom.js';
import { endSignIn, whenKeyRefused } from './session.js';
import { followEvents, forgetEvents } from './events.js';
import { watchStrip } from './integrations.js';
import { forgetFunnel, funnelShown } from './funnel.js';
import { auditShown, forgetAudit, setUpAudit } from './audit.js';
import { applyAccess, can, forgetAccess, setAccess } from './access.js';

const VIEWS = ['events', 'funnel', 'audit'];
const INGEST_ONLY = 'That is an ingest key: it posts events and reads nothing. Sign in with a viewer, buyer or admin '
  + 'key.';

/** What the key is (GET /api/v1/access); throws as the API does, or with the ingest key's message. */
async function accessOf(key) {
  const access = await api('GET', '/access', key);
  if (access.role === 'ingest' || !access.can.read) {
    const error = new Error(INGEST_ONLY);
    error.status = 403;
    throw error;
  }
  return access;
}

async function signIn(event) {
  event.preventDefault();
  const key = $('api-key').value.trim();
  show($('sign-in-error'), false);
  let access;
  try {
    access = await accessOf(key);
  } catch (error) {
    $('sign-in-error').textContent = error.status === 401 ? 'That API key was not accepted.' : error.message;
    show($('sign-in-error'), true);
    return;
  }
  sessionStorage.setItem(KEY_STORE, key);
  $('api-key').value = '';
  start(access);
}

/**
 * Forgets the workspace: its key, every timer, every answer held, and every element that showed them (the views are
 * put back as they were served), so the next workspace signed in to this tab sees nothing of the last one.
 */
function signOut(message) {
  sessionStorage.removeItem(KEY_STORE);
  endSignIn();
  forgetEvents();
  forgetFunnel();
  forgetAudit();
  forgetAccess();
  for (const view of VIEWS) show($(view + '-view'), false);
  show($('views'), false);
  show($('sign-out'), false);
  show($('sign-in-view'), true);
  $('sign-in-error').textContent = message || '';
  show($('sign-in-error'), Boolean(message));
  $('api-key').focus();
}

function start(access) {
  setAccess(access);
  applyAccess();
  show($('sign-in-view'), false);
  show($('views'), true);
  showView(location.hash === '#funnel' ? 'funnel' : location.hash === '#audit' ? 'audit' : 'events');
  show($('sign-out'), true);
  watchStrip();
  followEvents();
}

/** The tabs the key may open. */
function views() {
  return VIEWS.filter((view) => view !== 'audit' || can('audit'));
}

/** Shows one view; the funnel and the audit log are asked for when shown, not at sign-in. */
function showView(asked) {
  const name = views().includes(asked) ? asked : 'events';
  for (const view of VIEWS) {
    const tab = $('tab-' + view);
    tab.setAttribute('aria-selected', String(view === name));
    tab.tabIndex = view === name ? 0 : -1;
    show($(view + '-view'), view === name);
  }
  document.title = 'event-router · ' + name;
  history.replaceState(null, '', name === 'events' ? location.pathname + location.search : '#' + name);
  if (name === 'funnel') funnelShown();
  if (name === 'audit') auditShown();
}

/** Tabs as the ARIA pattern has them: a click or an arrow key selects (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/). */
function wireTabs() {
  for (const view of VIEWS) {
    const tab = $('tab-' + view);
    tab.addEventListener('click', () => showView(view));
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      const open = views();
      const next = open[(open.indexOf(view) + step + open.length) % open.length];
      showView(next);
      $('tab-' + next).focus();
    });
  }
}

export function setUpShell() {
  whenKeyRefused(() => signOut('The API key is no longer accepted. Sign in again.'));
  $('sign-in').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', () => signOut());
  wireTabs();
  setUpAudit();
}

/**
 * The tab's workspace again after a reload, if its key is still accepted; the sign-in form if not. When the service
 * cannot say (it is restarting, the network dropped), the key is kept for the next reload.
 */
export async function resume() {
  const key = sessionStorage.getItem(KEY_STORE);
  if (!key) {
    signOut();
    return;
  }
  try {
    start(await accessOf(key));
  } catch (error) {
    if (error.status === 401 || error.status === 403) {
      signOut(error.status === 401 ? 'The API key is no longer accepted. Sign in again.' : error.message);
      return;
    }
    signOut('The service did not answer (' + error.message + '). Reload the page to try again.');
    sessionStorage.setItem(KEY_STORE, key);
  }
}
