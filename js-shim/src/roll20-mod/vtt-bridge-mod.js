// vtt-bridge Mod (API) script for Roll20 (Pro games). Paste it into
// Settings > Mod (API) Scripts. Plain JavaScript for Roll20's sandbox: no
// imports, no network. The vtt-bridge userscript posts `!vtt-bridge ...`
// commands through the chat (invisible to everyone: `!` lines go to the Mod
// sandbox only) and this script applies them to the tokens.
//
//   !vtt-bridge ping nonce=<n> [secret=<s>]     answers "vtt-bridge pong <n>" to the sender
//   !vtt-bridge status actor=<id> token=<token id> name=<token name>
//                      set=<status,status|-> n=<key:value,...>
//   !vtt-bridge turn add token=<id> name=<name> pr=<value>
//   !vtt-bridge turn remove token=<id> name=<name>
//   !vtt-bridge turn clear
//   !vtt-bridge turn set list=<JSON [[token id|null, name, pr], ...]>
//                      the whole turn order from the bridge's combat tracker,
//                      top entry first (null token: a custom entry named name)
//   !vtt-bridge trust name=<player display name>     (GM only)
//   !vtt ...   any player's command (macros, abilities): whispered back to
//              that player with their secret, for their userscript to send
//
// Values are URL-encoded (encodeURIComponent). status/turn/trust are obeyed
// only from a GM or a player the GM trusted.

