// hostsim dashboard: live updates. The pages are complete without this
// script; with it, journal events arrive through one Server-Sent Events
// stream (<prefix>/events), feeds grow as they arrive, and the page's live
// regions ([data-live]) are redrawn from the server when an event changes them.
(function () {
  "use strict";
  var body = document.body;
  var prefix = body.getAttribute("data-prefix");
  var refreshOn = (body.getAttribute("data-refresh") || "").split(/\s+/);
  var indicator = document.getElementById("live");

  faultForm();

  // a page without feeds or live regions (an error page) has nothing to follow
  if (!window.EventSource || !indicator || !document.querySelector("[data-live], tbody[data-feed]")) return;
  var stream = new EventSource(prefix + "/events?after=" + encodeURIComponent(body.getAttribute("data-after") || "0"));
  show("off", "connecting…", "Opening the live stream");
  stream.onopen = function () { show("on", "live", "Changes appear as the host journals them"); };
  stream.onerror = function () { show("off", "reconnecting…", "The live stream dropped; the browser reconnects and resumes where it stopped"); };
  stream.onmessage = function (m) {
    var ev;
    try { ev = JSON.parse(m.data); } catch (e) { return; }
    append(ev);
    if (refreshOn.indexOf("*") >= 0 || refreshOn.indexOf(ev.type) >= 0) schedule();
  };
  stream.addEventListener("gap", schedule);

  function show(cls, text, title) {
    indicator.className = "live " + cls;
    indicator.textContent = text;
    indicator.title = title;
  }

  // append adds an event to every feed it belongs to, newest first.
  function append(ev) {
    var feeds = document.querySelectorAll("tbody[data-feed]");
    for (var i = 0; i < feeds.length; i++) {
      var tb = feeds[i];
      if (!belongs(tb, ev) || tb.querySelector('tr[data-seq="' + ev.seq + '"]')) continue;
      var empty = tb.querySelector("tr.empty");
      if (empty) empty.remove();
      var tr = document.createElement("tr");
      tr.setAttribute("data-seq", ev.seq);
      tr.setAttribute("data-seen", String(Date.now()));
      tr.setAttribute("data-at", ev.at);
      tr.className = "fresh";
      cell(tr, String(ev.seq), "num mono");
      cell(tr, clock(ev.at), "mono nowrap");
      var badge = document.createElement("span");
      badge.className = "type t-" + ev.type;
      badge.textContent = ev.type;
      cell(tr, "", "").appendChild(badge);
      cell(tr, ev.summary, "").title = ev.detail || "";
      tb.insertBefore(tr, tb.firstChild);
      while (tb.rows.length > 200) tb.deleteRow(tb.rows.length - 1);
    }
  }

  function belongs(tb, ev) {
    var f = tb.getAttribute("data-feed");
    if (f === "all") return true;
    if (f !== "resource") return ev.type === f;
    var s = ev.subject || {};
    if (s.uid) return s.uid === tb.getAttribute("data-uid");
    return !!s.name && s.kind === tb.getAttribute("data-kind") && s.name === tb.getAttribute("data-name") &&
      (!s.tenant || s.tenant === tb.getAttribute("data-tenant"));
  }

  function cell(tr, text, cls) {
    var td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }

  function clock(at) {
    var m = /T(\d\d:\d\d:\d\d)(?:\.(\d+))?/.exec(at || "");
    return m ? m[1] + "." + ((m[2] || "") + "000").slice(0, 3) : at;
  }

  // Redraw the live regions from the server, at most every 300 ms.
  var timer = null, busy = false, last = 0;
  function schedule() {
    if (timer) return;
    timer = setTimeout(redraw, Math.max(0, 300 - (Date.now() - last)));
  }
  function redraw() {
    timer = null;
    if (busy) { schedule(); return; }
    busy = true;
    last = Date.now();
    fetch(location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (res) { return res.ok ? res.text() : null; })
      .then(function (html) { if (html) swap(new DOMParser().parseFromString(html, "text/html")); })
      .catch(function () {})
      .then(function () { busy = false; });
  }
  function swap(doc) {
    var regions = document.querySelectorAll("[data-live]");
    for (var i = 0; i < regions.length; i++) {
      var el = regions[i];
      var name = el.getAttribute("data-live");
      var fresh = doc.querySelector('[data-live="' + name + '"]');
      if (!fresh || fresh.innerHTML === el.innerHTML) continue;
      var a = document.activeElement;
      if (a && el.contains(a) && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName)) { schedule(); continue; }
      var open = [];
      el.querySelectorAll("details[open][id]").forEach(function (d) { open.push(d.id); });
      var node = document.importNode(fresh, true);
      el.replaceWith(node);
      open.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
    }
  }

  // The arm form: show the chosen fault's effect and offer the value field
  // only to faults that take a value.
  function faultForm() {
    var sel = document.getElementById("f-fault");
    if (!sel) return;
    var value = document.getElementById("f-value");
    var hint = document.getElementById("f-value-hint");
    var effect = document.getElementById("f-effect");
    function update() {
      var opt = sel.options[sel.selectedIndex];
      var takes = opt ? opt.getAttribute("data-value") : "none";
      value.disabled = takes === "none" || !takes;
      hint.textContent = takes === "required" ? "(required)" : takes === "optional" ? "(optional)" : "(this fault takes none)";
      var def = opt && opt.value ? document.getElementById("def-" + opt.value) : null;
      if (def && effect) effect.textContent = def.cells[1].textContent;
    }
    sel.addEventListener("change", update);
    update();
  }
})();
