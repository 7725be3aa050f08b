/*
 * shedsim workers: the engine's runs, off the page's main thread.
 *
 * The loader starts this pool with the compiled engine (a
 * WebAssembly.Module), which it posts to every worker: each instantiates
 * it, starts a Go runtime of its own, and answers runs with the
 * module's shedsim.run, the same bytes the page's own runtime would
 * give. Workers start from a blob URL, which works on a page opened from
 * disk too; the blob holds Go's wasm_exec.js, read from wasm_exec.text.js
 * (a string, since nothing can fetch a file beside a page opened from
 * disk), and workerMain below.
 *
 *   shedsimWorkers.start(module, base)  a promise, resolved once the pool
 *                                        can take runs, rejected if this
 *                                        page cannot have workers
 *   shedsimWorkers.run(config, whole, done, later)  runs config (JSON)
 *                                        on the next free worker; done(totals,
 *                                        windows) gets the Result without its
 *                                        windows (shedsim.runTotals) and, if
 *                                        whole, the windows as float64s
 *                                        (shedsim.runParts), else null.
 *                                        With later (the seeds' runs), it
 *                                        waits until no run without it is
 *                                        queued: the advice's next round,
 *                                        sent after the seeds, still goes
 *                                        before them. Returns an id.
 *   shedsimWorkers.measure(config, seeds, done)  measures one setting of
 *                                        a sweep or a map: config (JSON) at
 *                                        seeds seeds from its own, on the
 *                                        next free worker; done(outcome)
 *                                        gets shedsim.runOutcome's JSON.
 *                                        Returns an id, as run does.
 *   shedsimWorkers.cancel(id)           forgets a run: a queued one is
 *                                        dropped (in the worker too, if it
 *                                        holds it), a running one's worker
 *                                        is stopped and replaced
 *   shedsimWorkers.size                 how many workers: the machine's
 *                                        cores (navigator.hardwareConcurrency),
 *                                        at most 8
 *
 * A page that cannot have workers (a host page's Content-Security-Policy
 * without worker-src blob:, say) still works: the runs are then made on
 * the main thread, one a task, with the page's own shedsim.run, and the
 * console says why.
 */