var VttBridgeMod = VttBridgeMod || (function () {
  'use strict';

  var VERSION = '0.1.0';
  var SPEAKER = 'vtt-bridge';

  // Canonical status -> Roll20 marker name. Edit to taste; a custom token
  // marker is written as Roll20 tags it, e.g. 'Aturdido::1234567'.
  var MARKERS = {
    stunned: 'pummeled',
    bleeding: 'bleeding-eye',
    incapacitated: 'interdiction',
    unconscious: 'sleepy',
    dead: 'dead',
    prone: 'back-pain',
    grappled: 'grab',
    impaired: 'snail',
    wounded: 'broken-heart',
    on_hold: 'stopwatch',
    joker: 'black-flag',
    aiming: 'archery-target',
    overwatch: 'sentry-gun',
    jammed: 'spanner',
    dodging: 'fluffy-wing',
    parrying: 'bolt-shield'
  };

  // Token numbers (from the bridge) -> bars. The first key present wins.
  var BARS = [
    { bar: 'bar1', value: ['pv', 'hp'], max: ['pv_max', 'hp_max'] },
    { bar: 'bar2', value: ['bennies'], max: [] },
    { bar: 'bar3', value: ['heridas', 'wounds'], max: [] }
  ];

  // The number a `wounded` marker shows (1-9), when the bridge sends it.
  var WOUND_KEYS = ['heridas', 'wounds'];

  function store() {
    if (!state.VttBridge) state.VttBridge = { version: VERSION, trusted: [], secrets: {} };
    if (!state.VttBridge.trusted) state.VttBridge.trusted = [];
    if (!state.VttBridge.secrets) state.VttBridge.secrets = {};
    return state.VttBridge;
  }

  function parseArgs(words) {
    var out = {};
    for (var i = 0; i < words.length; i += 1) {
      var at = words[i].indexOf('=');
      if (at <= 0) continue;
      var raw = words[i].slice(at + 1);
      try {
        out[words[i].slice(0, at)] = decodeURIComponent(raw);
      } catch (e) {
        out[words[i].slice(0, at)] = raw;
      }
    }
    return out;
  }

  function playerName(playerid) {
    var player = getObj('player', playerid);
    return player ? player.get('_displayname') : '';
  }

  function isGM(playerid) {
    return typeof playerIsGM === 'function' && playerIsGM(playerid);
  }

  function allowed(msg) {
    if (isGM(msg.playerid)) return true;
    return store().trusted.indexOf(msg.playerid) >= 0;
  }

  function quoted(name) {
    return '"' + String(name).replace(/"/g, '') + '"';
  }

  function reply(msg, text) {
    var target = isGM(msg.playerid) ? 'gm' : quoted(playerName(msg.playerid));
    sendChat(SPEAKER, '/w ' + target + ' ' + text, null, { noarchive: true });
  }

  function tokensFor(args) {
    if (args.token) {
      var byId = getObj('graphic', args.token);
      if (byId) return [byId];
    }
    var name = args.name;
    if (!name) return [];
    var page = Campaign().get('playerpageid');
    var found = findObjs({ _type: 'graphic', _subtype: 'token', name: name });
    var onPage = found.filter(function (t) { return t.get('_pageid') === page; });
    return onPage.length ? onPage : found;
  }

  function numbersOf(text) {
    var out = {};
    String(text || '').split(',').forEach(function (pair) {
      var at = pair.lastIndexOf(':');
      if (at <= 0) return;
      var value = parseInt(pair.slice(at + 1), 10);
      if (!isNaN(value)) out[pair.slice(0, at)] = value;
    });
    return out;
  }

  function first(numbers, keys) {
    for (var i = 0; i < keys.length; i += 1) {
      if (Object.prototype.hasOwnProperty.call(numbers, keys[i])) return numbers[keys[i]];
    }
    return undefined;
  }

  function applyStatus(args, msg) {
    var tokens = tokensFor(args);
    if (!tokens.length) {
      reply(msg, 'vtt-bridge: no token for ' + (args.name || args.token || args.actor || '?'));
      return 0;
    }
    var wanted = args.set && args.set !== '-' ? args.set.split(',') : [];
    var numbers = numbersOf(args.n);
    var wounds = first(numbers, WOUND_KEYS);
    tokens.forEach(function (token) {
      var changes = {};
      Object.keys(MARKERS).forEach(function (status) {
        var on = wanted.indexOf(status) >= 0;
        var value = on;
        if (on && status === 'wounded' && wounds > 0) value = Math.min(9, wounds);
        changes['status_' + MARKERS[status]] = value;
      });
      BARS.forEach(function (bar) {
        var value = first(numbers, bar.value);
        var max = first(numbers, bar.max);
        if (value !== undefined) changes[bar.bar + '_value'] = value;
        if (max !== undefined) changes[bar.bar + '_max'] = max;
      });
      token.set(changes);
    });
    return tokens.length;
  }

  function turnOrder() {
    var raw = Campaign().get('turnorder');
    if (!raw) return [];
    try {
      var list = JSON.parse(raw);
      return Array.isArray(list) ? list : [];
    } catch (e) {
      return [];
    }
  }

  function setTurnOrder(args, msg) {
    var list;
    try {
      list = JSON.parse(args.list || '[]');
    } catch (e) {
      reply(msg, 'vtt-bridge: bad turn list');
      return;
    }
    if (!Array.isArray(list)) return;
    var order = [];
    list.forEach(function (entry) {
      if (!Array.isArray(entry)) return;
      var name = String(entry[1] == null ? '' : entry[1]);
      var pr = String(entry[2] == null ? '' : entry[2]);
      var token = entry[0] ? tokensFor({ token: String(entry[0]), name: name })[0] : entry[0] === null ? null : tokensFor({ name: name })[0];
      if (token) order.push({ id: token.id, pr: pr, custom: '', _pageid: token.get('_pageid') });
      else order.push({ id: '-1', pr: pr, custom: name }); // no token on the board: by name
    });
    Campaign().set('turnorder', JSON.stringify(order));
  }
  function applyTurn(action, args, msg) {
    if (action === 'set') {
      setTurnOrder(args, msg);
      return;
    }
    var order = turnOrder();
    if (action === 'clear') {
      order = [];
    } else {
      var token = tokensFor(args)[0];
      if (!token) {
        reply(msg, 'vtt-bridge: no token for ' + (args.name || args.token || '?'));
        return;
      }
      order = order.filter(function (entry) { return entry.id !== token.id; });
      if (action === 'add') {
        order.push({ id: token.id, pr: String(args.pr || '0'), custom: '', _pageid: token.get('_pageid') });
        order.sort(function (a, b) { return (parseFloat(b.pr) || 0) - (parseFloat(a.pr) || 0); });
      }
    }
    Campaign().set('turnorder', JSON.stringify(order));
  }

  function trust(args, msg) {
    if (!isGM(msg.playerid)) return;
    var players = findObjs({ _type: 'player' }).filter(function (p) {
      return p.get('_displayname') === args.name || p.id === args.name;
    });
    players.forEach(function (p) {
      if (store().trusted.indexOf(p.id) < 0) store().trusted.push(p.id);
    });
    reply(msg, 'vtt-bridge: trusted ' + players.length);
  }

  function relay(msg) {
    // A `!vtt` line from a macro or an ability never reached the player's
    // userscript (`!` lines go to the sandbox): whisper it back, with the
    // secret that player's userscript registered, so it can tell it is ours.
    var secret = store().secrets[msg.playerid];
    if (!secret) return;
    var line = msg.content.replace(/^!vtt\s*/, '');
    var payload = encodeURIComponent(line);
    reply(msg, 'vtt-bridge relay ' + secret + ' ' + Date.now() + ' ' + payload);
  }

  function handle(msg) {
    if (msg.type !== 'api') return;
    var content = String(msg.content || '');
    if (/^!vtt(\s|$)/.test(content)) {
      relay(msg);
      return;
    }
    if (!/^!vtt-bridge(\s|$)/.test(content)) return;
    var words = content.split(/\s+/).slice(1);
    var verb = words.shift() || '';
    if (verb === 'ping') {
      var ping = parseArgs(words);
      if (ping.secret && /^[A-Za-z0-9_-]{8,64}$/.test(ping.secret)) store().secrets[msg.playerid] = ping.secret;
      reply(msg, 'vtt-bridge pong ' + String(ping.nonce || '').replace(/[^A-Za-z0-9_-]/g, '') + ' ' + VERSION);
      return;
    }
    if (verb === 'trust') {
      trust(parseArgs(words), msg);
      return;
    }
    if (!allowed(msg)) {
      reply(msg, 'vtt-bridge: only the GM (or a player the GM trusted) may change tokens.');
      return;
    }
    if (verb === 'status') {
      applyStatus(parseArgs(words), msg);
    } else if (verb === 'turn') {
      var action = words.shift() || '';
      if (action === 'add' || action === 'remove' || action === 'clear' || action === 'set') applyTurn(action, parseArgs(words), msg);
    }
  }

  function register() {
    store();
    on('chat:message', handle);
    log('vtt-bridge Mod script ' + VERSION + ' ready');
  }

  return { register: register, handle: handle, MARKERS: MARKERS, BARS: BARS, VERSION: VERSION };
})();

on('ready', function () {
  VttBridgeMod.register();
});
