/**
 * The only things the browser host serves without a session: a page with no data and the
 * script that reads the one-time launch code from the URL fragment (fragments never reach a
 * server or its logs), removes it from the address bar and history at once, exchanges it for a
 * session (cookie for the app's files, token for API calls, kept in sessionStorage, which is per
 * origin, so per port) and moves on to the app. A reload sends the session token again instead.
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
  const code = params.get('code');
  params.delete('code');
  history.replaceState(null, '', location.pathname);
  const stored = sessionStorage.getItem('monitor-secret');
  if (!code && !stored) {
    status.textContent = 'This address is missing its code. Open the newest link that Breach Monitor printed.';
    return;
  }
  const headers = code ? { 'x-monitor-code': code } : { 'x-monitor-secret': stored };
  const response = await fetch('/__session', { method: 'POST', headers });
  if (!response.ok) {
    sessionStorage.removeItem('monitor-secret');
    status.textContent = 'This link was already used, has expired (links work once, for two minutes) or is from an earlier launch. Open the newest link Breach Monitor printed (press Enter in its terminal for a new one).';
    return;
  }
  const { session } = await response.json();
  sessionStorage.setItem('monitor-secret', session);
  const rest = params.toString();
  location.replace('/app/' + (rest ? '#' + rest : ''));
})();
`;
