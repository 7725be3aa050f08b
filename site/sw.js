/*
 * shedsim's service worker: keeps the site's own files, so that a reader
 * who has opened the site once over http(s) can open it again offline.
 * loader.js registers it on the site's own pages; under file://, where
 * no service worker runs, nothing changes.
 *
 * precache.js (go run ./tools/precache, run by make) lists the files and
 * a version that is a hash of their contents: each version is a cache of
 * its own, kept whole or not at all. The browser checks this script and
 * precache.js on every visit; a new version is fetched then and takes
 * over once no page of the old one is open (the next visit), so that a
 * page never mixes two versions' files. Requests are answered from the
 * cache, a page's address whatever its query (index.html?sale_rps=200 is
 * index.html), and anything else from the network.
 */
'use strict';

importScripts('precache.js');

var CACHE = 'shedsim-' + self.SHEDSIM_PRECACHE.version;

// keep fetches file and puts it in cache. A response that was
// redirected (a server that sends index.html to ./, as Go's file server
// and Netlify's pretty URLs do) is kept as a plain copy: the browser
// refuses a redirected response as the answer to a page's navigation.
function keep(cache, file) {
  return fetch(file, { cache: 'no-cache' }).then(function (r) {
    if (!r.ok) {
      throw new Error(file + ': HTTP ' + r.status);
    }
    if (r.redirected) {
      r = new Response(r.body, { status: r.status, statusText: r.statusText, headers: r.headers });
    }
    return cache.put(file, r);
  });
}

self.addEventListener('install', function (ev) {
  ev.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(self.SHEDSIM_PRECACHE.files.map(function (file) {
      return keep(cache, file);
    }));
  }).catch(function (err) {
    return caches.delete(CACHE).then(function () { throw err; }); // all or nothing
  }));
});

self.addEventListener('activate', function (ev) {
  ev.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) {
      return k.indexOf('shedsim-') === 0 && k !== CACHE;
    }).map(function (k) {
      return caches.delete(k);
    }));
  }).then(function () {
    return self.clients.claim(); // the first visit's page too
  }));
});

self.addEventListener('fetch', function (ev) {
  var req = ev.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) {
    return;
  }
  ev.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(req, { ignoreSearch: req.mode === 'navigate' }).then(function (hit) {
      return hit || fetch(req);
    });
  }));
});
