/*
 * shedsim loader: starts the simulator's Go runtime (sim.wasm) once per
 * page and defines the <shed-sim> element. One classic script, no
 * modules, so that the page also works opened from disk (file://), where
 * Chromium refuses fetch and ES modules.
 *
 *   <script src="https://example.org/shedsim/loader.js" async></script>
 *   <shed-sim kind="compare" sale_rps="200" controls="retries"></shed-sim>
 *
 * Each <shed-sim> draws into its own shadow root, styled by widget.css
 * (linked there, beside this script), so that the page's stylesheets and
 * the widget's leave each other alone. Its theme attribute is auto (the
 * default: light or dark after the page's background where the element
 * sits), light or dark.
 *
 * Over http(s) it streams sim.wasm (WebAssembly.instantiateStreaming);
 * under file://, or when that fails, it loads sim.wasm.js with a <script>
 * tag, which holds the same module as base64, and decodes it, and says
 * why in the console (such as the CORS header a server must send).
 * wasm_exec.js (Go's glue) is loaded the same way when Go is not defined
 * yet. Every file is looked up beside this script.
 *
 * In an iframe, <shed-sim data-shedsim-query> takes its attributes from
 * the page's address and posts the page's height to the parent
 * ({shedsim: "height", height, drawn}, drawn once it shows its results);
 * a page that runs this loader resizes its
 * iframes of frame.html from the loader's origin on those messages.
 *
 * window.shedsimLoader.ready() is a promise of the global shedsim object
 * (see wasm/main_js.go for its functions). <html data-shedsim> is
 * "loading", "ready" or "error". Widgets dispatch bubbling, composed
 * events, which reach the page as events of the <shed-sim> element:
 * shedsim:result, shedsim:clients (the simulator page), shedsim:lab,
 * shedsim:plan, shedsim:invalid and shedsim:error.
 */
