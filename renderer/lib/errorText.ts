/**
 * Node's and undici's error codes in words a person can act on. The core says what it was doing
 * ("could not reach the service: ECONNREFUSED"); the UI never shows the code itself.
 */
const CODES: [RegExp, string][] = [
  [/\bECONNREFUSED\b/g, 'nothing answered at its address (is it running?)'],
  [/\b(ENOTFOUND|EAI_NONAME)\b/g, 'its address could not be found'],
  [/\bEAI_AGAIN\b/g, 'the address could not be looked up (no network?)'],
  [/\b(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)\b/g, 'it did not answer in time'],
  [/\b(ECONNRESET|EPIPE|UND_ERR_SOCKET|ECONNABORTED)\b/g, 'the connection was cut off'],
  [/\b(ENETUNREACH|EHOSTUNREACH|ENETDOWN)\b/g, 'the network cannot reach it'],
  [/\b(CERT_HAS_EXPIRED|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|ERR_TLS_CERT_ALTNAME_INVALID)\b/g, 'its security certificate is not valid'],
  [/\b(TypeError: )?fetch failed\b/gi, 'the connection failed'],
  [/\bFailed to fetch\b/g, 'the connection failed'],
  [/\bNetworkError when attempting to fetch resource\.?/g, 'the connection failed'],
];

export function inWords(message: string): string {
  let text = message;
  for (const [pattern, words] of CODES) text = text.replace(pattern, words);
  // "…: the connection failed: nothing answered…" reads twice; keep the more precise half.
  return text.replace(/the connection failed: (?=nothing|its|the|it )/g, '');
}