(function () {
  'use strict';

  if (window.shedsimWorkers) {
    return;
  }

  // workerMain is each worker's program, written into its blob after
  // wasm_exec.js: it never runs on the page.
  function workerMain() {
    var api = null;
    // waiting are the jobs received and not started, oldest first: a
    // worker may hold a sweep's next setting while it measures one
    // (feed), and takes it as soon as it has answered, without waiting
    // for the page's main thread to send it. Each job runs in a task of
    // its own (tick), so that a message dropping a job that has not
    // started is read first.
    var waiting = [];
    var due = false;
    var tick = new MessageChannel();
    tick.port1.onmessage = function () {
      due = false;
      var job = waiting.shift();
      if (job) {
        answer(job);
      }
      later();
    };
    function later() {
      if (api && waiting.length && !due) {
        due = true;
        tick.port2.postMessage(null);
      }
    }
    // A run the page only compares comes back as its totals
    // (shedsim.runTotals): its windows, which only the chosen policy's
    // chart draws, stay here, so the page's main thread decodes a few
    // hundred bytes, not tens of kilobytes.
    // The chosen policy's run (whole) comes as its totals and its windows
    // as float64s (shedsim.runParts), which cost the page far less to
    // read than JSON; the buffer is handed over, not copied.
    function answer(job) {
      var out, windows = null;
      try {
        if (job.seeds) {
          out = api.runOutcome(job.config, job.seeds);
        } else if (job.whole) {
          var parts = api.runParts(job.config);
          out = parts.totals;
          windows = parts.windows || null;
        } else {
          out = api.runTotals(job.config);
        }
      } catch (err) {
        out = JSON.stringify({ error: 'the worker\'s engine failed: ' + (err && err.message ? err.message : String(err)) });
      }
      postMessage({ id: job.id, result: out, windows: windows }, windows ? [windows.buffer] : []);
    }
    onmessage = function (ev) {
      var m = ev.data;
      if (m.module) {
        var go = new Go();
        WebAssembly.instantiate(m.module, go.importObject).then(function (instance) {
          go.run(instance);
          api = self.shedsim;
          postMessage({ ready: true });
          later();
        }, function (err) {
          postMessage({ failed: String(err && err.message ? err.message : err) });
        });
        return;
      }
      if (m.drop) {
        waiting = waiting.filter(function (job) { return job.id !== m.drop; });
        return;
      }
      waiting.push(m);
      later();
    };
  }

  var size = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8));
  var module = null;
  var url = null;
  var workers = [];
  var queue = []; // jobs not started: {id, config, done}
  var laterQueue = []; // jobs not started that wait for queue to empty
  var nextID = 1;
  var started = null;
  var onMainThread = false;

  function spawn() {
    var w = new Worker(url);
    w.jobs = []; // sent and not answered, oldest (the one running) first
    w.onmessage = function (ev) {
      var m = ev.data;
      if (m.ready) {
        w.ready = true;
        if (w.onready) {
          w.onready();
        }
        feed();
        return;
      }
      if (m.failed) {
        console.error('shedsim: a worker could not start the engine: ' + m.failed);
        return;
      }
      // The answer is to the oldest job sent; one dropped (cancel) is
      // no longer in jobs, and its answer is ignored.
      var job = w.jobs.length && w.jobs[0].id === m.id ? w.jobs.shift() : null;
      feed();
      if (job) {
        job.done(m.result, m.windows);
      }
    };
    w.onerror = function (ev) {
      console.error('shedsim: a worker failed: ' + (ev.message || 'it did not load (a Content-Security-Policy without worker-src blob:?)'));
    };
    w.postMessage({ module: module });
    return w;
  }

  // next takes the job to start next: the oldest in queue, else the
  // oldest of those sent later.
  function next() {
    return queue.length ? queue.shift() : laterQueue.shift();
  }

  // takes says whether worker w takes another job now: one if it has
  // none; a second, to start once it answers the first, only when both
  // are settings of a sweep or a map (measure), so that a worker never
  // waits for the page's main thread (busy drawing, say) between two of
  // a request's hundreds of settings. The simulator's runs go one at a
  // time, so that a run sent later but first in queue (the advice's
  // next round) is never behind one a worker holds.
  function takes(w) {
    if (!w.ready || w.jobs.length >= 2) {
      return false;
    }
    if (!w.jobs.length) {
      return true;
    }
    var job = queue.length ? queue[0] : laterQueue[0];
    return !!(job && job.seeds && w.jobs[0].seeds);
  }

  // feed gives queued jobs to idle, started workers, oldest job first
  // (next); without workers, it runs the next here, in a task of its own.
  function feed() {
    if (onMainThread) {
      if ((queue.length || laterQueue.length) && !feed.pending) {
        feed.pending = setTimeout(function () {
          feed.pending = 0;
          var job = next();
          if (job) {
            if (job.seeds) {
              job.done(window.shedsim.runOutcome(job.config, job.seeds), null);
            } else if (job.whole) {
              var parts = window.shedsim.runParts(job.config);
              job.done(parts.totals, parts.windows || null);
            } else {
              job.done(window.shedsim.runTotals(job.config), null);
            }
          }
          feed();
        }, 0);
      }
      return;
    }
    // Every idle worker gets a job before any gets a second.
    for (var round = 1; round <= 2; round++) {
      for (var i = 0; i < workers.length && (queue.length || laterQueue.length); i++) {
        var w = workers[i];
        if (w.jobs.length < round && takes(w)) {
          var job = next();
          w.jobs.push(job);
          w.postMessage({ id: job.id, config: job.config, whole: job.whole, seeds: job.seeds });
        }
      }
    }
    // Once nothing is queued, a worker with nothing to do takes the job
    // another holds and has not started, so that at a request's end
    // neither waits while the other measures two. (If that one has started
    // it after all, its answer is ignored.)
    for (var a = 0; a < workers.length && !queue.length && !laterQueue.length; a++) {
      var idle = workers[a];
      for (var b = 0; b < workers.length && idle.ready && !idle.jobs.length; b++) {
        if (workers[b].jobs.length === 2) {
          var stolen = workers[b].jobs.pop();
          workers[b].postMessage({ drop: stolen.id });
          idle.jobs.push(stolen);
          idle.postMessage({ id: stolen.id, config: stolen.config, whole: stolen.whole, seeds: stolen.seeds });
        }
      }
    }
  }

  function start(mod, base) {
    if (started) {
      return started;
    }
    started = new Promise(function (resolve, reject) {
      if (typeof Worker !== 'function' || typeof Blob !== 'function') {
        reject(new Error('this browser has no Web Workers'));
        return;
      }
      var text = function () {
        var src = window.SHEDSIM_WASM_EXEC;
        if (typeof src !== 'string') {
          throw new Error('wasm_exec.text.js did not define SHEDSIM_WASM_EXEC');
        }
        return src;
      };
      var have = typeof window.SHEDSIM_WASM_EXEC === 'string';
      var loaded = have ? Promise.resolve() : new Promise(function (ok, fail) {
        var s = document.createElement('script');
        s.src = base + 'wasm_exec.text.js';
        s.onload = function () { ok(); };
        s.onerror = function () { fail(new Error('could not load wasm_exec.text.js')); };
        (document.head || document.documentElement).appendChild(s);
      });
      loaded.then(function () {
        module = mod;
        url = URL.createObjectURL(new Blob([text(), '\n;(', workerMain.toString(), ')();\n'], { type: 'text/javascript' }));
        // The first worker that starts says the pool works; a page whose
        // Content-Security-Policy forbids blob workers throws here, or
        // the worker fails to load.
        var first = spawn();
        first.onready = function () {
          first.onready = null;
          resolve(api);
        };
        first.addEventListener('error', function (ev) {
          if (!first.ready) {
            reject(new Error('a worker could not start: ' + (ev.message || 'blocked')));
          }
        });
        workers.push(first);
        for (var i = 1; i < size; i++) {
          workers.push(spawn());
        }
      }).catch(reject);
    });
    started.catch(function (err) {
      console.warn('shedsim: no workers (' + err.message + '); the engine runs on the page\'s main thread');
      for (var i = 0; i < workers.length; i++) {
        workers[i].terminate();
      }
      workers = [];
      onMainThread = true;
      feed();
    });
    return started;
  }

  function run(config, whole, done, later) {
    var id = nextID++;
    (later ? laterQueue : queue).push({ id: id, config: config, whole: !!whole, later: !!later, done: done });
    feed();
    return id;
  }

  function measure(config, seeds, done) {
    var id = nextID++;
    queue.push({ id: id, config: config, seeds: seeds, done: done });
    feed();
    return id;
  }

  function cancel(id) {
    var queues = [queue, laterQueue];
    for (var q = 0; q < queues.length; q++) {
      for (var i = 0; i < queues[q].length; i++) {
        if (queues[q][i].id === id) {
          queues[q].splice(i, 1);
          return;
        }
      }
    }
    for (var j = 0; j < workers.length; j++) {
      var w = workers[j];
      var at = -1;
      for (var k = 0; k < w.jobs.length; k++) {
        if (w.jobs[k].id === id) {
          at = k;
        }
      }
      if (at > 0) {
        // Not started (the worker runs its jobs in order): dropped there,
        // and an answer that comes anyway is ignored.
        w.jobs.splice(at, 1);
        w.postMessage({ drop: id });
        return;
      }
      if (at === 0) {
        // A run cannot be interrupted: its worker is stopped, and a new
        // one starts from the same compiled module; a job it held after
        // it goes back to the front of its queue.
        w.onmessage = null;
        w.terminate();
        for (var r = w.jobs.length - 1; r >= 1; r--) {
          (w.jobs[r].later ? laterQueue : queue).unshift(w.jobs[r]);
        }
        workers[j] = spawn();
        feed();
        return;
      }
    }
  }

  var api = { start: start, run: run, measure: measure, cancel: cancel, size: size };
  window.shedsimWorkers = api;
})();
