// Loaded by index.html before the app's modules run (a file, not an inline script, so that the
// Content-Security-Policy allows no inline script; server/index.ts).
// /bend?orderId=N: the order's info is asked for while the app's scripts still load, so that
// the model downloads (src/editor/order/prefetch.ts) start sooner. Only a still-valid token is
// used; anything else is left to the app's own request, which handles it.
(function () {
  try {
    var id = location.pathname === '/bend' && new URLSearchParams(location.search).get('orderId');
    var s = id && JSON.parse(localStorage.getItem('aw.session') || 'null');
    if (!s || !s.token || !(s.expiresAt > Date.now() + 5000)) return;
    window.__archwrightEarlyOrder = {
      orderId: Number(id),
      response: fetch('/admin/order/info/info?id=' + encodeURIComponent(id), { headers: { Authorization: s.token } }),
    };
  } catch (e) {}
})();
