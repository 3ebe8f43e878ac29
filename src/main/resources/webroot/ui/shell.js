// Sign-in and sign-out, and the two views as tabs.
import { $, KEY_STORE, api, show } from './dom.js';
import { endSignIn, whenKeyRefused } from './session.js';
import { followEvents, forgetEvents } from './events.js';
import { watchStrip } from './integrations.js';
import { forgetFunnel, funnelShown } from './funnel.js';

const VIEWS = ['events', 'funnel'];

async function signIn(event) {
  event.preventDefault();
  const key = $('api-key').value.trim();
  show($('sign-in-error'), false);
  try {
    await api('GET', '/integrations?window_hours=1', key);
  } catch (error) {
    $('sign-in-error').textContent = error.status === 401 ? 'That API key was not accepted.' : error.message;
    show($('sign-in-error'), true);
    return;
  }
  sessionStorage.setItem(KEY_STORE, key);
  $('api-key').value = '';
  start();
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
  show($('events-view'), false);
  show($('funnel-view'), false);
  show($('views'), false);
  show($('sign-out'), false);
  show($('sign-in-view'), true);
  $('sign-in-error').textContent = message || '';
  show($('sign-in-error'), Boolean(message));
  $('api-key').focus();
}

function start() {
  show($('sign-in-view'), false);
  show($('views'), true);
  showView(location.hash === '#funnel' ? 'funnel' : 'events');
  show($('sign-out'), true);
  watchStrip();
  followEvents();
}

/** Shows one view; the funnel is asked for the first time it is shown, not at sign-in. */
function showView(name) {
  for (const view of VIEWS) {
    const tab = $('tab-' + view);
    tab.setAttribute('aria-selected', String(view === name));
    tab.tabIndex = view === name ? 0 : -1;
    show($(view + '-view'), view === name);
  }
  document.title = 'event-router · ' + name;
  history.replaceState(null, '', name === 'funnel' ? '#funnel' : location.pathname + location.search);
  if (name === 'funnel') funnelShown();
}

/** Tabs as the ARIA pattern has them: a click or an arrow key selects (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/). */
function wireTabs() {
  for (const view of VIEWS) {
    const tab = $('tab-' + view);
    tab.addEventListener('click', () => showView(view));
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      const next = VIEWS[(VIEWS.indexOf(view) + step + VIEWS.length) % VIEWS.length];
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
}

/** The tab's workspace again after a reload, if it is still signed in; the sign-in form if not. */
export function resume() {
  if (sessionStorage.getItem(KEY_STORE)) {
    start();
  } else {
    signOut();
  }
}
