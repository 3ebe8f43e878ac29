/*
 * event-router prelanding kit, v1: records the ad click of this visit and sends the visitor to the bot with it.
 *
 *   <script src="https://ROUTER/sdk/v1/prelanding.js" async
 *           data-workspace="WORKSPACE_ID" data-key="PUBLISHABLE_KEY" data-bot="your_bot"></script>
 *
 * It reads the click ids from the page URL (fbclid, ttclid, gclid, gbraid, wbraid, ScCid; the server also reads them
 * and the utm_* parameters from the URL it is sent) and the pixels' cookies (_fbp, _fbc, _ttp, _scid), creates a
 * click session with the workspace's publishable key, and rewrites every link to the bot (t.me/<bot>,
 * telegram.me/<bot>, tg://resolve?domain=<bot>) to carry ?start=<session_id>. A link marked data-er-channel (to the
 * channel, <a href="https://t.me/yourchannel" data-er-channel>) becomes the visitor's own invite link when the workspace makes them (telegram.channel_id), so
 * their join request names this click; without one it keeps its href. It sets no cookie and stores nothing. When the
 * session is made it dispatches "event-router:session" on document, with {session_id, start_link, invite_link} as
 * detail.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !window.fetch) {
    return;
  }
  var workspace = script.getAttribute('data-workspace');
  var key = script.getAttribute('data-key');
  var bot = (script.getAttribute('data-bot') || '').replace(/^@/, '').toLowerCase();
  var api = new URL(script.src, location.href).origin + '/api/v1/sessions';
  // Telegram's start parameter: A-Z, a-z, 0-9, _ and -, at most 64 characters
  // (https://core.telegram.org/bots/features#deep-linking).
  var START = /^[A-Za-z0-9_-]{1,64}$/;
  // Values are checked here as the server checks them, so one odd cookie never costs the whole session.
  var VALID = {
    fbclid: /^[!-~]{1,500}$/,
    ttclid: /^[!-~]{1,500}$/,
    fbc: /^fb\.[0-9]{1,2}\.[0-9]{1,16}\.[!-~]{1,500}$/,
    fbp: /^fb\.[0-9]{1,2}\.[0-9]{1,16}\.[!-~]{1,100}$/,
    ttp: /^[!-~]{1,200}$/,
    gclid: /^[!-~]{1,500}$/,
    gbraid: /^[!-~]{1,500}$/,
    wbraid: /^[!-~]{1,500}$/,
    sccid: /^[!-~]{1,500}$/,
    scid: /^[!-~]{1,200}$/
  };

  function cookie(name) {
    var parts = document.cookie ? document.cookie.split('; ') : [];
    for (var i = 0; i < parts.length; i++) {
      var eq = parts[i].indexOf('=');
      if (parts[i].slice(0, eq) === name) {
        try {
          return decodeURIComponent(parts[i].slice(eq + 1));
        } catch (e) {
          return null;
        }
      }
    }
    return null;
  }

  function put(body, name, value) {
    if (value && VALID[name].test(value)) {
      body[name] = value;
    }
  }

  /** The bot a link opens, lowercase, or null when it is no Telegram link. */
  function botOf(url) {
    if (url.protocol === 'tg:') {
      return url.pathname.replace(/^\/+/, '') === 'resolve' || url.host === 'resolve'
        ? (url.searchParams.get('domain') || '').toLowerCase() : null;
    }
    if (!/^(www\.)?(t\.me|telegram\.me)$/i.test(url.hostname)) {
      return null;
    }
    var name = url.pathname.split('/')[1] || '';
    return /^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(name) ? name.toLowerCase() : null;
  }

  // An invite link as the Bot API makes one: https://t.me/+<hash>.
  var INVITE = /^https:\/\/t\.me\/\+[A-Za-z0-9_-]{1,64}$/;

  function rewrite(sessionId, inviteLink) {
    if (inviteLink && INVITE.test(inviteLink)) {
      var channels = document.querySelectorAll('a[data-er-channel]');
      for (var c = 0; c < channels.length; c++) {
        channels[c].setAttribute('href', inviteLink);
      }
    }
    var links = document.querySelectorAll('a[href]:not([data-er-channel])');
    for (var i = 0; i < links.length; i++) {
      var url;
      try {
        url = new URL(links[i].getAttribute('href'), location.href);
      } catch (e) {
        continue;
      }
      var linked = botOf(url);
      if (linked && (!bot || linked === bot)) {
        url.searchParams.set('start', sessionId);
        links[i].setAttribute('href', url.toString());
      }
    }
  }

  // Snapchat's click id is ScCid in the URL (https://developers.snap.com/api/marketing-api/Conversions-API/UsingTheAPI);
  // hand-made links write it in other cases too.
  function sccid(params) {
    var found = null;
    params.forEach(function (value, name) {
      if (found === null && name.toLowerCase() === 'sccid') {
        found = value;
      }
    });
    return found;
  }

  var params = new URLSearchParams(location.search);
  var body = { workspace_id: workspace };
  if (location.href.length <= 2048) {
    body.landing_url = location.href;
  }
  put(body, 'fbclid', params.get('fbclid'));
  put(body, 'ttclid', params.get('ttclid'));
  put(body, 'fbc', cookie('_fbc'));
  put(body, 'fbp', cookie('_fbp'));
  put(body, 'ttp', cookie('_ttp'));
  put(body, 'gclid', params.get('gclid'));
  put(body, 'gbraid', params.get('gbraid'));
  put(body, 'wbraid', params.get('wbraid'));
  put(body, 'sccid', sccid(params));
  put(body, 'scid', cookie('_scid'));

  fetch(api, {
    method: 'POST',
    mode: 'cors',
    credentials: 'omit',
    keepalive: true,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body)
  }).then(function (response) {
    return response.ok ? response.json() : null;
  }).then(function (answer) {
    var session = answer && answer.data;
    if (!session || !START.test(session.session_id)) {
      return;
    }
    var apply = function () {
      rewrite(session.session_id, session.invite_link);
      document.dispatchEvent(new CustomEvent('event-router:session', { detail: session }));
    };
    if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', apply);
    } else {
      apply();
    }
  })['catch'](function () {
    // The page keeps its plain bot links: the visitor still reaches the bot, unattributed.
  });
})();
