import type http from 'node:http';

/** What a failing provider may echo (hosts, addresses, keys): it must never reach our clients. */
export const INTERNAL_DETAIL = 'gpu-7.corp.internal (10.1.2.3) with key sk-live-SECRET123';

/** How a fake AI service answers: normally, late, or broken in one of the ways real ones break. */
export type FakeMode = 'ok' | 'slow' | 'invalid-json' | 'no-choices' | 'empty-text' | 'html-page' | 'http-401' | 'http-500';

export type Protocol = 'openai' | 'anthropic';

export function sendJson(res: http.ServerResponse, status: number, value: unknown, headers: http.OutgoingHttpHeaders = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

/** The refusal of a wrong or missing key, as each service words it. */
export function refuseKey(res: http.ServerResponse, protocol: Protocol) {
  return protocol === 'openai'
    ? sendJson(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } })
    : sendJson(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
}

/** Answers as `mode` breaks and returns true; false for 'ok', 'slow' and 'empty-text', which the caller answers itself. */
export function answerBroken(res: http.ServerResponse, protocol: Protocol, mode: FakeMode): boolean {
  switch (mode) {
    case 'invalid-json':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"choices": [');
      return true;
    case 'no-choices':
      sendJson(res, 200, protocol === 'openai' ? { id: 'x', object: 'chat.completion', choices: [] } : { id: 'x', type: 'message' });
      return true;
    case 'html-page':
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Welcome to nginx!</body></html>');
      return true;
    case 'http-401':
      refuseKey(res, protocol);
      return true;
    case 'http-500':
      sendJson(res, 500, { error: { message: `model crashed on ${INTERNAL_DETAIL}`, type: 'server_error' } });
      return true;
    default:
      return false;
  }
}