(function () {
  'use strict';

  if (window.shedsimLoader) {
    return; // loaded twice: the first copy does everything
  }

  var script = document.currentScript;
  var base = script && script.src ? script.src.replace(/[^\/?#]*([?#].*)?$/, '') : '';
  var protocol = base ? base.slice(0, base.indexOf(':') + 1) : location.protocol;
  var baseOrigin = base && /^https?:$/.test(protocol) ? new URL(base).origin : '';

  // Config keys (the element's attributes), plus seeds, sample, kind,
  // controls and theme, the planner's and a sweep's or a map's own.
  var KEYS = ['policy', 'workers', 'service_ms', 'service', 'service_p99_ms', 'normal_rps', 'sale_rps', 'sale_start_s', 'sale_s',
    'duration_s', 'timeout_ms', 'patience', 'patience_ms', 'retries', 'retry_delay_ms', 'retry_jitter_ms', 'queue', 'refusal_cost_ms',
    'order_share', 'codel_target_ms', 'codel_interval_ms', 'client', 'backoff_base_ms', 'backoff_cap_ms',
    'budget_tokens', 'budget_refusal_cost', 'budget_timeout_cost', 'budget_refill', 'ratio_max',
    'throttle_k', 'client_window_s', 'sale_ramp_s', 'sale_waves', 'sale_every_s', 'loss_workers', 'loss_start_s', 'loss_s', 'slow_factor', 'slow_start_s',
    'slow_s', 'heap_requests', 'series_step_s', 'seed', 'sample', 'kind', 'controls', 'theme',
    'knob', 'from', 'to', 'steps', 'seeds', 'below', 'x', 'x_from', 'x_to', 'x_steps', 'y', 'y_from', 'y_to', 'y_steps',
    'rate_rps', 'target', 'limit_ms', 'abandon_target'];
  // Attributes every element may carry, which are not settings; theme is
  // the loader's own.
  var GLOBAL_ATTRS = /^(class|id|style|hidden|title|lang|dir|tabindex|role|slot|part|nonce|theme|aria-.*|data-.*)$/;
  var THEMES = ['auto', 'light', 'dark'];

  var runtime = null;
  var go = null;
  var state = 'loading';

  function setState(s) {
    state = s;
    document.documentElement.setAttribute('data-shedsim', s);
  }

  // widgets are the <shed-sim> elements on the page.
  function widgets() {
    return document.querySelectorAll('shed-sim');
  }

  // drawnIn is where the simulator draws for el: a widget's box in its
  // shadow root, or a page's element itself.
  function drawnIn(el) {
    return el.box || el;
  }

  // A printout is the results and the charts, with the settings as text
  // (the form, whose fields print as empty boxes, is left off paper by
  // widget.css) and every <details> as it is on screen: a table the
  // reader has not opened prints as its summary line. printSettings
  // writes, before each form of the site's pages and of the widgets, a
  // paragraph of its fields' labels and values, for the print only.
  function shedsimForms() {
    var out = [].slice.call(document.querySelectorAll('[data-shedsim-page] form'));
    var list = widgets();
    for (var i = 0; i < list.length; i++) {
      if (list[i].box) {
        out = out.concat([].slice.call(list[i].box.querySelectorAll('form')));
      }
    }
    return out;
  }
  function settingsText(form) {
    var parts = [];
    for (var i = 0; i < form.elements.length; i++) {
      var f = form.elements[i];
      if (!f.name || f.type === 'submit' || f.type === 'button' || f.type === 'hidden' || f.closest('[hidden]')) {
        continue;
      }
      var label = f.id ? form.querySelector('label[for="' + f.id + '"]') : null;
      var name = f.name;
      if (f.type === 'checkbox' || f.type === 'radio') {
        // A choice: named by its fieldset's legend, its value the label
        // of the option chosen.
        if (!f.checked) {
          continue;
        }
        var set = f.closest('fieldset');
        var legend = set && set.querySelector('legend');
        parts.push((legend ? legend.textContent.trim() : name) + ': ' + (label ? label.textContent.trim() : f.value));
        continue;
      }
      if (label) {
        var unit = label.querySelector('.unit');
        name = '';
        for (var n = label.firstChild; n; n = n.nextSibling) {
          if (n !== unit) {
            name += n.textContent;
          }
        }
        name = name.trim() + (unit && unit.textContent.trim() ? ' (' + unit.textContent.trim() + ')' : '');
      }
      var value = f.tagName === 'SELECT' ? (f.selectedIndex >= 0 ? f.options[f.selectedIndex].text : '') : f.value;
      parts.push(name + ': ' + value);
    }
    return parts.join('; ');
  }
  window.addEventListener('beforeprint', function () {
    var forms = shedsimForms();
    for (var i = 0; i < forms.length; i++) {
      var text = settingsText(forms[i]);
      if (!text || !forms[i].parentNode) {
        continue;
      }
      var p = document.createElement('p');
      p.className = 'print-settings';
      var b = document.createElement('strong');
      b.textContent = 'Settings: ';
      p.appendChild(b);
      p.appendChild(document.createTextNode(text + '.'));
      forms[i].parentNode.insertBefore(p, forms[i]);
    }
  });
  window.addEventListener('afterprint', function () {
    var list = [].slice.call(document.querySelectorAll('p.print-settings'));
    var ws = widgets();
    for (var i = 0; i < ws.length; i++) {
      if (ws[i].box) {
        list = list.concat([].slice.call(ws[i].box.querySelectorAll('p.print-settings')));
      }
    }
    for (var j = 0; j < list.length; j++) {
      list[j].remove();
    }
  });

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

  // progress tells the pages' loading lines (see prerendered) how the
  // engine's download goes: bytes received of total (0 when the size is
  // not known: a compressed response, or sim.wasm.js, which a <script>
  // loads without telling), or, with done, that it is starting.
  var progressListeners = [];
  function progress(got, total, done) {
    for (var i = 0; i < progressListeners.length; i++) {
      progressListeners[i](got, total, done);
    }
  }

  // counted is r, whose body reports its bytes to progress as they come.
  function counted(r) {
    if (!r.body || typeof ReadableStream !== 'function' || !progressListeners.length) {
      return r;
    }
    // Content-Length is the bytes on the wire; with Content-Encoding, the
    // body read here is decoded, and larger.
    var total = r.headers.get('Content-Encoding') ? 0 : parseInt(r.headers.get('Content-Length') || '0', 10) || 0;
    var reader = r.body.getReader();
    var got = 0;
    progress(0, total, false);
    var body = new ReadableStream({
      pull: function (c) {
        return reader.read().then(function (x) {
          if (x.done) {
            progress(got, total, true);
            c.close();
            return;
          }
          got += x.value.byteLength;
          progress(got, total, false);
          c.enqueue(x.value);
        });
      },
      cancel: function (why) { return reader.cancel(why); }
    });
    return new Response(body, { status: r.status, statusText: r.statusText, headers: r.headers });
  }

  // The module from sim.wasm.js: works under file://.
  function fromScript(imports) {
    var have = typeof window.SHEDSIM_WASM_BASE64 === 'string';
    progress(0, 0, have);
    return (have ? Promise.resolve() : loadScript('sim.wasm.js')).then(function () {
      var b64 = window.SHEDSIM_WASM_BASE64;
      if (typeof b64 !== 'string') {
        throw new Error('sim.wasm.js did not define SHEDSIM_WASM_BASE64');
      }
      window.SHEDSIM_WASM_BASE64 = undefined; // let the 8 MB string go
      progress(0, 0, true);
      return WebAssembly.instantiate(decodeBase64(b64), imports);
    });
  }

  // The module from sim.wasm: streamed when it is served as
  // application/wasm, else read whole first. A fetch from another origin
  // that fails without a status is most often a missing CORS header (the
  // browser does not say which): the message names the header.
  function fromNetwork(imports) {
    var url = base + 'sim.wasm';
    return fetch(url).then(function (r) {
      if (!r.ok) {
        throw new Error(url + ': HTTP ' + r.status);
      }
      r = counted(r);
      var type = r.headers.get('Content-Type') || '';
      if (WebAssembly.instantiateStreaming && /^application\/wasm\b/i.test(type)) {
        return WebAssembly.instantiateStreaming(r, imports);
      }
      console.warn('shedsim: ' + url + ' is served as "' + type + '", not application/wasm, so it cannot compile while it downloads: ' +
        'serve it with Content-Type: application/wasm');
      return r.arrayBuffer().then(function (b) {
        return WebAssembly.instantiate(b, imports);
      });
    }, function (err) {
      if (baseOrigin && baseOrigin !== location.origin) {
        var e = new Error(url + ' could not be fetched from ' + location.origin + ' (' + err.message + '). ' +
          'To stream it, its server must send the header "Access-Control-Allow-Origin: *" (or "Access-Control-Allow-Origin: ' + location.origin + '") with sim.wasm, ' +
          'and a Content-Security-Policy on this page must allow ' + baseOrigin + ' in connect-src');
        e.crossOrigin = true;
        throw e;
      }
      throw err;
    });
  }

  // A blog on another origin whose fetch of sim.wasm failed (most often a
  // server without Access-Control-Allow-Origin) reads sim.wasm.js for a
  // day without trying again: the browser logs its own red error for
  // every refused fetch, which the loader cannot silence, and an author
  // reads red as broken. The day is kept in the blog's localStorage, under
  // a key of the loader's folder.
  var fallbackKey = 'shedsim:sim.wasm.js:' + base;
  var fallbackMS = 24 * 3600 * 1000;
  function fallbackRemembered() {
    try {
      var at = parseInt(localStorage.getItem(fallbackKey) || '0', 10);
      return at > 0 && Date.now() - at < fallbackMS;
    } catch (err) {
      return false; // storage refused: try sim.wasm every time
    }
  }
  function rememberFallback() {
    try {
      localStorage.setItem(fallbackKey, String(Date.now()));
    } catch (err) {
      // storage refused: nothing to remember
    }
  }

  // painted resolves once the page has painted, so that the engine (whose
  // module downloads and compiles meanwhile) never holds up the page's
  // first paint: on a host page, when its first contentful paint is
  // reported; on the site's own pages, whose first content is what the
  // simulator draws, after their first frame (a frame callback runs just
  // before a frame is drawn, so the second comes after the first); at
  // once in a background tab, which paints nothing; and at the latest 3 s
  // after the page is parsed.
  var painted = new Promise(function (resolve) {
    function afterFrame() {
      requestAnimationFrame(function () { requestAnimationFrame(function () { resolve(); }); });
    }
    function decide() {
      setTimeout(resolve, 3000);
      if (document.visibilityState === 'hidden') {
        resolve();
        return;
      }
      var types = typeof PerformanceObserver === 'function' ? PerformanceObserver.supportedEntryTypes || [] : [];
      if (document.querySelector('[data-shedsim-page]') || types.indexOf('paint') < 0) {
        afterFrame();
        return;
      }
      new PerformanceObserver(function (list, observer) {
        if (list.getEntriesByName('first-contentful-paint').length) {
          observer.disconnect();
          resolve();
        }
      }).observe({ type: 'paint', buffered: true });
      document.addEventListener('visibilitychange', function () {
        if (document.visibilityState === 'hidden') {
          resolve();
        }
      });
    }
    if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', decide);
    } else {
      decide();
    }
  });

  // startWorkers loads workers.js, if the page has not, and starts its
  // pool with module; runs sent before the workers are up wait for them.
  function startWorkers(module) {
    return (window.shedsimWorkers ? Promise.resolve() : loadScript('workers.js')).then(function () {
      window.shedsimWorkers.start(module, base);
    });
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
      if (!/^https?:$/.test(protocol)) {
        return fromScript(go.importObject);
      }
      if (baseOrigin && baseOrigin !== location.origin && fallbackRemembered()) {
        console.info('shedsim: reading the engine from sim.wasm.js, as sim.wasm could not be fetched from this page lately (see the warning of that visit).');
        return fromScript(go.importObject);
      }
      return fromNetwork(go.importObject).catch(function (err) {
        if (err.crossOrigin) {
          rememberFallback();
        }
        // The widgets still work: a warning, not an error.
        console.warn('shedsim: ' + err.message + '. The widgets still work: they read the same engine from sim.wasm.js instead, ' +
          'which is a third larger and cannot compile while it downloads' + (err.crossOrigin ? ', and will for a day without trying sim.wasm again' : '') + '.');
        return fromScript(go.importObject).catch(function (err2) {
          throw new Error('sim.wasm: ' + err.message + '; sim.wasm.js: ' + err2.message);
        });
      });
    }).then(function (result) {
      return painted.then(function () { return result; });
    }).then(function (result) {
      var instance = result.instance || result;
      // run executes main until it blocks, so shedsim exists on return.
      go.run(instance).then(function () {
        stopped('The simulator stopped unexpectedly. Reload the page to start it again.');
      });
      if (!window.shedsim) {
        throw new Error('the module started but did not register shedsim');
      }
      // The engine's runs go to workers (workers.js), each started from
      // this compiled module; the page's own runtime only draws.
      return startWorkers(result.module);
    }).then(function () {
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

  // hosts are the elements the simulator draws for.
  function hosts() {
    return document.querySelectorAll('shed-sim, [data-shedsim-page]');
  }

  function showError(el, msg) {
    var at = drawnIn(el);
    var box = at.querySelector(':scope > .shedsim-fatal');
    if (!box) {
      box = document.createElement('p');
      box.className = 'shedsim-error shedsim-fatal';
      box.setAttribute('role', 'alert');
      at.insertBefore(box, at.firstChild);
    }
    box.textContent = msg;
    var loading = at.querySelector(':scope > .shedsim-loading');
    if (loading) {
      loading.remove();
    }
    var line = at.querySelector('#engine-loading');
    if (line) {
      line.hidden = true;
    }
    var run = at.querySelector('#run');
    if (run) {
      run.disabled = true; // nothing is left to run it
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

  // A Content-Security-Policy that forbids what the simulator needs is
  // worth naming, with the directive to add the loader's origin to.
  document.addEventListener('securitypolicyviolation', function (ev) {
    var blocked = String(ev.blockedURI || '');
    var ours = blocked === 'wasm-eval' || blocked === 'eval' || (base && blocked.indexOf(base) === 0) ||
      (baseOrigin && blocked === baseOrigin);
    if (!ours) {
      return; // the page's own business
    }
    var what = blocked === 'wasm-eval' ? "'wasm-unsafe-eval' in script-src" : (baseOrigin || "'self'") + ' in ' + ev.effectiveDirective;
    console.error('shedsim: this page\'s Content-Security-Policy blocked ' + blocked + ' (' + ev.violatedDirective + '): add ' + what);
  });

  // A Go panic that escapes ends the runtime; calls after that throw.
  window.addEventListener('error', function (ev) {
    if (go && go.exited) {
      stopped('The simulator stopped after an error: ' + (ev.message || 'unknown') + '. Reload the page to start it again.');
    }
  });

  function loadingNote(el, what) {
    var at = drawnIn(el);
    if (!at.querySelector(':scope > .shedsim-loading') && !(at.classList.contains('shedsim') && at.firstElementChild)) {
      var p = document.createElement('p');
      p.className = 'shedsim-loading';
      p.setAttribute('role', 'status');
      p.textContent = 'Loading the ' + what + '…';
      at.appendChild(p);
    }
  }

  // attrsOf collects an element's settings: every attribute that is not a
  // global one, so that a misspelt setting is reported, not ignored.
  function attrsOf(el) {
    var out = {};
    for (var i = 0; i < el.attributes.length; i++) {
      var a = el.attributes[i];
      if (!GLOBAL_ATTRS.test(a.name)) {
        out[a.name] = a.value;
      }
    }
    out.base = base; // where the links go: never an attribute's (or, in a frame, the address's)
    return out;
  }

  // The theme. "auto" is dark when the first background behind the element
  // that is not transparent is dark, or, when every one is (the page's
  // canvas shows through), when the page's colour scheme allows dark and
  // the reader prefers it.
  var darkQuery = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

  function rgba(css) {
    var m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,\/]\s*([\d.]+)(%?))?\s*\)$/.exec(css || '');
    if (!m) {
      return null;
    }
    var a = m[4] === undefined ? 1 : parseFloat(m[4]) / (m[5] ? 100 : 1);
    return [parseFloat(m[1]), parseFloat(m[2]), parseFloat(m[3]), a];
  }

  // luminance is WCAG's relative luminance of an sRGB colour.
  function luminance(c) {
    var l = 0;
    var w = [0.2126, 0.7152, 0.0722];
    for (var i = 0; i < 3; i++) {
      var v = c[i] / 255;
      l += w[i] * (v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
    }
    return l;
  }

  function pageIsDark(el) {
    for (var e = el; e && e.nodeType === 1; e = e.parentElement || (e.parentNode && e.parentNode.host) || null) {
      var c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c[3] >= 0.5) {
        // 0.18 is about a mid grey: text of either scheme reads on it.
        return luminance(c) < 0.18;
      }
    }
    var scheme = getComputedStyle(document.documentElement).colorScheme || '';
    if (!/dark/.test(scheme)) {
      return false;
    }
    return !/light/.test(scheme) || !!(darkQuery && darkQuery.matches);
  }

  function themeOf(el) {
    var t = el.getAttribute('theme') || 'auto';
    if (THEMES.indexOf(t) < 0) {
      return { theme: pageIsDark(el) ? 'dark' : 'light', problem: 'theme: "' + t + '" is not a theme: use auto (the default), light or dark.' };
    }
    return { theme: t === 'auto' ? (pageIsDark(el) ? 'dark' : 'light') : t, problem: '' };
  }

  // retheme sets every widget's theme again: when the reader's preference
  // changes, or the page changes its own (a class or an attribute on
  // <html> or <body>, as a theme switch does).
  var rethemeFrame = 0;
  function retheme() {
    if (rethemeFrame) {
      return;
    }
    rethemeFrame = requestAnimationFrame(function () {
      rethemeFrame = 0;
      var list = widgets();
      for (var i = 0; i < list.length; i++) {
        if (list[i].applyTheme) {
          list[i].applyTheme();
        }
      }
    });
  }
  if (darkQuery && darkQuery.addEventListener) {
    darkQuery.addEventListener('change', retheme);
  }
  function watchPageTheme() {
    var watch = new MutationObserver(function (changes) {
      for (var i = 0; i < changes.length; i++) {
        if (changes[i].attributeName !== 'data-shedsim') {
          retheme();
          return;
        }
      }
    });
    watch.observe(document.documentElement, { attributes: true });
    if (document.body) {
      watch.observe(document.body, { attributes: true });
    }
  }

  var Base = typeof HTMLElement === 'function' ? HTMLElement : function () {};

  class ShedSim extends Base {
    static get observedAttributes() { return KEYS; }

    connectedCallback() {
      this.root();
      if (this.hasAttribute('data-shedsim-query') && !this.fromQuery) {
        this.fromQuery = true;
        fromAddress(this);
      }
      this.applyTheme();
      this.schedule();
    }

    disconnectedCallback() { this.unmount(); }

    attributeChangedCallback(name) {
      if (!this.isConnected || !this.box) {
        return; // connectedCallback is still to come (an upgrade calls this first)
      }
      if (name === 'theme') {
        this.applyTheme();
        return;
      }
      this.schedule();
    }

    // root builds the shadow root once: the stylesheet, a box that
    // carries the theme, a line for the theme's problem, and the box the
    // simulator draws in. The boxes stay hidden until the stylesheet has
    // loaded, so that nothing is ever drawn unstyled.
    root() {
      if (this.box) {
        return;
      }
      var shadow = this.shadowRoot || this.attachShadow({ mode: 'open' });
      var link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = base + 'widget.css';
      var themed = document.createElement('div');
      themed.className = 'shedsim-root';
      themed.hidden = true;
      var note = document.createElement('p');
      note.className = 'shedsim-error';
      note.setAttribute('role', 'alert');
      note.hidden = true;
      var box = document.createElement('div');
      box.className = 'shedsim shedsim-widget';
      themed.appendChild(note);
      themed.appendChild(box);
      var el = this;
      link.onload = function () { themed.hidden = false; };
      link.onerror = function () {
        themed.hidden = false;
        var msg = 'The widget\'s stylesheet, ' + link.href + ', did not load' +
          (baseOrigin && baseOrigin !== location.origin ? ': a Content-Security-Policy on this page must allow ' + baseOrigin + ' in style-src' : '') + '.';
        console.error('shedsim: ' + msg);
        el.say('style', msg);
      };
      shadow.appendChild(link);
      shadow.appendChild(themed);
      this.themed = themed;
      this.note = note;
      this.box = box;
    }

    applyTheme() {
      if (!this.themed) {
        return;
      }
      var t = themeOf(this);
      if (this.themed.getAttribute('data-theme') !== t.theme) {
        this.themed.setAttribute('data-theme', t.theme);
      }
      this.say('theme', t.problem);
    }

    // say shows (or with "", clears) the loader's own problem of a kind
    // ("theme", "style") above the widget, where the simulator's redraws
    // leave it.
    say(kind, msg) {
      this.problems = this.problems || {};
      this.problems[kind] = msg;
      var text = [this.problems.style, this.problems.theme].filter(Boolean).join(' ');
      if (this.note.textContent !== text) {
        this.note.textContent = text;
        this.note.hidden = !text;
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
          el.widgetID = api.mount(el.box, attrs.kind || 'simulator', attrs);
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

  // fromAddress gives el the settings in the page's address (frame.html's
  // ?policy=bounded&kind=compare), as attributes.
  function fromAddress(el) {
    var q = new URLSearchParams(location.search);
    q.forEach(function (v, k) {
      if (/^[a-z][a-z0-9_]*$/.test(k)) {
        el.setAttribute(k, v);
      } else {
        console.error('shedsim: ' + JSON.stringify(k) + ' in the address is not a setting');
      }
    });
    postHeight(el);
  }

  // postHeight tells the page around an iframe, el's, how tall this page
  // is, from when its widget has drawn its results (or shows why it
  // cannot) and whenever that changes after, so that the page grows the
  // iframe once, from the height it reserved, rather than to a loading
  // line and back. It posts the widget's theme too, and takes the page's
  // theme from its answer ({shedsim: "theme", theme} or, from the
  // README's resizing lines, {shedsim: "theme", color}, the page's text
  // colour), unless the address fixes one: theme=auto in a frame cannot
  // see the page around it.
  var heightPosted = false;
  function postHeight(el) {
    if (heightPosted || window.parent === window || typeof ResizeObserver !== 'function') {
      return;
    }
    heightPosted = true;
    var last = 0;
    var drawn = false;
    var settled = false;
    function post(force) {
      if (!settled) {
        return;
      }
      var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (h !== last || force) {
        last = h;
        var themed = el.shadowRoot && el.shadowRoot.querySelector('.shedsim-root');
        window.parent.postMessage({ shedsim: 'height', height: h, drawn: drawn, theme: themed ? themed.getAttribute('data-theme') : '' }, '*');
      }
    }
    new ResizeObserver(function () { post(false); }).observe(document.documentElement);
    // drawn says the widget shows its results (every policy's, for the
    // comparison), which may not change the height.
    ['shedsim:result', 'shedsim:lab', 'shedsim:plan', 'shedsim:sweep', 'shedsim:map'].forEach(function (type) {
      document.addEventListener(type, function () {
        if (!drawn) {
          drawn = settled = true;
          post(true);
        }
      });
    });
    ['shedsim:invalid', 'shedsim:error'].forEach(function (type) {
      document.addEventListener(type, function () {
        if (!settled) {
          settled = true;
          post(true);
        }
      });
    });
    var fixed = THEMES.indexOf(new URLSearchParams(location.search).get('theme') || 'auto') > 0;
    window.addEventListener('message', function (ev) {
      var d = ev.data;
      if (fixed || ev.source !== window.parent || !d || d.shedsim !== 'theme') {
        return;
      }
      var t = d.theme === 'dark' || d.theme === 'light' ? d.theme : '';
      var c = !t && rgba(String(d.color || ''));
      if (c) {
        // Light text is a dark theme's (0.18: about a mid grey).
        t = luminance(c) > 0.18 ? 'dark' : 'light';
      }
      if (t && el.getAttribute('theme') !== t) {
        el.setAttribute('theme', t);
        post(true);
      }
    });
  }

  // A page that runs the loader resizes its iframes of frame.html, from
  // the loader's origin, to the height they post.
  window.addEventListener('message', function (ev) {
    var d = ev.data;
    if (!d || d.shedsim !== 'height' || typeof d.height !== 'number' || !(d.height > 0)) {
      return;
    }
    if (baseOrigin ? ev.origin !== baseOrigin : ev.origin !== 'null' && ev.origin !== location.origin) {
      return;
    }
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === ev.source) {
        // The height is the frame's content's, whatever the page's
        // box-sizing (CSSOM, which a Content-Security-Policy allows).
        frames[i].style.boxSizing = 'content-box';
        frames[i].style.height = Math.min(Math.ceil(d.height), 20000) + 'px';
        // The frame cannot see this page: it is told its theme.
        var t = pageIsDark(frames[i]) ? 'dark' : 'light';
        if (d.theme !== t) {
          ev.source.postMessage({ shedsim: 'theme', theme: t }, ev.origin === 'null' ? '*' : ev.origin);
        }
      }
    }
  });

  if (window.customElements && !customElements.get('shed-sim')) {
    customElements.define('shed-sim', ShedSim);
  }

  // prerendered readies a page that site/index.html holds drawn already
  // (the simulator's form and the default run's results, wasm/prerender.go)
  // for its reader until the engine takes it over: the form's buttons work
  // (Run waits for the engine, which runs what was typed; Back to the
  // shop's numbers resets the form), the link's settings are in the form
  // and the results say that they are the default run's, and a line under
  // the headline shows the engine's download.
  function prerendered(el) {
    var line = el.querySelector('#engine-loading');
    var form = el.querySelector('form');
    if (!line || !form) {
      return;
    }
    var run = form.querySelector('#run');
    var reset = form.querySelector('#reset');
    [run, reset].forEach(function (b) {
      if (b) {
        b.disabled = false;
      }
    });
    form.addEventListener('submit', function (ev) { ev.preventDefault(); });
    if (reset) {
      reset.addEventListener('click', function () { HTMLFormElement.prototype.reset.call(form); }); // form.reset is the button #reset
    }
    var given = false;
    new URLSearchParams(location.search).forEach(function (v, k) {
      var f = form.elements.namedItem(k);
      if (f && f.name === k && k !== 'sample') {
        f.value = v;
        given = true;
      }
    });
    if (given) {
      var results = el.querySelector('#results');
      var note = el.querySelector('#stale-note');
      if (results && note) {
        results.classList.add('stale');
        note.textContent = 'These results are for the shop\'s own numbers: the simulator runs this link\'s once it has loaded.';
        note.hidden = false;
      }
    }
    var text = document.createElement('span');
    var bar = document.createElement('progress');
    bar.setAttribute('aria-label', 'The simulator\'s download');
    line.appendChild(text);
    line.appendChild(document.createTextNode(' '));
    line.appendChild(bar);
    var mb = function (n) { return (n / 1e6).toFixed(1) + ' MB'; };
    var show = function (got, total, done) {
      if (done) {
        text.textContent = 'Starting the simulator…';
        bar.removeAttribute('value');
      } else if (total > 0) {
        text.textContent = 'Loading the simulator: ' + mb(got) + ' of ' + mb(total);
        bar.max = total;
        bar.value = Math.min(got, total);
      } else {
        text.textContent = got > 0 ? 'Loading the simulator: ' + mb(got) + ' so far' : 'Loading the simulator…';
        bar.removeAttribute('value');
      }
    };
    show(0, 0, false);
    line.hidden = false;
    progressListeners.push(show);
  }

  // PRERENDERED_PARTS are the parts of the simulator page that
  // site/index.html holds drawn (wasm/prerender.go writes them): the
  // default run's results, and the form's hints for it.
  var PRERENDERED_PARTS = ['summary', 'glance', 'bars-title', 'bars', 'table-box', 'about-numbers', 'chart-title', 'chart-box', 'lines',
    'sample-about', 'hint-queue', 'hint-service_p99_ms'];

  // takeOver readies the engine's taking over a prerendered page, el,
  // and returns what to do once it has drawn itself in el. What the reader
  // typed or chose meanwhile goes into the address, which the page reads
  // its numbers from (a link's own settings stay, unless typed over), and
  // the focus and the caret come back to the same field. When the
  // numbers are the prerendered run's, its results stay on show, moved
  // into the page's parts, until the engine has run them again: the same
  // bytes (tools/browser's TestPrerendered).
  function takeOver(el) {
    var form = el.querySelector('#engine-loading') && el.querySelector('form');
    if (!form) {
      return function () {};
    }
    var q = new URLSearchParams(location.search);
    var typed = false;
    for (var i = 0; i < form.elements.length; i++) {
      var f = form.elements[i];
      var changed = f.tagName === 'SELECT' ? f.selectedIndex >= 0 && !f.options[f.selectedIndex].defaultSelected :
        f.tagName === 'INPUT' && f.value !== f.defaultValue;
      if (f.name && changed) {
        q.set(f.name, f.value);
        typed = true;
      }
    }
    if (typed) {
      history.replaceState(history.state, '', location.pathname + '?' + q.toString() + location.hash);
    }
    var parts = {};
    if (!q.toString()) {
      PRERENDERED_PARTS.forEach(function (id) {
        parts[id] = el.querySelector('#' + id);
      });
    }
    var active = document.activeElement;
    var focus = active && el.contains(active) ? active.id : '';
    var start = focus && typeof active.selectionStart === 'number' ? active.selectionStart : -1;
    var end = start >= 0 ? active.selectionEnd : -1;
    var sample = form.elements.namedItem('sample');
    sample = sample ? sample.value : '';
    return function () {
      for (var id in parts) {
        var now = el.querySelector('#' + id);
        if (parts[id] && now) {
          now.replaceChildren.apply(now, Array.from(parts[id].childNodes));
        }
      }
      var menu = el.querySelector('#in-sample');
      if (menu && !q.toString() && sample) {
        menu.value = sample;
      }
      var f = focus && document.getElementById(focus);
      if (f) {
        f.focus();
        if (start >= 0 && f.setSelectionRange) {
          f.setSelectionRange(start, end);
        }
      }
    };
  }

  // pinGlance keeps, on the simulator page, the glance pinned beside the
  // form (style.css) in step with the chosen policy's chart over time: the
  // results' frame (wasm/frame.go) holds #summary and an empty #glance in
  // one box, #pinned, and this puts a copy of svg#chart, #glance-chart,
  // in #glance, as site/index.html holds it prerendered. The copy
  // follows the chart a task after it is drawn, so that no task draws
  // both (issue 10: no long task on the main thread). It is the page's
  // presentation only, kept out of the engine's WebAssembly, whose every
  // byte the reader downloads.
  function pinGlance(el) {
    var glance = el.querySelector('#glance');
    var box = el.querySelector('#chart-box');
    if (el.getAttribute('data-shedsim-page') !== 'simulator' || !glance || !box) {
      return;
    }
    var timer = 0;
    new MutationObserver(function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var chart = box.querySelector('svg#chart');
        if (chart) {
          var copy = chart.cloneNode(true);
          copy.id = 'glance-chart';
          glance.replaceChildren(copy);
        }
      }, 0);
    }).observe(box, { childList: true });
  }

  // Pages: <div data-shedsim-page="simulator|lab|planner|tips">.
  function mountPages() {
    var pages = document.querySelectorAll('[data-shedsim-page]');
    if (!pages.length) {
      return;
    }
    for (var i = 0; i < pages.length; i++) {
      prerendered(pages[i]);
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
          var before = takeOver(el);
          api.page(el, el.getAttribute('data-shedsim-page'));
          pinGlance(el);
          before();
        } catch (err) {
          showError(el, 'The simulator could not draw this page: ' + err.message);
        }
      }
    }, function () {
      // start has shown the error on every host already.
    });
  }

  // The site's copy buttons: <button data-shedsim-copy="id-of-pre">, with
  // a status beside. (An attribute of shedsim's own, so that a host
  // page's buttons are left alone.)
  function copyButtons() {
    document.addEventListener('click', function (ev) {
      var btn = ev.target.closest ? ev.target.closest('button[data-shedsim-copy]') : null;
      if (!btn) {
        return;
      }
      var src = document.getElementById(btn.getAttribute('data-shedsim-copy'));
      if (!src) {
        return;
      }
      var status = document.getElementById(btn.getAttribute('data-shedsim-copy') + '-status');
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

  // registerOffline registers the site's service worker (sw.js, beside
  // this script), which keeps the site's files for reading offline, and
  // links the web app manifest, with which a browser offers to install
  // the site: on the site's own pages served over http(s) only. Not on a
  // blog that embeds a widget, whose origin is not the site's, nor in a
  // frame, nor from disk, where no service worker runs and where Chromium
  // refuses to read a manifest (a red CORS error, were it linked in the
  // pages' HTML).
  function registerOffline() {
    if (!('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol) || !base || location.href.indexOf(base) !== 0 ||
      window.parent !== window) {
      return;
    }
    if (!document.querySelector('link[rel="manifest"]')) {
      var link = document.createElement('link');
      link.rel = 'manifest';
      link.href = base + 'manifest.webmanifest';
      document.head.appendChild(link);
    }
    navigator.serviceWorker.register(base + 'sw.js').catch(function (err) {
      console.warn('shedsim: the offline copy of the site could not be installed: ' + (err && err.message ? err.message : err));
    });
  }

  function whenParsed() {
    registerOffline();
    mountPages();
    copyButtons();
    watchPageTheme();
    retheme();
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', whenParsed);
  } else {
    whenParsed();
  }
})();
