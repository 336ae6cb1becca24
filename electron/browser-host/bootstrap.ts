/**
 * The only things the browser host serves without the secret: a page with no data and the
 * script that reads the secret from the URL fragment (fragments never reach a server or its
 * logs), proves it to the host to get the session cookie, keeps it for API calls in
 * sessionStorage (which is per origin, so per port) and moves on to the app.
 */
export const BOOTSTRAP_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Breach Monitor</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<script src="/__bootstrap.js" defer></script>
</head>
<body>
<main><p id="status" role="status">Opening Breach Monitor…</p></main>
</body>
</html>
`;

export const BOOTSTRAP_JS = `(async () => {
  const status = document.getElementById('status');
  const params = new URLSearchParams(location.hash.slice(1));
  const secret = params.get('secret') || sessionStorage.getItem('monitor-secret');
  history.replaceState(null, '', location.pathname);
  if (!secret) {
    status.textContent = 'This address is missing its key. Open the link that Breach Monitor printed when it started.';
    return;
  }
  const response = await fetch('/__session', { method: 'POST', headers: { 'x-monitor-secret': secret } });
  if (!response.ok) {
    sessionStorage.removeItem('monitor-secret');
    status.textContent = 'This link is from an earlier launch of Breach Monitor. Open the link it printed this time.';
    return;
  }
  sessionStorage.setItem('monitor-secret', secret);
  params.delete('secret');
  const rest = params.toString();
  location.replace('/app/' + (rest ? '#' + rest : ''));
})();
`;
