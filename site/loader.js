/*
 * shedsim loader: starts the simulator's Go runtime (sim.wasm) once per
 * page and defines the <shed-sim> element. One classic script, no
 * modules, so that the page also works opened from disk (file://), where
 * Chromium refuses fetch and ES modules.
 *
 *   <script src="https://example.org/shedsim/loader.js"></script>
 *   <shed-sim sale_rps="200" policy="bounded"></shed-sim>
 *
 * Over http(s) it streams sim.wasm (WebAssembly.instantiateStreaming,
 * falling back to an ArrayBuffer); under file://, or when that fails, it
 * loads sim.wasm.js with a <script> tag, which holds the same module as
 * base64, and decodes it. wasm_exec.js (Go's glue) is loaded the same way
 * when Go is not defined yet. Every file is looked up beside this script.
 *
 * window.shedsimLoader.ready() is a promise of the global shedsim object
 * (see wasm/main_js.go for its functions). <html data-shedsim> is
 * "loading", "ready" or "error". Widgets dispatch bubbling events:
 * shedsim:result, shedsim:clients (the simulator page), shedsim:lab,
 * shedsim:plan, shedsim:invalid and shedsim:error.
 */
(function () {
  'use strict';

  if (window.shedsimLoader) {
    return; // loaded twice: the first copy does everything
  }

  // A printout shows what <details> hide on screen (the chart as a table,
  // the fluid view): shedsim's own are opened for the print and closed
  // again after it; a host page's are left alone.
  var SHEDSIM_DETAILS = 'shed-sim details:not([open]), [data-shedsim-page] details:not([open])';
  window.addEventListener('beforeprint', function () {
    var closed = document.querySelectorAll(SHEDSIM_DETAILS);
    for (var i = 0; i < closed.length; i++) {
      closed[i].setAttribute('data-shedsim-print', '');
      closed[i].open = true;
    }
  });
  window.addEventListener('afterprint', function () {
    var opened = document.querySelectorAll('details[data-shedsim-print]');
    for (var i = 0; i < opened.length; i++) {
      opened[i].removeAttribute('data-shedsim-print');
      opened[i].open = false;
    }
  });

  var script = document.currentScript;
  var base = script && script.src ? script.src.replace(/[^\/]*$/, '') : '';
  var protocol = base ? base.slice(0, base.indexOf(':') + 1) : location.protocol;

  // Config keys (the element's attributes), plus sample and kind.
  var KEYS = ['policy', 'workers', 'service_ms', 'normal_rps', 'sale_rps', 'sale_start_s', 'sale_s',
    'duration_s', 'timeout_ms', 'retries', 'retry_delay_ms', 'retry_jitter_ms', 'queue', 'refusal_cost_ms',
    'order_share', 'codel_target_ms', 'codel_interval_ms', 'client', 'backoff_base_ms', 'backoff_cap_ms',
    'budget_tokens', 'budget_refusal_cost', 'budget_timeout_cost', 'budget_refill', 'ratio_max',
    'throttle_k', 'client_window_s', 'seed', 'sample', 'kind',
    'rate_rps', 'target', 'limit_ms'];
  // Attributes every element may carry, which are not settings.
  var GLOBAL_ATTRS = /^(class|id|style|hidden|title|lang|dir|tabindex|role|slot|part|nonce|aria-.*|data-.*)$/;

  var runtime = null;
  var go = null;
  var state = 'loading';

  function setState(s) {
    state = s;
    document.documentElement.setAttribute('data-shedsim', s);
  }

  function loadScript(name) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = base + name;
      s.onload = function () { resolve(); };
      s.onerror = function () { reject(new Error('could not load ' + name + ' from ' + (base || 'this page\'s folder'))); };
      (document.head || document.documentElement).appendChild(s);
    });
  }

  function decodeBase64(b64) {
    var bin = atob(b64);
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) {
      bytes[i] = bin.charCodeAt(i);
    }
    return bytes;
  }

  // The module from sim.wasm.js: works under file://.
  function fromScript(imports) {
    var have = typeof window.SHEDSIM_WASM_BASE64 === 'string';
    return (have ? Promise.resolve() : loadScript('sim.wasm.js')).then(function () {
      var b64 = window.SHEDSIM_WASM_BASE64;
      if (typeof b64 !== 'string') {
        throw new Error('sim.wasm.js did not define SHEDSIM_WASM_BASE64');
      }
      window.SHEDSIM_WASM_BASE64 = undefined; // let the 8 MB string go
      return WebAssembly.instantiate(decodeBase64(b64), imports);
    });
  }

  // The module from sim.wasm: streamed, else as an ArrayBuffer.
  function fromNetwork(imports) {
    var url = base + 'sim.wasm';
    function viaBuffer() {
      return fetch(url).then(function (r) {
        if (!r.ok) {
          throw new Error(url + ': HTTP ' + r.status);
        }
        return r.arrayBuffer();
      }).then(function (b) {
        return WebAssembly.instantiate(b, imports);
      });
    }
    if (!WebAssembly.instantiateStreaming) {
      return viaBuffer();
    }
    return WebAssembly.instantiateStreaming(fetch(url), imports).catch(viaBuffer);
  }

  // start starts the one Go runtime of the page; every widget shares it.
  function start() {
    if (runtime) {
      return runtime;
    }
    setState('loading');
    var t0 = performance.now();
    runtime = (typeof Go === 'function' ? Promise.resolve() : loadScript('wasm_exec.js')).then(function () {
      if (typeof WebAssembly !== 'object') {
        throw new Error('this browser has no WebAssembly');
      }
      go = new Go();
      var module = /^https?:$/.test(protocol)
        ? fromNetwork(go.importObject).catch(function (err) {
          console.warn('shedsim: sim.wasm failed (' + err.message + '); trying sim.wasm.js');
          return fromScript(go.importObject).catch(function (err2) {
            throw new Error('sim.wasm: ' + err.message + '; ' + err2.message);
          });
        })
        : fromScript(go.importObject);
      return module;
    }).then(function (result) {
      var instance = result.instance || result;
      // run executes main until it blocks, so shedsim exists on return.
      go.run(instance).then(function () {
        stopped('The simulator stopped unexpectedly. Reload the page to start it again.');
      });
      if (!window.shedsim) {
        throw new Error('the module started but did not register shedsim');
      }
      var ms = performance.now() - t0;
      console.log('shedsim: runtime ready in ' + ms.toFixed(0) + ' ms (' + window.shedsim.version + ')');
      window.shedsimLoader.readyMS = ms;
      setState('ready');
      return window.shedsim;
    });
    runtime.catch(function (err) {
      console.error('shedsim:', err);
      stopped('The simulator could not start: ' + (err && err.message ? err.message : err) +
        '. Try reloading the page; the command line (shedsim) runs the same model.');
    });
    return runtime;
  }

  // hosts are the elements the simulator draws into.
  function hosts() {
    return document.querySelectorAll('shed-sim, [data-shedsim-page]');
  }

  function showError(el, msg) {
    var box = el.querySelector(':scope > .shedsim-fatal');
    if (!box) {
      box = document.createElement('p');
      box.className = 'shedsim-error shedsim-fatal';
      box.setAttribute('role', 'alert');
      el.insertBefore(box, el.firstChild);
    }
    box.textContent = msg;
    var loading = el.querySelector(':scope > .shedsim-loading');
    if (loading) {
      loading.remove();
    }
  }

  // stopped shows msg on every widget: never a dead page.
  function stopped(msg) {
    if (state === 'error') {
      return;
    }
    setState('error');
    var list = hosts();
    for (var i = 0; i < list.length; i++) {
      showError(list[i], msg);
      list[i].dispatchEvent(new CustomEvent('shedsim:error', { bubbles: true, detail: { error: msg } }));
    }
  }

  // A Content-Security-Policy that forbids what the simulator needs
  // (scripts beside the loader, 'wasm-unsafe-eval') is worth naming.
  document.addEventListener('securitypolicyviolation', function (ev) {
    console.error('shedsim: the Content-Security-Policy blocked ' + ev.blockedURI + ' (' + ev.violatedDirective + ')');
  });

  // A Go panic that escapes ends the runtime; calls after that throw.
  window.addEventListener('error', function (ev) {
    if (go && go.exited) {
      stopped('The simulator stopped after an error: ' + (ev.message || 'unknown') + '. Reload the page to start it again.');
    }
  });

  function loadingNote(el, what) {
    if (!el.querySelector(':scope > .shedsim-loading') && !el.querySelector('.shedsim')) {
      var p = document.createElement('p');
      p.className = 'shedsim-loading';
      p.setAttribute('role', 'status');
      p.textContent = 'Loading the ' + what + '…';
      el.appendChild(p);
    }
  }

  // attrsOf collects an element's settings: every attribute that is not a
  // global one, so that a misspelt setting is reported, not ignored.
  function attrsOf(el) {
    var out = { base: base };
    for (var i = 0; i < el.attributes.length; i++) {
      var a = el.attributes[i];
      if (!GLOBAL_ATTRS.test(a.name)) {
        out[a.name] = a.value;
      }
    }
    return out;
  }

  var Base = typeof HTMLElement === 'function' ? HTMLElement : function () {};

  class ShedSim extends Base {
    static get observedAttributes() { return KEYS; }

    connectedCallback() { this.schedule(); }

    disconnectedCallback() { this.unmount(); }

    attributeChangedCallback() {
      if (this.isConnected) {
        this.schedule();
      }
    }

    // schedule mounts once after a burst of attribute changes.
    schedule() {
      var el = this;
      if (el.pending) {
        return;
      }
      el.pending = true;
      loadingNote(el, 'simulator');
      start().then(function (api) {
        el.pending = false;
        if (!el.isConnected) {
          return;
        }
        el.unmount();
        var attrs = attrsOf(el);
        try {
          el.widgetID = api.mount(el, attrs.kind || 'simulator', attrs);
        } catch (err) {
          showError(el, 'The simulator could not draw here: ' + err.message);
        }
      }, function () {
        el.pending = false;
      });
    }

    unmount() {
      if (this.widgetID && window.shedsim) {
        try {
          window.shedsim.unmount(this.widgetID);
        } catch (err) {
          // The runtime has stopped; the message is already shown.
        }
      }
      this.widgetID = 0;
    }
  }

  if (window.customElements && !customElements.get('shed-sim')) {
    customElements.define('shed-sim', ShedSim);
  }

  // Pages: <div data-shedsim-page="simulator|lab|planner">.
  function mountPages() {
    var pages = document.querySelectorAll('[data-shedsim-page]');
    if (!pages.length) {
      return;
    }
    for (var i = 0; i < pages.length; i++) {
      loadingNote(pages[i], pages[i].getAttribute('data-shedsim-page'));
    }
    start().then(function (api) {
      for (var j = 0; j < pages.length; j++) {
        var el = pages[j];
        var loading = el.querySelector(':scope > .shedsim-loading');
        if (loading) {
          loading.remove();
        }
        try {
          api.page(el, el.getAttribute('data-shedsim-page'));
        } catch (err) {
          showError(el, 'The simulator could not draw this page: ' + err.message);
        }
      }
    }, function () {
      // start has shown the error on every host already.
    });
  }

  // Copy buttons: <button data-copy="id-of-pre">, with a status beside.
  function copyButtons() {
    document.addEventListener('click', function (ev) {
      var btn = ev.target.closest ? ev.target.closest('button[data-copy]') : null;
      if (!btn) {
        return;
      }
      var src = document.getElementById(btn.getAttribute('data-copy'));
      if (!src) {
        return;
      }
      var status = document.getElementById(btn.getAttribute('data-copy') + '-status');
      var say = function (msg) {
        if (status) {
          status.textContent = msg;
        }
      };
      var selectIt = function () {
        var range = document.createRange();
        range.selectNodeContents(src);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        var ok = false;
        try {
          ok = document.execCommand('copy');
        } catch (err) {
          ok = false;
        }
        say(ok ? 'Copied.' : 'Selected: press Ctrl+C (or ⌘C) to copy.');
      };
      var text = src.textContent;
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () { say('Copied.'); }, selectIt);
      } else {
        selectIt();
      }
    });
  }

  window.shedsimLoader = { ready: start, base: base };

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', function () {
      mountPages();
      copyButtons();
    });
  } else {
    mountPages();
    copyButtons();
  }
})();
