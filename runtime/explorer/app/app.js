// kgc explorer: a read-only view of the curricula a kgmcp server serves,
// built from the server's own MCP tools (POST /mcp, same origin). Every
// value from a package is put into the page as text (textContent), never as
// markup; links are built from encoded identifiers.
'use strict';

(function () {
  const main = document.getElementById('main');
  const crumbs = document.getElementById('crumbs');
  const started = performance.now();
  let nextID = 1;
  // In an MCP host (the MCP App: the page inlined into a ui:// resource,
  // data-transport="host"), the page talks to the host over postMessage and
  // the host proxies its tool calls; in a browser it calls /mcp itself.
  const hostMode = document.documentElement.dataset.transport === 'host';
  const pending = new Map();
  let toolInput = null, toolResult = null, onToolData = null;

  function post(msg) {
    window.parent.postMessage(msg, '*');
  }
  function request(method, params) {
    const id = nextID++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      post({ jsonrpc: '2.0', id: id, method: method, params: params });
    });
  }
  function notify(method, params) {
    post({ jsonrpc: '2.0', method: method, params: params || {} });
  }
  if (hostMode) {
    window.addEventListener('message', (e) => {
      if (e.source !== window.parent) return;
      const m = e.data;
      if (!m || m.jsonrpc !== '2.0') return;
      if (m.id !== undefined && pending.has(m.id) && !m.method) {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.error) p.reject(new Error(m.error.message || 'the host refused the request'));
        else p.resolve(m.result);
        return;
      }
      if (m.method === 'ui/notifications/tool-input') toolInput = (m.params && m.params.arguments) || {};
      if (m.method === 'ui/notifications/tool-result' || m.method === 'ui/tool-result') toolResult = m.params || {};
      if (onToolData) onToolData();
    });
  }

  // keyItem is where the page keeps the API key a person gave it (for this
  // tab only; never in the address).
  const keyItem = 'kgc-api-key';

  // call runs one tool and returns its structured content, or throws the
  // answer's own text (isError, a JSON-RPC error, an HTTP refusal).
  async function call(tool, req) {
    let r;
    if (hostMode) {
      r = await request('tools/call', { name: tool, arguments: { request: req } });
    } else {
      const headers = {
        'Content-Type': 'application/json',
        'Accept': 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-06-18',
      };
      const key = sessionStorage.getItem(keyItem);
      if (key) headers['Authorization'] = 'Bearer ' + key;
      const res = await fetch('/mcp', {
        method: 'POST',
        headers: headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: nextID++, method: 'tools/call', params: { name: tool, arguments: { request: req } } }),
      });
      if (res.status === 401) {
        const e = new Error(key ? 'The server does not accept this key.' : 'This server needs a key.');
        e.needsKey = true;
        throw e;
      }
      let body;
      try {
        body = await res.json();
      } catch (e) {
        throw new Error('the server answered ' + res.status + ' ' + res.statusText);
      }
      if (body.error) throw new Error(body.error.message);
      r = body.result;
    }
    if (r.isError) throw new Error(r.content && r.content[0] ? r.content[0].text : tool + ' failed');
    return r.structuredContent;
  }

  // el builds an element: attrs (text sets textContent), then children.
  function el(tag, attrs) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === 'text') e.textContent = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    for (let i = 2; i < arguments.length; i++) {
      const c = arguments[i];
      if (c !== null && c !== undefined) e.append(c);
    }
    return e;
  }

  // seg encodes one path segment (an identifier may hold "/" or "%"; "."
  // and ".." would be resolved away by the browser).
  function seg(s) {
    return encodeURIComponent(s).replace(/\./g, '%2E');
  }
  // In a host the page has no server paths: its pages are #/… routes.
  const base = hostMode ? '#' : '';
  const frameworkPath = (fw, snap) => base + '/framework/' + seg(fw) + '/snapshot/' + seg(snap);
  const standardPath = (fw, snap, node) => frameworkPath(fw, snap) + '/standard/' + seg(node);

  // plain removes inline emphasis markup (*x*, _x_, **x**) from a statement:
  // the words are shown, the markup is not.
  function plain(s) {
    if (typeof s !== 'string') return '';
    return s.replace(/(\*\*|__)(?=\S)([^*_]+?)\1/g, '$2').replace(/([*_])(?=\S)([^*_]+?)\1/g, '$2');
  }

  function label(n) {
    if (!n) return '';
    const text = plain(n.description || n.name || '');
    return n.statementCode ? n.statementCode + ' ' + text : text;
  }

  function show(title, ...nodes) {
    document.title = title + ' · kgc explorer';
    main.replaceChildren(el('h1', { text: title }), ...nodes.filter((n) => n !== null && n !== undefined));
    main.dataset.renderedMs = String(Math.round(performance.now() - started));
    main.setAttribute('data-state', 'ready');
    if (hostMode) notify('notifications/message', { level: 'info', logger: 'kgc-explorer', data: 'rendered: ' + title });
  }

  // askKey asks once for the key a server that requires one (kgmcp
  // --api-key-file) wants, keeps it for the tab and loads the page again.
  function askKey(message) {
    document.title = 'Key needed · kgc explorer';
    const input = el('input', { id: 'key', type: 'password', autocomplete: 'off', required: '' });
    const form = el('form', { id: 'key-form' }, el('label', { for: 'key', text: 'API key' }), input, el('button', { type: 'submit', text: 'Use this key' }));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      sessionStorage.setItem(keyItem, input.value.trim());
      location.reload();
    });
    main.replaceChildren(el('h1', { text: 'Key needed' }), el('p', { role: 'alert', text: message + ' Ask whoever runs it for one; it is kept for this tab only.' }), form);
    main.setAttribute('data-state', 'key');
    input.focus();
  }

  function fail(err) {
    if (err && err.needsKey && !hostMode) {
      askKey(err.message);
      return;
    }
    document.title = 'Not available · kgc explorer';
    main.replaceChildren(el('h1', { text: 'Not available' }), el('p', { class: 'error', role: 'alert', text: String(err && err.message ? err.message : err) }));
    main.setAttribute('data-state', 'error');
    if (hostMode) notify('notifications/message', { level: 'warning', logger: 'kgc-explorer', data: 'error: ' + (err && err.message ? err.message : err) });
  }

  function trail(items) {
    const ol = el('ol');
    items.forEach((it, i) => {
      const li = el('li');
      if (it.href && i < items.length - 1) li.append(el('a', { href: it.href, text: it.text }));
      else li.append(el('span', { 'aria-current': i === items.length - 1 ? 'page' : 'false', text: it.text }));
      ol.append(li);
    });
    crumbs.replaceChildren(ol);
  }

  function section(title, note, ...body) {
    const s = el('section', {}, el('h2', { text: title }));
    if (note) s.append(el('p', { class: 'note', text: note }));
    s.append(...body.filter((b) => b !== null && b !== undefined));
    return s;
  }

  function facts(pairs) {
    const dl = el('dl', { class: 'facts' });
    for (const [k, v] of pairs) {
      if (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
      dl.append(el('dt', { text: k }), el('dd', { text: Array.isArray(v) ? v.join(', ') : String(v) }));
    }
    return dl;
  }

  // --- pages ---------------------------------------------------------------

  async function catalogPage() {
    trail([{ text: 'Catalog' }]);
    const list = await call('list_frameworks', { limit: 100 });
    const ul = el('ul', { class: 'cards' });
    for (const snap of list.items) {
      const m = snap.sourceMetadata;
      ul.append(el('li', {},
        el('a', { href: frameworkPath(snap.frameworkId, snap.snapshotId), text: m.name }),
        el('p', { class: 'meta', text: [m.jurisdiction, m.localSubject, (m.localGradesOrStages || []).join(', '), 'version ' + m.sourceVersion, m.isCurrent ? 'current' : 'not current'].filter(Boolean).join(' · ') }),
        el('p', { class: 'id', text: snap.snapshotId })));
    }
    const more = list.hasMore ? el('p', { class: 'note', text: 'More frameworks follow; search finds standards in all of them.' }) : null;
    show('Frameworks (' + list.totalMatchingCount + ')', ul, more);
  }

  async function frameworkPage(fw, snap) {
    const r = await call('get_framework', snap ? { frameworkId: fw, snapshotId: snap } : { frameworkId: fw });
    const f = r.framework, m = f.sourceMetadata;
    trail([{ text: 'Catalog', href: base + '/' }, { text: m.name }]);
    const rights = f.graphPackages[0] ? f.graphPackages[0].rights : null;
    const top = r.topLevel;
    const ul = el('ul', { class: 'tree' });
    for (const s of (top ? top.standards : [])) {
      ul.append(el('li', {}, el('a', { href: standardPath(f.frameworkId, f.snapshotId, s.nodeId), text: label(s) || s.nodeId }),
        el('span', { class: 'meta', text: ' ' + (s.statementType || '') + ' · ' + s.childCount + ' under it' })));
    }
    show(m.name,
      facts([['Framework', f.frameworkId], ['Snapshot', f.snapshotId], ['Jurisdiction', m.jurisdiction], ['Subject', m.localSubject],
        ['Grades', m.localGradesOrStages], ['Issued by', m.issuingAuthority], ['Version', m.sourceVersion], ['Current', m.isCurrent ? 'yes' : 'no'],
        ['Licence', rights ? rights.sourceLicense : ''], ['Attribution', rights ? rights.attributionStatement : '']]),
      section('Top level', top ? orderNote(top.order) : '', ul,
        top && !top.isComplete ? el('p', { class: 'note', text: (top.totalCount - top.standards.length) + ' more not listed.' }) : null));
  }

  function orderNote(order) {
    const phrases = {
      publisher: "In the publisher's order.", code: 'Ordered by code.', statement_numbers: 'Ordered by the numbers the statements carry.',
      grade: 'Ordered by grade.', codes_below: 'Ordered by the codes beneath them.', identifier: 'No order is published: ordered by identifier.',
      file: "In the package file's order.",
    };
    return phrases[order] || '';
  }

  async function standardPage(fw, snap, node) {
    const ctx = await call('get_standard_context', { frameworkId: fw, snapshotId: snap, nodeId: node });
    const recs = {};
    for (const n of ctx.nodes || []) recs[n.nodeId] = n;
    const st = ctx.standard, n = st.node, m = st.sourceMetadata;
    const path = (ctx.rootPaths && ctx.rootPaths.paths[0]) ? ctx.rootPaths.paths[0].nodeIds : [];
    const items = [{ text: 'Catalog', href: base + '/' }, { text: m.name, href: frameworkPath(fw, snap) }];
    for (const id of path.slice(1, -1)) items.push({ text: label(recs[id]) || id, href: standardPath(fw, snap, id) });
    items.push({ text: n.statementCode || n.nodeId });
    trail(items);

    const link = (id) => el('a', { href: standardPath(fw, snap, id), text: label(recs[id]) || id });
    const children = el('ol', { class: 'tree' });
    const dc = ctx.directChildren;
    for (const c of (dc ? dc.neighbors : [])) children.append(el('li', {}, link(c.nodeId)));
    const parents = el('ul');
    for (const p of ctx.directParents.neighbors) parents.append(el('li', {}, recs[p.nodeId] && recs[p.nodeId].labels && recs[p.nodeId].labels.includes('StandardsFramework') ? el('a', { href: frameworkPath(fw, snap), text: m.name }) : link(p.nodeId)));

    const body = [
      el('p', { class: 'statement', text: plain(n.description) }),
      facts([['Code', n.statementCode], ['Type', n.statementType], ['Grades', n.gradeLevel], ['Subject', n.academicSubject], ['Node ID', n.nodeId],
        ['Cite', st.standardUri], ['Licence', n.license], ['Attribution', n.attributionStatement]]),
      section('Under', dc && dc.totalCount ? orderNote(dc.order) : 'Nothing is under this standard.', dc && dc.totalCount ? children : null),
      section('Above', '', parents),
    ];
    const short = plain(n.description || '');
    show(n.statementCode ? n.statementCode + ' · ' + (n.statementType || 'standard') : (short.length > 90 ? short.slice(0, 88) + '…' : short), ...body);

    // The three kinds of fact are shown apart: the publisher's own
    // relations, the generated components and progressions.
    const sel = { frameworkId: fw, snapshotId: snap, identifier: { identifierType: 'node_id', nodeId: node } };
    const [pub, comps, prog] = await Promise.allSettled([
      call('get_publisher_relations', sel), call('get_learning_components_for_standard', sel), call('get_standard_progressions', sel),
    ]);
    main.append(publisherSection(pub), componentSection(comps, fw, snap), progressionSection(prog, fw, snap));
    main.dataset.completeMs = String(Math.round(performance.now() - started));
    if (hostMode) notify('notifications/message', { level: 'info', logger: 'kgc-explorer', data: 'complete: ' + document.title });
  }

  function publisherSection(r) {
    if (r.status !== 'fulfilled') return section('Publisher relations', r.reason.message);
    const ul = el('ul');
    for (const x of r.value.relations || []) {
      const o = x.other;
      let other;
      if (o.standard) other = el('a', { href: standardPath(o.standard.frameworkId, o.standard.snapshotId, o.standard.nodeId), text: (o.standard.statementCode ? o.standard.statementCode + ' ' : '') + plain(o.standard.description || o.standard.nodeId) });
      else if (o.external) other = el('span', { text: (o.external.title || o.external.identifier || o.external.uri || 'outside reference') + ' (outside this package)' });
      ul.append(el('li', {}, el('span', { class: 'kind', text: x.associationType + (x.direction === 'incoming' ? ' (from)' : '') + ': ' }), other));
    }
    return section('Publisher relations', (r.value.relations || []).length ? "Asserted by the framework's publisher." : 'The publisher asserts none for this standard.', ul);
  }

  function componentSection(r, fw, snap) {
    const componentPath = (id) => frameworkPath(fw, snap) + '/learning-component/' + seg(id);
    if (r.status !== 'fulfilled') return section('Learning components', r.reason.message);
    const ul = el('ul');
    for (const c of r.value.components || []) {
      const conf = c.relationship && c.relationship.supportConfidence !== null && c.relationship.supportConfidence !== undefined ? ' (confidence ' + c.relationship.supportConfidence + ')' : '';
      ul.append(el('li', {}, el('a', { href: componentPath(c.node.nodeId), text: plain(c.node.description) }), el('span', { class: 'meta', text: conf })));
    }
    return section('Learning components', (r.value.components || []).length ? "The package's generated decomposition of this standard, not the publisher's." : 'No learning component supports this standard.', ul);
  }

  function progressionSection(r, fw, snap) {
    if (r.status !== 'fulfilled') return section('Learning progressions (generated)', r.reason.message);
    const v = r.value, recs = {};
    for (const n of v.nodes || []) recs[n.nodeId] = n;
    const ul = el('ul');
    const kinds = { outgoing_builds: 'builds towards', incoming_builds: 'builds on', related: 'related to' };
    for (const c of v.connections || []) {
      const other = c.sourceMatch.selectedStandard ? c.targetMatch.nodeId : c.sourceMatch.nodeId;
      const text = kinds[c.connectionKind] || c.connectionKind;
      ul.append(el('li', {}, el('span', { class: 'kind', text: text + ': ' }), el('a', { href: standardPath(fw, snap, other), text: label(recs[other]) || other })));
    }
    return section('Learning progressions (generated)', (v.connections || []).length ? 'Generated edges (llm_inferred), not the publisher\u2019s sequence.' : 'No stored progression edge touches this standard.', ul);
  }

  async function componentPage(fw, snap, node) {
    const r = await call('get_learning_component', { frameworkId: fw, snapshotId: snap, nodeId: node });
    const n = r.node, m = r.sourceMetadata;
    trail([{ text: 'Catalog', href: base + '/' }, { text: m.name, href: frameworkPath(fw, snap) }, { text: 'Learning component' }]);
    const ul = el('ul');
    for (const p of r.placements || []) {
      const conf = p.supportConfidence !== null && p.supportConfidence !== undefined ? ' (confidence ' + p.supportConfidence + ')' : '';
      ul.append(el('li', {}, el('a', { href: standardPath(fw, snap, p.nodeId), text: label(p) || p.nodeId }), el('span', { class: 'meta', text: conf })));
    }
    show('Learning component', el('p', { class: 'statement', text: plain(n.description) }),
      facts([['Node ID', n.nodeId], ['Tags', n.tags], ['Licence', n.license], ['Attribution', n.attributionStatement]]),
      section('Supports', "The package's generated decomposition: the standards this component supports, not the publisher's.", ul));
  }

  async function searchPage(q) {
    trail([{ text: 'Catalog', href: base + '/' }, { text: 'Search' }]);
    document.getElementById('q').value = q;
    const r = await call('search_standards', { mode: 'text', query: q, match: { matchMode: 'stems', operator: 'all' }, limit: 25 });
    const ol = el('ol', { class: 'hits' });
    for (const h of r.page.hits) {
      const n = h.node, id = h.packageIdentity;
      ol.append(el('li', {}, el('a', { href: standardPath(id.frameworkId, id.snapshotId, n.nodeId), text: label(n) }),
        el('p', { class: 'meta', text: (h.hierarchyPath || []).slice(0, -1).join(' › ') })));
    }
    const note = r.page.totalMatchingCount > r.page.hits.length ? (r.page.totalMatchingCount - r.page.hits.length) + ' more matches; a narrower query finds fewer.' : '';
    const sugg = (r.page.suggestions || []).map((s) => el('li', { text: s.message }));
    show('Search: ' + q + ' (' + r.page.totalMatchingCount + ')', el('p', { class: 'note', text: 'Candidates found by their words, best first: not alignments.' }), ol,
      note ? el('p', { class: 'note', text: note }) : null, sugg.length ? section('Suggestions', '', el('ul', {}, ...sugg)) : null);
  }

  // --- routing --------------------------------------------------------------

  // uriPath turns a kgfegmcp:// address into the page that shows it.
  function uriPath(u) {
    const m = /^kgfegmcp:\/\/(framework\/[^?#]*)$/.exec(u);
    if (!m) return null;
    const parts = m[1].split('/');
    if (parts.length >= 6 && (parts[4] === 'standard' || parts[4] === 'learning-component')) return '/' + parts.slice(0, 6).join('/');
    if (parts.length >= 4 && parts[2] === 'snapshot') return '/' + parts.slice(0, 4).join('/');
    if (parts.length === 2) return '/' + parts.join('/');
    return null;
  }

  // route draws the page of path (in a host, a #/… route: the sandboxed
  // frame's own location is never changed), or of the browser's location.
  function route(path) {
    const loc = hostMode ? new URL(path || '/', 'kgc:/') : location;
    const params = new URLSearchParams(loc.search);
    const raw = loc.pathname.split('/').slice(1);
    let parts;
    try {
      parts = raw.map(decodeURIComponent);
    } catch (e) {
      return Promise.reject(new Error('The address is not well formed.'));
    }
    if (raw.length === 1 && raw[0] === '') {
      const u = params.get('uri');
      if (u && !hostMode) {
        const to = uriPath(u);
        if (!to) return Promise.reject(new Error('This page shows kgfegmcp:// addresses of frameworks, snapshots, standards and learning components; ' + u + ' is not one.'));
        location.replace(to);
        return Promise.resolve();
      }
      return catalogPage();
    }
    if (parts[0] === 'search') return searchPage(params.get('q') || '');
    if (parts[0] === 'framework' && parts.length === 2) return frameworkPage(parts[1], '');
    if (parts[0] === 'framework' && parts.length === 4 && parts[2] === 'snapshot') return frameworkPage(parts[1], parts[3]);
    if (parts[0] === 'framework' && parts.length === 6 && parts[2] === 'snapshot' && parts[4] === 'standard') return standardPage(parts[1], parts[3], parts[5]);
    if (parts[0] === 'framework' && parts.length === 6 && parts[2] === 'snapshot' && parts[4] === 'learning-component') return componentPage(parts[1], parts[3], parts[5]);
    return Promise.reject(new Error('No page here.'));
  }

  // startInHost opens, in an MCP host, the standard the tool call that
  // showed the App was about (its arguments, else its result), then follows
  // the page's own links as #/… routes.
  async function startInHost() {
    const go = (path) => route(path).catch(fail);
    document.addEventListener('click', (e) => {
      const a = e.target.closest ? e.target.closest('a') : null;
      const href = a ? a.getAttribute('href') : '';
      if (href && href.startsWith('#/')) {
        e.preventDefault();
        go(href.slice(1));
      }
    });
    document.getElementById('search').addEventListener('submit', (e) => {
      e.preventDefault();
      go('/search?q=' + encodeURIComponent(document.getElementById('q').value));
    });
    document.querySelector('.home').setAttribute('href', '#/');
    await request('ui/initialize', { protocolVersion: '2026-01-26', appInfo: { name: 'kgc-explorer', version: '1' }, appCapabilities: {} });
    notify('ui/notifications/initialized');
    await new Promise((resolve) => {
      const done = () => { if (toolInput && toolResult) resolve(); };
      onToolData = done;
      done();
      setTimeout(resolve, 10000);
    });
    onToolData = null;
    const req = (toolInput && toolInput.request) || {};
    const sc = (toolResult && toolResult.structuredContent) || {};
    const node = req.nodeId || (req.identifier && req.identifier.nodeId) || sc.originNodeId ||
      (sc.standard && (sc.standard.nodeId || (sc.standard.node && sc.standard.node.nodeId)));
    const id = (sc.standard && sc.standard.package && sc.standard.package.packageIdentity) || (sc.package && sc.package.packageIdentity) || {};
    const fw = req.frameworkId || id.frameworkId || (sc.standard && sc.standard.frameworkId);
    const snap = req.snapshotId || (sc.request && sc.request.snapshotId) || id.snapshotId || (sc.standard && sc.standard.snapshotId);
    if (fw && snap && node) return route('/framework/' + seg(fw) + '/snapshot/' + seg(snap) + '/standard/' + seg(node));
    if (fw) return route('/framework/' + seg(fw));
    return route('/');
  }

  (hostMode ? startInHost() : route()).catch(fail);
})();
