// Shows what the prelanding script did on the demo page: the session it made and how a bot would use it.
'use strict';

document.addEventListener('event-router:session', (event) => {
  const session = event.detail;
  document.getElementById('session-id').textContent = session.session_id;
  document.getElementById('start-link').textContent = document.getElementById('bot-link').href;
  document.getElementById('curl').textContent = [
    'curl -s -X POST ' + location.origin + '/api/v1/events/custom \\',
    "  -H 'x-api-key: demo-key-change-me' -H 'Content-Type: application/json' \\",
    "  -d '" + JSON.stringify({
      event_name: 'FTD', telegram_id: 123456789, workspace_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      session_id: session.session_id, value: 50, currency: 'USD',
    }) + "'",
  ].join('\n');
  document.getElementById('session').hidden = false;
  document.getElementById('waiting').hidden = true;
});
