// A small fake of the Roll20 Mod (API) sandbox: on, sendChat, getObj,
// findObjs, Campaign, playerIsGM, state, log, and objects with get/set.
// Plain script: node tests run it in a vm context, the fixture page loads it
// with a <script> tag. `installFakeRoll20(scope)` puts the globals on scope.
(function (root) {
  'use strict';

  function makeObj(type, props) {
    var data = Object.assign({ _type: type }, props);
    var obj = {
      id: data._id,
      get: function (key) {
        if (key === 'id') return data._id;
        if (key in data) return data[key];
        return data['_' + key];
      },
      set: function (key, value) {
        var changes = typeof key === 'object' ? key : { [key]: value };
        Object.keys(changes).forEach(function (k) {
          data[k] = changes[k];
        });
        obj.setCalls.push(changes);
      },
      setCalls: [],
      data: data,
    };
    return obj;
  }

  function installFakeRoll20(scope, options) {
    options = options || {};
    var handlers = {};
    var objects = [];
    var chat = []; // {speaker, text} from sendChat
    var logs = [];
    var campaign = makeObj('campaign', { _id: 'root', turnorder: '', playerpageid: 'page1' });
    var gms = options.gms || [];

    scope.state = {};
    scope.log = function (text) {
      logs.push(String(text));
    };
    scope.on = function (event, fn) {
      (handlers[event] = handlers[event] || []).push(fn);
    };
    scope.sendChat = function (speaker, text) {
      chat.push({ speaker: speaker, text: String(text) });
      if (options.onChat) options.onChat(speaker, String(text));
    };
    scope.getObj = function (type, id) {
      return objects.find(function (o) { return o.data._type === type && o.data._id === id; }) || undefined;
    };
    scope.findObjs = function (attrs) {
      return objects.filter(function (o) {
        return Object.keys(attrs).every(function (k) {
          return o.get(k.replace(/^_/, '')) === attrs[k] || o.data[k] === attrs[k];
        });
      });
    };
    scope.Campaign = function () {
      return campaign;
    };
    scope.playerIsGM = function (id) {
      return gms.indexOf(id) >= 0;
    };

    var api = {
      chat: chat,
      logs: logs,
      campaign: campaign,
      add: function (type, props) {
        var obj = makeObj(type, props);
        objects.push(obj);
        return obj;
      },
      fire: function (event) {
        var args = Array.prototype.slice.call(arguments, 1);
        (handlers[event] || []).forEach(function (fn) { fn.apply(null, args); });
      },
      /** A chat line typed by a player: `!` lines arrive as type "api". */
      say: function (playerid, content, who) {
        api.fire('chat:message', {
          type: String(content).charAt(0) === '!' ? 'api' : 'general',
          content: String(content),
          playerid: playerid,
          who: who || playerid,
        });
      },
    };
    return api;
  }

  root.installFakeRoll20 = installFakeRoll20;
})(typeof globalThis !== 'undefined' ? globalThis : this);
